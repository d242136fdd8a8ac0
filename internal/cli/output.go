package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// OutputOptions are the flags of a command that writes a result (run,
// report, and every command that measures): where, in which format, how
// much, and when the exit says the numbers are not to be believed.
type OutputOptions struct {
	Format      string
	Out         string
	SamplesFile string
	HTML        string
	// GobenchCounters adds benchy's counters to the gobench lines.
	GobenchCounters bool
	Strict          string // "", "error" or "warn"
	Force           bool
	ASCII           bool
	Store           string // --store: also keep the result in the history

	Formats   []string // what this command writes
	formatSet bool
	g         *GlobalOptions // -v is the root's (GlobalOptions.Verbose)

	OutDest, SamplesDest, HTMLDest *outfile.Dest // checked before anything is measured
	store                          *history.Address
	command                        string         // the command's name, for the stored commit
	StoreDir                       string         // the directory of the measured code, "" for here
	source                         history.Source // its commit, read before anything is measured
	width                          int            // of the terminal stdout is, 0 when not one
}

// Bind adds the flags to cmd, and marks it as taking the root's -v;
// samples says the command can write raw samples (--samples-file) too.
func (o *OutputOptions) Bind(cmd *cobra.Command, g *GlobalOptions, formats []string, samples bool) {
	o.Formats, o.g = formats, g
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[verboseAnnotation] = "yes"
	f := cmd.Flags()
	f.StringVar(&o.Format, "format", "text", "output `FORMAT`: "+strings.Join(formats, ", ")+" (default: from the --out extension, else text)")
	f.Lookup("format").DefValue = ""
	f.StringVarP(&o.Out, "out", "o", "", "write the result to `FILE` (atomically) instead of stdout")
	if samples {
		f.StringVar(&o.SamplesFile, "samples-file", "", "also write every raw sample as CSV to `FILE`")
		f.StringVar(&o.HTML, "html", "", "also write a report to look at (charts, self-contained HTML) to `FILE`")
		f.StringVar(&o.Store, "store", "", "also keep the result in the history: "+StoreHelp)
	}
	f.BoolVar(&o.GobenchCounters, "gobench-counters", false, "gobench: also write benchy's counters per op (run-delay-ns/op, voluntary-cs/op, ...) after go test's units")
	addStrictFlag(f, &o.Strict, "exit 3 when an experiment is not believable; --strict warn also when doubtful")
	f.BoolVar(&o.Force, "force", false, "replace an --out file even if it is read-only")
	f.BoolVar(&o.ASCII, "ascii", false, "text: draw the run-order sparklines in ASCII (the default where the locale is not UTF-8)")
}

// verbose is -v, given before the command or after it.
func (o *OutputOptions) verbose() bool { return o.g != nil && o.g.Verbose }

// extensions map the file extensions --out recognises to formats.
var extensions = map[string]string{
	".json": "json", ".csv": "csv", ".txt": "text", ".text": "text",
	".gobench": "gobench", ".bench": "gobench", ".md": "markdown", ".html": "html",
}

// StrictArgs takes a --strict value given after a space (`--strict warn`):
// pflag reads a flag with an optional value only as --strict=warn, and
// leaves "warn" as an argument. raw is the command line as typed: the word
// right after "--strict" there, when it is a level, is the value, wherever
// the other arguments are. It returns the arguments without it.
func StrictArgs(cmd *cobra.Command, strict *string, args, raw []string) []string {
	if !cmd.Flags().Changed("strict") || *strict != "error" {
		return args
	}
	for i, w := range raw {
		if w == "--" {
			break
		}
		if w == "--strict" && i+1 < len(raw) && isStrictLevel(raw[i+1]) {
			if j := slices.Index(args, raw[i+1]); j >= 0 {
				*strict = raw[i+1]
				return slices.Delete(slices.Clone(args), j, j+1)
			}
		}
	}
	return args
}

// Validate checks the flags before anything is measured: the format (or
// the one --out's extension names), --strict, and that every output file
// can be written, and is not named twice.
func (o *OutputOptions) Validate(cmd *cobra.Command) error {
	if err := o.validateFormat(cmd); err != nil {
		return err
	}
	if err := checkStrict(cmd, o.Strict); err != nil {
		return err
	}
	if err := o.validateStore(cmd); err != nil {
		return err
	}
	return o.validateFiles()
}

// validateFormat settles the format: --format, or the one --out's
// extension names, refusing the two when they disagree, and
// --gobench-counters with any other format.
func (o *OutputOptions) validateFormat(cmd *cobra.Command) error {
	o.formatSet = cmd.Flags().Changed("format")
	if err := CheckFormat(o.Format, o.Formats); err != nil {
		return err
	}
	if ext := strings.ToLower(filepath.Ext(o.Out)); o.Out != "" && extensions[ext] != "" {
		switch {
		case !slices.Contains(o.Formats, extensions[ext]):
			// Not text under a name that says otherwise (gotest
			// --against --out x.html wrote its text comparison there).
			if !o.formatSet {
				return Usagef("--out %s: the extension says %s, but the formats here are %s: give --format, or name the file for one of them", o.Out, extensions[ext], strings.Join(o.Formats, ", "))
			}
		case !o.formatSet:
			o.Format = extensions[ext]
		case o.Format != extensions[ext]:
			return Usagef("--format %s but --out %s: the extension says %s; give one or make them agree", o.Format, o.Out, extensions[ext])
		}
	}
	if o.GobenchCounters && o.Format != "gobench" {
		return Usagef("--gobench-counters needs --format gobench (or --out FILE.gobench); this writes %s", o.Format)
	}
	return nil
}

// validateStore checks --store, when given: the commit the result is kept
// under is known, and the store can be opened, before anything is
// measured.
func (o *OutputOptions) validateStore(cmd *cobra.Command) error {
	if o.Store == "" {
		return nil
	}
	o.command = cmd.Name()
	if err := o.checkSource(); err != nil {
		return err
	}
	a, err := CheckStore(o.Store)
	if err != nil {
		return err
	}
	o.store = &a
	return nil
}

// validateFiles checks that --out, --samples-file and --html can be written,
// and that no two of them are the same file (one would replace the
// other), before anything is measured.
func (o *OutputOptions) validateFiles() (err error) {
	opts := outfile.Options{Replace: o.Force}
	if o.Out != "" {
		if o.OutDest, err = outfile.Check("--out", o.Out, opts); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	if o.SamplesFile != "" {
		if o.SamplesDest, err = outfile.Check("--samples-file", o.SamplesFile, opts); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		if outfile.Same(o.OutDest, o.SamplesDest) {
			return Usagef("--out %s and --samples-file %s are the same file: one would replace the other", o.Out, o.SamplesFile)
		}
	}
	if o.HTML != "" {
		if o.HTMLDest, err = outfile.Check("--html", o.HTML, opts); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		if outfile.Same(o.OutDest, o.HTMLDest) || outfile.Same(o.SamplesDest, o.HTMLDest) {
			return Usagef("--html %s is also --out or --samples-file: one would replace the other", o.HTML)
		}
	}
	return nil
}

// Write writes r: the raw samples to --samples-file, the result to --out
// or stdout. When the result does not go to a terminal as text (--out, or
// another format), the summary line still reaches stderr. A file that
// cannot be written at the end is kept elsewhere, and the error says
// where; a failing --samples-file does not stop the result.
func (o *OutputOptions) Write(r *result.Result, stdout, stderr io.Writer) error {
	var errs []string
	if o.SamplesDest != nil {
		if _, err := o.SamplesDest.WriteOrKeep(func(w io.Writer) error { return render.Write(w, r, "csv") }); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if o.HTMLDest != nil {
		if err := WriteFile(o.HTMLDest, o.HTML, func(w io.Writer) error { return render.Write(w, r, "html") }, stderr); err != nil {
			errs = append(errs, err.Error())
		}
	}
	ropts := render.Options{Verbose: o.verbose(), Width: o.width, ASCII: o.ASCII || !UTF8Locale(), GobenchCounters: o.GobenchCounters}
	render := func(w io.Writer) error { return render.WriteWith(w, r, o.Format, ropts) }
	switch {
	case o.OutDest != nil:
		if err := WriteFile(o.OutDest, o.Out, render, stderr); err != nil {
			errs = append(errs, err.Error())
		}
	default:
		if err := render(stdout); err != nil {
			errs = append(errs, "write the result: "+err.Error())
		}
	}
	if o.OutDest != nil || o.Format != "text" {
		fmt.Fprintf(stderr, "benchy: summary: %s\n", analyze.Summary(r))
	}
	if len(errs) > 0 {
		return &FailedError{Msg: strings.Join(errs, "; ")}
	}
	if o.store != nil {
		if r.Interrupted {
			fmt.Fprintf(stderr, "benchy: --store: not stored: the run was interrupted, its result is not the commit's\n")
			return nil
		}
		return StoreResult(*o.store, o.source, r, stderr)
	}
	return nil
}

// utf8Locale reports whether the locale lets text use Unicode: the first
// of LC_ALL, LC_CTYPE and LANG that is set names UTF-8, or none is set
// (most terminals, CI logs and containers).
func UTF8Locale() bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if l := os.Getenv(v); l != "" {
			l = strings.ToLower(l)
			return strings.Contains(l, "utf-8") || strings.Contains(l, "utf8")
		}
	}
	return true
}

// WriteFile writes what render makes to dest (named name), and says so on
// stderr. Its error says where the bytes were kept when they could not go
// there (outfile.Dest.WriteOrKeep).
func WriteFile(dest *outfile.Dest, name string, render func(io.Writer) error, stderr io.Writer) error {
	if _, err := dest.WriteOrKeep(render); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "benchy: wrote %s\n", result.Printable(name))
	return nil
}

// checkSource reads, before anything is measured, the commit --store will
// store the result at: finding out at the end that none is known would
// leave a measurement with nowhere to go, and the commit is the code's as
// the run began.
func (o *OutputOptions) checkSource() (err error) {
	if o.source, err = history.SourceOf(o.command, cmp.Or(o.StoreDir, ".")); err != nil {
		return Usagef("--store: no commit known for the measured code (%s); measure in a git work tree, or write --out FILE.json and store it with benchy history import FILE --commit REV", OneLine(err.Error()))
	}
	return nil
}

// Measuring is what a command that measures is told while it runs: Ctx,
// the Watcher's context, is cancelled at the first stop signal (it ends
// the run after the current sample), and Progress, a terminal's stderr,
// takes a progress line. Ctx is a field because the command's options
// carry it to every step that makes or measures a target.
type Measuring struct {
	Ctx      context.Context
	Progress io.Writer
}

// Measure runs a command that measures: its output and precision flags
// checked before anything else, the stop signals watched (a second one
// exits at once), a progress line on a terminal. A run a signal stopped,
// which wrote what it measured, exits as the signal says.
func Measure(cmd *cobra.Command, g *GlobalOptions, out *OutputOptions, prec *PrecisionOptions, m *Measuring, run func(*Watcher) error) error {
	if err := out.Validate(cmd); err != nil {
		return err
	}
	if err := prec.validate(cmd.Flags().Changed("max-time")); err != nil {
		return err
	}
	w := WatchSignals(context.Background(), g.Stderr)
	defer w.Close()
	m.Ctx = w.Context()
	if isTerminal(g.Stderr) {
		m.Progress = g.Stderr
	}
	out.width = TerminalWidth(g.Stdout)
	err := run(w)
	if s := w.Signal(); s != nil && err == nil {
		return &InterruptedError{Signal: s, Msg: SignalName(s) + ": the result holds what was measured"}
	}
	return err
}

// clearFirst writes to w once the progress line p is cleared, so that a
// note starts on a line of its own.
type clearFirst struct {
	p *Progress
	w io.Writer
}

func (c clearFirst) Write(b []byte) (int, error) {
	c.p.Clear()
	return c.w.Write(b)
}

// runPlan runs plan over ts with a progress line when progress is not nil
// (est says roughly how long each target takes; one when the plan makes
// its targets), the pipeline's notes to notes when it is not nil, and
// turns the pipeline's errors into the command's: stopped by a signal
// before anything was measured (the signal's exit), a plan in error (exit
// 2).
func runPlan(ctx context.Context, plan pipeline.Plan, ts []pipeline.Target, progress, notes io.Writer, est Estimate, w *Watcher) (*result.Result, error) {
	plan.Notes = notes
	if progress != nil {
		p := NewProgress(progress, max(len(ts), 1), est)
		plan.Progress = p.Update
		if w != nil {
			w.SetBefore(p.Clear)
		}
		defer p.Clear()
		if notes != nil {
			plan.Notes = clearFirst{p, notes}
		}
	}
	r, err := pipeline.Run(ctx, plan, ts)
	switch {
	case errors.Is(err, context.Canceled) && SignalOf(ctx) != nil:
		s := SignalOf(ctx)
		return nil, &InterruptedError{Signal: s, Msg: SignalName(s) + " before anything was measured: no result"}
	case errors.Is(err, pipeline.ErrUsage):
		return nil, &UsageError{Msg: err.Error()}
	}
	return r, err
}
