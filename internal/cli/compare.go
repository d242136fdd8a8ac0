package cli

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// compareOptions are the flags of `benchy compare`.
type compareOptions struct {
	Old, New string
	// Threshold and FailOnRegression are fractions (0.02 = 2%);
	// FailOnRegression < 0 means no gate.
	Threshold        float64
	FailOnRegression float64
	Format           string
}

// CompareFormats are the output formats of `benchy compare`.
var CompareFormats = render.ComparisonFormats

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newCompareCmd(g, nil) })
}

// newCompareCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newCompareCmd(g *GlobalOptions, runF func(*compareOptions) error) *cobra.Command {
	opts := &compareOptions{}
	var threshold, fail string
	cmd := &cobra.Command{
		Use:   "compare OLD.json[,OLD2.json...] NEW.json[,NEW2.json...]",
		Short: "Compare results: what changed, and whether it is more than noise",
		Long: `compare matches the experiments of benchy results by name and says, for
each, whether NEW is faster, slower, or not detectably different from OLD.

Runs differ as wholes, so the run is the unit: give several result files
per side (comma-separated) and their run medians are compared (Welch's t on
the logs); with one run on a side the interval is widened by the run-to-run
variation measured on the other side's runs, or, with one run on each side,
by the 3% such runs usually have, assumed, and the sentence says how large
a change it can tell. Comparisons are in cycles where the clock
was measured around the experiment, on on-CPU time where another task took
the CPU, and "inconclusive" where nothing measured can leave out what
interfered. A change is claimed only when the interval excludes 1 (with
several experiments the intervals are held to 5% together, Bonferroni, and
agree with the adjusted p-values) and both the change and the whole
interval lie beyond --threshold. Before the numbers it
lists every difference of machine or settings that could explain a change.

With --fail-on-regression PCT it exits 1 when an experiment is
significantly slower by more than PCT with its whole confidence interval,
or failed in NEW; exit 4 when it cannot judge (an inconclusive or not
comparable experiment, one missing from NEW or measured only in part): rerun
on a quieter machine. Exit 2: bad files or flags, or no experiment in
common.`,
		Example: `  benchy compare old.json new.json
  benchy compare a1.json,a2.json,a3.json b1.json,b2.json,b3.json
  benchy compare old.json new.json --fail-on-regression 5% --format markdown`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return Usagef("compare takes OLD and NEW, each a result file or a comma-separated list of them (runs of one side), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			var err error
			if opts.Threshold, err = ParseFraction("--threshold", threshold); err != nil {
				return err
			}
			opts.FailOnRegression = -1
			if cmd.Flags().Changed("fail-on-regression") {
				if opts.FailOnRegression, err = ParseFraction("--fail-on-regression", fail); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return compareRun(opts, g.Stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&threshold, "threshold", "2%", "smallest change claimed as a difference: `PCT` as 2% or 0.02")
	f.StringVar(&fail, "fail-on-regression", "", "exit 1 when an experiment is significantly slower by more than `PCT` (5% or 0.05)")
	f.StringVar(&opts.Format, "format", "text", "output format: "+strings.Join(CompareFormats, ", "))
	return cmd
}

// maxFraction bounds the percentages the flags take (1000%).
const maxFraction = 10

// ParseFraction reads a percentage "5%" or a fraction "0.05". A bare
// number above 1 is refused rather than guessed: "5" could mean 5% or 5x.
func ParseFraction(flag, s string) (float64, error) {
	return parseFractionBelow(flag, s, maxFraction)
}

// parseFractionBelow is parseFraction with limit as the largest value
// taken; +Inf leaves the range to the caller, so a flag's one error names
// its own bounds.
func parseFractionBelow(flag, s string, limit float64) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, Usagef("%s %q: not a percentage; write e.g. 5%% or 0.05", flag, s)
	}
	if pct {
		v /= 100
	} else if v > 1 {
		return 0, Usagef("%s %s: write %s%% or %s", flag, t, t, strconv.FormatFloat(v/100, 'f', -1, 64))
	}
	if !math.IsInf(limit, 1) && (v < 0 || v > limit) {
		return 0, Usagef("%s %s: must be between 0%% and %s", flag, t, units.Percent(limit))
	}
	return v, nil
}

// compareRun loads, analyzes and compares the two sides, writes the
// comparison to w, and returns the gate's error when it fails (exit 1)
// or cannot judge (exit 4).
func compareRun(opts *compareOptions, w io.Writer) error {
	if err := CheckFormat(opts.Format, CompareFormats); err != nil {
		return err
	}
	old, err := loadSide(opts.Old)
	if err != nil {
		return err
	}
	cur, err := loadSide(opts.New)
	if err != nil {
		return err
	}
	files, err := compare.Results(old, cur, opts.Threshold)
	if errors.Is(err, compare.ErrNothingInCommon) {
		return Usagef("%s and %s have no experiment in common (old: %s; new: %s)",
			opts.Old, opts.New, names(old[0]), names(cur[0]))
	}
	if err != nil {
		return err
	}
	d := compare.NewDocument("benchy "+Version, compare.FileSides(strings.Split(opts.Old, ","), old),
		compare.FileSides(strings.Split(opts.New, ","), cur), old, cur, files, opts.FailOnRegression)
	if err := render.WriteComparison(w, d, opts.Format); err != nil {
		return err
	}
	return GateError(d)
}

// GateError is the gate's exit: nil without a gate or when it passed,
// exit 1 on a regression or a failure, exit 4 when it cannot judge.
func GateError(d compare.Document) error {
	switch d.Outcome() {
	case compare.GateFailed:
		return &SlowerError{Msg: render.GateMessage(d)}
	case compare.GateCannotJudge:
		return &CannotJudgeError{Msg: render.GateMessage(d)}
	}
	return nil
}

// loadSide loads the results of one side: a file, or a comma-separated
// list of files (runs of the same programs).
func loadSide(list string) ([]*result.Result, error) {
	var rs []*result.Result
	seen := map[string]bool{}
	for _, path := range strings.Split(list, ",") {
		if path = strings.TrimSpace(path); path == "" {
			return nil, Usagef("%q: an empty file name in the list", list)
		}
		if abs, err := filepath.Abs(path); err == nil && seen[abs] {
			return nil, Usagef("%s is given twice: one file is one run, and counting it twice would hide the variation between runs", path)
		} else {
			seen[abs] = true
		}
		r, err := LoadForCompare(path)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// LoadForCompare loads and analyzes one result; every failure is one
// usage line that names the file.
func LoadForCompare(path string) (*result.Result, error) {
	r, err := result.Load(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, Usagef("%s: %v", path, pe.Err)
	}
	if ke := (*result.KindError)(nil); errors.As(err, &ke) {
		return nil, Usagef("%v: compare takes results (the --out FILE.json of run, exec or gotest)", err)
	}
	if err != nil {
		return nil, Usagef("%v", err)
	}
	if len(r.Experiments) == 0 {
		return nil, Usagef("%s: the result holds no experiment", path)
	}
	analyze.Analyze(r)
	return r, nil
}

func names(r *result.Result) string {
	ns := make([]string, len(r.Experiments))
	for i, e := range r.Experiments {
		ns[i] = e.Name
	}
	return strings.Join(ns, ", ")
}

// textWidth is the width text reports are written for (the prose of a
// comparison, the list, the machine): an 80-column terminal.
const textWidth = 80
