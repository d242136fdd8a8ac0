package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/asm"
)

// asmOptions are the flags and argument of `benchy asm`.
type asmOptions struct {
	Experiment string
	Format     string
}

func init() { commands = append(commands, newAsmCmd) }

func newAsmCmd(g *globalOptions) *cobra.Command {
	opts := &asmOptions{}
	cmd := &cobra.Command{
		Use:   "asm EXPERIMENT",
		Short: "Show the machine code of an experiment's measured loop",
		Long: `asm disassembles the loop of an experiment from benchy's own executable,
marks its loops, follows the calls made from them one level, and says in one
line what the innermost loop does. A loop that loads nothing has not read its
input: the time it measures is not the time of the work.`,
		Example: `  benchy asm sum/unused
  benchy asm sum/sink --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return Usagef("benchy asm takes one experiment name (see benchy list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Experiment = args[0]
			if err := checkFormat(opts.Format, textOrJSON); err != nil {
				return err
			}
			return asmRun(opts, g, g.Stdout)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output `format`: text or json")
	return cmd
}

// asmReport is `benchy asm --format json`.
type asmReport struct {
	Experiment string       `json:"experiment"`
	Summary    asm.Summary  `json:"summary"`
	Listing    *asm.Listing `json:"listing"`
}

func asmRun(opts *asmOptions, g *globalOptions, w io.Writer) error {
	wl, ok := lookup(g.Experiments, opts.Experiment)
	if !ok {
		return Usagef("unknown experiment %q (benchy list shows them)", opts.Experiment)
	}
	l, err := asm.Inspect(wl.Loop)
	if errors.Is(err, asm.ErrUnsupportedArch) {
		return Usagef("%v", err)
	}
	if err != nil {
		return err
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(asmReport{Experiment: wl.Name, Summary: l.Summary(), Listing: l})
	}
	if _, err := fmt.Fprintf(w, "%s: %s\n\n", wl.Name, wl.Description); err != nil {
		return err
	}
	return asm.WriteText(w, l)
}
