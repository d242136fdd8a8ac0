package cli

import (
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/render"
)

// asmOptions are the flags and argument of `benchy asm`.
type asmOptions struct {
	Experiment string
	Format     string
	Binary     string // a compiled program (a test binary): NAME is a function of it
}

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newAsmCmd(g, nil) })
}

// newAsmCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newAsmCmd(g *GlobalOptions, runF func(*asmOptions) error) *cobra.Command {
	opts := &asmOptions{}
	cmd := &cobra.Command{
		Use:   "asm EXPERIMENT",
		Short: "Show the machine code of an experiment's measured loop",
		Long: `asm disassembles the loop of an experiment from benchy's own executable,
marks its loops, follows the calls made from them one level, and says in one
line what the innermost loop does. A loop that loads nothing has not read its
input: the time it measures is not the time of the work.

With --binary, the function is read from a compiled Go program instead: a
test binary (go test -c) and a benchmark's name (BenchmarkSum, or Sum), or
any function by its full name.`,
		Example: `  benchy asm sum/unused
  benchy asm sum/sink --format json
  go test -c -o pkg.test && benchy asm --binary pkg.test BenchmarkSum`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return Usagef("benchy asm takes one experiment name (see benchy list), or with --binary one function")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Experiment = args[0]
			if err := CheckFormat(opts.Format, textOrJSON); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return asmRun(opts, g, g.Stdout)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output `format`: text or json")
	cmd.Flags().StringVar(&opts.Binary, "binary", "", "read the function from the Go program `FILE` (a test binary)")
	cmd.ValidArgsFunction = completeAsm(g, opts)
	return cmd
}

func asmRun(opts *asmOptions, g *GlobalOptions, w io.Writer) error {
	var l *asm.Listing
	var name, title string
	var err error
	if opts.Binary != "" {
		exe, openErr := asm.OpenFile(opts.Binary)
		if openErr != nil {
			return Usagef("--binary %s: %v", opts.Binary, openErr)
		}
		defer exe.Close()
		if name, err = binaryFunc(exe, opts.Binary, opts.Experiment); err != nil {
			return err
		}
		l, err = exe.Inspect(name)
		title = name + " in " + opts.Binary
	} else {
		wl, ok := lookup(g.Experiments, opts.Experiment)
		if !ok {
			return Usagef("unknown experiment %q%s (benchy list shows them)", opts.Experiment, didYouMean(g.Experiments, opts.Experiment))
		}
		l, err = asm.Inspect(wl.Loop)
		name, title = wl.Name, wl.Name+": "+wl.Description
	}
	if errors.Is(err, asm.ErrUnsupportedArch) || err != nil && opts.Binary != "" {
		return Usagef("%v", err)
	}
	if err != nil {
		return err
	}
	return render.WriteAsm(w, opts.Format, render.AsmReport{Experiment: name, Title: title, Summary: l.Summary(), Listing: l})
}

// binaryFunc is the symbol a name given with --binary stands for: a full
// name as it is, else a benchmark (BenchmarkSum, or Sum) of the binary's
// packages, in exe, the executable at path. Several matches are a usage
// error that lists them.
func binaryFunc(exe *asm.File, path, name string) (string, error) {
	var matches []string
	for _, f := range exe.FuncNames("") {
		switch {
		case f == name:
			return f, nil
		case strings.HasSuffix(f, "."+name) && strings.Contains(name, "Benchmark"),
			strings.HasSuffix(f, ".Benchmark"+name):
			matches = append(matches, f)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", Usagef("--binary %s: no function %s, nor a benchmark of that name (give the full name, e.g. example.com/pkg.BenchmarkSum)", path, name)
	}
	return "", Usagef("--binary %s: %s is any of %s: give the full name", path, name, strings.Join(matches, ", "))
}
