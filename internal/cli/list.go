package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
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

// listEntry is one experiment in `benchy list --format json`.
type listEntry struct {
	Name        string  `json:"name"`
	Units       float64 `json:"units"`
	Unit        string  `json:"unit"`
	FloorCycles float64 `json:"floor_cycles"` // per unit
	ReadsMemory bool    `json:"reads_memory"`
	// Call says the experiment declares a single call: run --latency
	// times it.
	Call        bool   `json:"call"`
	Description string `json:"description"`
}

func listRun(opts *listOptions, g *GlobalOptions, w io.Writer) error {
	var entries []listEntry
	for _, wl := range g.Experiments {
		entries = append(entries, listEntry{
			Name: wl.Name, Units: wl.Units, Unit: wl.Unit, FloorCycles: result.Floor(wl.FloorCycles),
			ReadsMemory: wl.ReadsMemory, Call: wl.Call != nil, Description: wl.Description,
		})
	}
	if opts.Format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(entries)
	}
	// The descriptions wrap under their own column, so that the list
	// reads on an 80-column terminal.
	works := make([]string, len(entries))
	nameW, workW := len("NAME"), len("WORK PER OP")
	for i, e := range entries {
		works[i] = "none declared"
		if e.Units > 0 {
			works[i] = fmt.Sprintf("%g %s", e.Units, workOf(e.Unit, e.Units))
		}
		nameW, workW = max(nameW, len(e.Name)), max(workW, len(works[i]))
	}
	indent := strings.Repeat(" ", nameW+2+workW+2)
	fmt.Fprintf(w, "%-*s  %-*s  DESCRIPTION\n", nameW, "NAME", workW, "WORK PER OP")
	for i, e := range entries {
		desc := strings.ReplaceAll(render.Wrap(e.Description, max(textWidth-len(indent), 30), ""), "\n", "\n"+indent)
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, e.Name, workW, works[i], desc)
	}
	return nil
}

// workOf names the work of one op: "4096 adds", "1 multiply".
func workOf(unit string, n float64) string {
	if n == 1 || unit == "" {
		return unit
	}
	return units.Plural(unit)
}
