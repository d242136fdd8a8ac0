package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// listOptions are the flags of `benchy list`.
type listOptions struct {
	Format string
}

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newListCmd(g, nil) })
}

// newListCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newListCmd(g *GlobalOptions, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the experiments",
		Long: `list prints every experiment this program registered (benchy's own, or
your program's): its name (use it with run --bench, run --compare and asm),
the work one op does, and what the experiment shows.`,
		Example: `  benchy list
  benchy list --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := CheckFormat(opts.Format, textOrJSON); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts, g, g.Stdout)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output `format`: text or json")
	return cmd
}

func listRun(opts *listOptions, g *GlobalOptions, w io.Writer) error {
	var entries []render.ListEntry
	for _, wl := range g.Experiments {
		entries = append(entries, render.ListEntry{
			Name: wl.Name, Units: wl.Units, Unit: wl.Unit, FloorCycles: result.Floor(wl.FloorCycles),
			ReadsMemory: wl.ReadsMemory, Call: wl.Call != nil, Description: wl.Description,
		})
	}
	return render.WriteList(w, opts.Format, entries, textWidth)
}
