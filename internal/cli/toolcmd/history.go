package toolcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// historyOptions are the flags every history command shares.
type historyOptions struct {
	g     *cli.GlobalOptions
	Store string
}

func newHistoryCmd(g *cli.GlobalOptions) *cobra.Command {
	o := &historyOptions{g: g}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Keep results over commits; find the commit that made one slower",
		Long: `history keeps every result it is given, with the commit it measured and the
machine it ran on, and judges each benchmark's series over commits: a step
to a slower level that holds is a regression, named with its commit range.`,
		Example: "  benchy gotest ./... --store ci.db\n  benchy history import results/*.json\n  benchy history show 'Sum' --format html > history.html\n  benchy history check --threshold 5%",
	}
	cmd.PersistentFlags().StringVar(&o.Store, "store", "", cli.StoreHelp)
	cmd.AddCommand(newHistoryImportCmd(o), newHistoryShowCmd(o), newHistoryCheckCmd(o, nil))
	return cmd
}

// open opens the store the flags and environment name, to write it (or,
// with read, an existing one to read it: sqlstore.OpenRead); a store that
// cannot be opened is bad input (exit 2).
func (o *historyOptions) open(ctx context.Context, read bool) (sqlstore.Store, error) {
	a, err := history.Resolve(o.Store, os.Getenv)
	if err != nil {
		return nil, &cli.UsageError{Msg: "--store: " + err.Error()}
	}
	open := sqlstore.Open
	if read {
		open = sqlstore.OpenRead
	}
	s, err := open(ctx, a)
	if err != nil {
		return nil, &cli.UsageError{Msg: "store " + cli.OneLine(err.Error())}
	}
	return s, nil
}

type historyImportOptions struct {
	*historyOptions
	Commit string
	Time   string
}

func newHistoryImportCmd(h *historyOptions) *cobra.Command {
	o := &historyImportOptions{historyOptions: h}
	cmd := &cobra.Command{
		Use:   "import FILE...",
		Short: "Store result files, each once however often it is imported",
		Long: `import stores each result file with the commit it measured: --commit REV, else
HEAD of the git work tree here (marked dirty when the tree has changes,
which keeps the result out of the series). Every file is read first: when
one is not a benchy result, nothing is stored.`,
		Example: "  benchy history import new.json\n  benchy history import --commit v1.2.0 --time 2024-05-01 old.json",
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return historyImport(cmd.Context(), o, args, o.g.Stdout)
		},
	}
	cmd.Flags().StringVar(&o.Commit, "commit", "", "the commit the results measured: a `REV` git resolves here, or a full hash (default: HEAD here)")
	cmd.Flags().StringVar(&o.Time, "time", "", "when the results were measured, in place of their start: RFC 3339, a date, or @SECONDS (`T`)")
	return cmd
}

func historyImport(ctx context.Context, o *historyImportOptions, files []string, stdout io.Writer) error {
	ctx = orBackground(ctx)
	var when time.Time
	if o.Time != "" {
		t, err := sqlstore.ParseTime(o.Time)
		if err != nil {
			return &cli.UsageError{Msg: err.Error()}
		}
		when = t
	}
	src, err := importSource(o.Commit)
	if err != nil {
		return err
	}
	recs := make([]sqlstore.Record, len(files))
	for i, f := range files {
		r, err := result.Load(f)
		if err != nil {
			return cli.Usagef("%s (nothing stored)", cli.OneLine(err.Error()))
		}
		if recs[i], err = sqlstore.NewRecord(r, src, when); err != nil {
			return cli.Usagef("%s: %v (nothing stored)", result.Printable(f), err)
		}
	}
	s, err := o.open(ctx, false)
	if err != nil {
		return err
	}
	defer s.Close()
	added, err := s.Add(ctx, recs)
	if err != nil {
		return &cli.FailedError{Msg: fmt.Sprintf("store %s: %s (nothing stored)", s.Show(), cli.OneLine(err.Error()))}
	}
	for i, f := range files {
		if !added[i] {
			fmt.Fprintf(stdout, "%s: already stored (as first imported, its commit kept)\n", result.Printable(f))
			continue
		}
		dirty := ""
		if src.Dirty {
			dirty = " (the tree has changes: kept out of the series)"
		}
		fmt.Fprintf(stdout, "%s: stored as commit %s on machine %s%s\n", result.Printable(f), history.Short(src.Commit), recs[i].Machine.ID, dirty)
	}
	return nil
}

// fullHash matches a commit hash written out (SHA-1 or SHA-256).
var fullHash = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// importSource is the commit the imported results measured: rev as git
// resolves it here, or as written when it is a full hash and there is no
// repository to ask; HEAD here without --commit.
func importSource(rev string) (history.Source, error) {
	if rev == "" {
		s, err := history.GitSource(".")
		if err != nil {
			return s, cli.Usagef("no commit: this directory is not in a git work tree (%s); give --commit REV", cli.OneLine(err.Error()))
		}
		return s, nil
	}
	s, err := history.GitCommit(".", rev)
	if err == nil {
		return s, nil
	}
	if fullHash.MatchString(strings.ToLower(rev)) {
		return history.Source{Commit: strings.ToLower(rev)}, nil
	}
	return s, cli.Usagef("--commit %s: %s; give a revision of the repository here, or a full commit hash", rev, cli.OneLine(err.Error()))
}

// historyQuery are the flags that choose series: a benchmark REGEXP,
// --machine, and the threshold of a regression.
type historyQuery struct {
	Machine   string
	Threshold string
	threshold float64
}

func (q *historyQuery) bind(f *pflag.FlagSet, def string) {
	f.StringVar(&q.Machine, "machine", "", "only the machine `ID` (or a prefix of it) as history show names it")
	f.StringVar(&q.Threshold, "threshold", def, "a step slower than `PCT` is a regression")
}

// judge reads the store and judges the series whose benchmark matches
// args[0] (every one when absent) on the machine asked.
func (q *historyQuery) judge(ctx context.Context, o *historyOptions, args []string) ([]history.Judgement, sqlstore.Store, error) {
	var err error
	if q.threshold, err = cli.ParseFraction("--threshold", q.Threshold); err != nil {
		return nil, nil, err
	}
	var re *regexp.Regexp
	if len(args) > 0 {
		if re, err = regexp.Compile(args[0]); err != nil {
			return nil, nil, cli.Usagef("REGEXP %q: %v", args[0], err)
		}
	}
	s, err := o.open(ctx, true)
	if err != nil {
		return nil, nil, err
	}
	machine, err := q.machine(ctx, s)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	rows, skipped, err := s.Rows(ctx, machine)
	if err != nil {
		s.Close()
		return nil, nil, &cli.FailedError{Msg: "store " + s.Show() + ": " + cli.OneLine(err.Error())}
	}
	for _, err := range skipped {
		fmt.Fprintf(o.g.Stderr, "benchy: warning: store %s: %s: skipped\n", s.Show(), cli.OneLine(err.Error()))
	}
	var js []history.Judgement
	for _, series := range history.Build(rows, re) {
		js = append(js, history.Judge(series, q.threshold))
	}
	return js, s, nil
}

// machine resolves --machine to one stored identity.
func (q *historyQuery) machine(ctx context.Context, s sqlstore.Store) (string, error) {
	if q.Machine == "" {
		return "", nil
	}
	ms, err := s.Machines(ctx)
	if err != nil {
		return "", &cli.FailedError{Msg: cli.OneLine(err.Error())}
	}
	var ids, match []string
	for _, m := range ms {
		ids = append(ids, m.ID)
		if strings.HasPrefix(m.ID, q.Machine) {
			match = append(match, m.ID)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(ids) == 0:
		return "", cli.Usagef("--machine %s: the store holds no machine yet", q.Machine)
	case len(match) == 0:
		return "", cli.Usagef("--machine %s: no such machine; the store has %s", q.Machine, strings.Join(ids, ", "))
	}
	return "", cli.Usagef("--machine %s: more than one machine starts so: %s", q.Machine, strings.Join(match, ", "))
}

type historyShowOptions struct {
	*historyOptions
	historyQuery
	Format string
	ASCII  bool
}

func newHistoryShowCmd(h *historyOptions) *cobra.Command {
	o := &historyShowOptions{historyOptions: h}
	cmd := &cobra.Command{
		Use:   "show [REGEXP]",
		Short: "Draw each benchmark's series over commits, with its steps",
		Example: "  benchy history show\n  benchy history show '^sum/' --machine 3f2a\n" +
			"  benchy history show --format html > history.html",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return historyShow(cmd.Context(), o, args, o.g.Stdout)
		},
	}
	o.historyQuery.bind(cmd.Flags(), "5%")
	cmd.Flags().StringVar(&o.Format, "format", "text", "output `FORMAT`: "+strings.Join(render.HistoryFormats, ", "))
	cmd.Flags().BoolVar(&o.ASCII, "ascii", false, "draw the sparklines in ASCII")
	return cmd
}

func historyShow(ctx context.Context, o *historyShowOptions, args []string, stdout io.Writer) error {
	if err := cli.CheckFormat(o.Format, render.HistoryFormats); err != nil {
		return err
	}
	js, s, err := o.judge(orBackground(ctx), o.historyOptions, args)
	if err != nil {
		return err
	}
	defer s.Close()
	if len(js) == 0 && o.Format == "text" {
		fmt.Fprintf(stdout, "%s holds no results%s\n", s.Show(), matching(args))
		return nil
	}
	ropts := render.HistoryOptions{Width: cli.TerminalWidth(stdout), ASCII: o.ASCII || !cli.UTF8Locale(), Threshold: o.threshold, Store: s.Show()}
	return render.WriteHistory(stdout, js, o.Format, ropts)
}

func matching(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return " of a benchmark matching " + args[0]
}

type historyCheckOptions struct {
	*historyOptions
	historyQuery
	confirmOptions
}

// newHistoryCheckCmd makes the command; runF, when not nil, is called
// with the options in place of running (tests read what the flags became).
func newHistoryCheckCmd(h *historyOptions, runF func(*historyCheckOptions) error) *cobra.Command {
	o := &historyCheckOptions{historyOptions: h}
	cmd := &cobra.Command{
		Use:   "check [REGEXP]",
		Short: "Exit 1 when a benchmark's step beyond the threshold still holds",
		Long: `check judges every benchmark's series over commits on each machine and names
each step to a slower level, beyond --threshold, that the newest commits
still show, with the commit range it happened in. Exit 0 when there is none,
1 when there is one, 4 when a series has too few commits to judge (6), 2 for
bad input or a store that cannot be opened.

--confirm measures each step again before it counts: for a benchmark of
benchy gotest, the commit before the step and the one after it are built
in temporary worktrees of the repository -C names and run interleaved, as
gotest --against does. Only a slowdown that run confirms exits 1; a step it
does not confirm is printed with both figures and passes; 4 when none was
confirmed and one could not be judged. A step of benchy run or exec cannot
be rebuilt: it is printed as "cannot confirm" and counts as without --confirm.

--bisect then walks the commits of each confirmed step, as benchy bisect
does, and names the first slow commit (or the range that holds it) under
the step and in the last line; the exit is --confirm's.`,
		Example: "  benchy history check\n  benchy history check '^Benchmark(Parse|Encode)' --threshold 3%\n  benchy history check --confirm -C ~/src/mymodule",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.confirmOptions.check(cmd.Flags()); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			if o.Confirm {
				return historyConfirm(cmd.Context(), o, args, o.g.Stdout)
			}
			return historyCheck(cmd.Context(), o, args, o.g.Stdout)
		},
	}
	o.historyQuery.bind(cmd.Flags(), "5%")
	o.confirmOptions.bind(cmd.Flags())
	return cmd
}

func historyCheck(ctx context.Context, o *historyCheckOptions, args []string, stdout io.Writer) error {
	js, s, err := o.judge(orBackground(ctx), o.historyOptions, args)
	if err != nil {
		return err
	}
	defer s.Close()
	if len(js) == 0 {
		return &cli.CannotJudgeError{Msg: fmt.Sprintf("history check: %s holds no results%s: nothing to judge", s.Show(), matching(args))}
	}
	var slower, short []string
	for _, j := range js {
		ser := j.Series
		if !j.Judged {
			short = append(short, fmt.Sprintf("%s on %s (%s)", ser.Benchmark, ser.Machine, units.Count(len(ser.Commits), "commit")))
			continue
		}
		render.WriteRegressions(stdout, j)
		for _, st := range j.Regressions {
			slower = append(slower, ser.Benchmark+" "+units.Change(st.Change())+" at "+ser.Range(st))
		}
	}
	judged := len(js) - len(short)
	switch {
	case len(slower) > 0:
		return &cli.SlowerError{Msg: fmt.Sprintf("history check: %s slower by more than %s: %s",
			units.Count(len(slower), "step"), units.Percent(o.threshold), strings.Join(slower, "; "))}
	case len(short) > 0:
		return &cli.CannotJudgeError{Msg: fmt.Sprintf("history check: cannot judge %s: fewer than %d commits (exit 4); %s judged, no regression",
			strings.Join(short, ", "), history.MinPoints, seriesCount(judged))}
	}
	fmt.Fprintf(stdout, "no step slower by more than %s in %s\n", units.Percent(o.threshold), seriesCount(judged))
	return nil
}

func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// seriesCount is "1 series", "3 series": the noun is its own plural.
func seriesCount(n int) string { return fmt.Sprintf("%d series", n) }
