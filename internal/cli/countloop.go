package cli

import (
	"os"
	"regexp"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// countLoopCmd is the name of the hidden command that run --measure
// instructions re-executes the program with: it runs one experiment's
// loop at N ops, once, under callgrind.
const countLoopCmd = "count-loop"

func init() { commands = append(commands, newCountLoopCmd) }

func newCountLoopCmd(g *GlobalOptions) *cobra.Command {
	return &cobra.Command{
		Use:    countLoopCmd + " NAME N",
		Short:  "Run one experiment's loop N times, once (for run --measure instructions)",
		Hidden: true,
		Args:   cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return countLoopRun(g, args[0], args[1])
		},
	}
}

// numberedSuffix is the "#2" of an experiment named twice in --compare.
var numberedSuffix = regexp.MustCompile(`#\d+$`)

func countLoopRun(g *GlobalOptions, name, count string) error {
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		return Usagef("%s: N %q: must be a positive number of ops", countLoopCmd, count)
	}
	w, ok := lookup(g.Experiments, name)
	if !ok {
		w, ok = lookup(g.Experiments, numberedSuffix.ReplaceAllString(name, ""))
	}
	if !ok {
		return Usagef("%s: no experiment %q (see benchy list)", countLoopCmd, name)
	}
	inproc.RunLoop(w, n)
	return nil
}

// countLoopArgs is the command line that runs the experiment name at n
// ops: this program again, whatever registered the experiments (benchy,
// or a program built on the public package).
func countLoopArgs(name string, n int64) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return []string{self, countLoopCmd, name, strconv.FormatInt(n, 10)}, nil
}
