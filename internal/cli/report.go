package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// reportOptions are the flags of `benchy report`.
type reportOptions struct {
	File string
	OutputOptions
}

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newReportCmd(g, nil) })
}

// newReportCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newReportCmd(g *GlobalOptions, runF func(*reportOptions) error) *cobra.Command {
	opts := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report FILE",
		Short: "Recompute and render a saved result",
		Long: `report reads a JSON result written by benchy, recomputes the statistics,
findings and verdicts from its raw samples, counters and recorded clock,
and writes it in any format. A result written by an older benchy is judged
by today's rules. -v shows everything behind the verdicts. A comparison
(compare --format json, gotest --against --out x.json) holds no samples:
it is written as it was judged, as text, json or markdown.

With --strict it exits 3 when an experiment is not believable;
--strict warn also when one is doubtful.`,
		Example: `  benchy report result.json -v
  benchy report result.json --format gobench > result.txt
  benchy report result.json --strict warn`,
		Args: func(cmd *cobra.Command, args []string) error {
			args = StrictArgs(cmd, &opts.Strict, args, g.Args)
			if len(args) != 1 {
				return Usagef("report takes one FILE (a JSON result of benchy), got %d arguments", len(args))
			}
			opts.File = args[0]
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.OutputOptions.Validate(cmd); err != nil {
				return err
			}
			opts.width = TerminalWidth(g.Stdout)
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts, g.Stdout, g.Stderr)
		},
	}
	opts.OutputOptions.Bind(cmd, g, render.Formats, false)
	return cmd
}

// reportRun loads opts.File, analyzes it again and writes it; a
// comparison it writes as recorded (reportComparison).
func reportRun(opts *reportOptions, stdout, stderr io.Writer) error {
	data, err := result.ReadFile(opts.File)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return Usagef("%s: %v", opts.File, pe.Err) // "x.json: no such file or directory"
	}
	if err != nil {
		return Usagef("%v", err) // ReadFile names the file
	}
	r, err := result.Unmarshal(data)
	if ke := (*result.KindError)(nil); errors.As(err, &ke) && ke.Kind == result.KindComparison {
		return reportComparison(opts, data, stdout, stderr)
	}
	if err != nil {
		return Usagef("%s: %v", opts.File, err)
	}
	analyze.Analyze(r)
	if err := opts.Write(r, stdout, stderr); err != nil {
		return err
	}
	return strictError(r, opts.Strict)
}

// reportComparison writes the comparison in data (gotest --against,
// benchy compare --format json) with the writers that first wrote it, in
// their formats: it holds no samples, which the others are made of, and
// its verdicts and gate are the ones recorded.
func reportComparison(opts *reportOptions, data []byte, stdout, stderr io.Writer) error {
	if !slices.Contains(CompareFormats, opts.Format) {
		return Usagef("--format %s: %s is a comparison, without samples: report writes it as %s", opts.Format, opts.File, strings.Join(CompareFormats, ", "))
	}
	if opts.Strict != "" {
		return Usagef("--strict judges a result's experiments: %s is a comparison (its gate is compare's or gotest's --fail-on-regression)", opts.File)
	}
	d, err := compare.ReadDocument(data)
	if err != nil {
		return Usagef("%s: not a valid benchy comparison: %s", opts.File, OneLine(err.Error()))
	}
	write := func(w io.Writer) error { return render.WriteComparison(w, d, opts.Format) }
	if opts.OutDest != nil {
		if err := WriteFile(opts.OutDest, opts.Out, write, stderr); err != nil {
			return &FailedError{Msg: err.Error()}
		}
		return nil
	}
	return write(stdout)
}

// strictError is --strict for results, shared by run and report: with
// level "error" it fails (exit 3) when an experiment is not believable,
// with "warn" also when one is doubtful; "" never fails.
func strictError(r *result.Result, level string) error {
	sev, ok := strictLevel(level)
	if !ok {
		return nil
	}
	names := analyze.StrictFailures(r, sev)
	if len(names) == 0 {
		return nil
	}
	what := "not believable"
	if sev == finding.Warn {
		what = "doubtful or not believable"
	}
	n := fmt.Sprintf("%d experiments", len(names))
	if len(names) == 1 {
		n = "1 experiment"
	}
	return &StrictError{Msg: fmt.Sprintf("--strict=%s: %s %s: %s", level, n, what, strings.Join(names, ", "))}
}
