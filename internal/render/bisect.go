package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/units"
)

// BisectFormats are the formats of `benchy bisect`.
var BisectFormats = []string{"text", "json", "markdown"}

// WriteBisect writes the bisection b in format (BisectFormats).
func WriteBisect(w io.Writer, b *bisect.Report, format string) error {
	switch format {
	case "json":
		data, err := json.MarshalIndent(b, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(data, '\n'))
		return err
	case "markdown":
		return writeBisectMarkdown(w, b)
	case "text":
		return writeBisectText(w, b)
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(BisectFormats, ", "))
}

// subjectWidth is the most of a commit's subject the text table shows.
const subjectWidth = 24

func writeBisectText(w io.Writer, b *bisect.Report) error {
	fmt.Fprintf(w, "%s: %s after %s (GOOD) up to %s (BAD), first parents\n\n", cmpName(b), units.Count(len(b.Commits), "commit"),
		b.Good.Short(), b.Commits[len(b.Commits)-1].Short())
	fmt.Fprintf(w, "%-4s  %-12s  %-*s  %-28s  %s\n", "step", "commit", subjectWidth, "subject", "vs GOOD (CI)", "side")
	for k, st := range b.Steps {
		c := b.Commits[st.Commit]
		fmt.Fprintf(w, "%4d  %-12s  %-*s  %-28s  %s\n", k+1, c.Short(), subjectWidth, clip(subjectOf(b, st.Commit), subjectWidth),
			ratioText(st.Mid), sideText(st))
	}
	fmt.Fprintln(w)
	for _, l := range answerLines(b) {
		fmt.Fprintln(w, l)
	}
	return nil
}

func writeBisectMarkdown(w io.Writer, b *bisect.Report) error {
	fmt.Fprintf(w, "### Bisection of `%s`\n\n", cmpName(b))
	fmt.Fprintf(w, "%s after `%s` (GOOD) up to `%s` (BAD), along the first parents; each step measured interleaved with GOOD and BAD.\n\n",
		units.Count(len(b.Commits), "commit"), b.Good.Short(), b.Commits[len(b.Commits)-1].Short())
	fmt.Fprintln(w, "| step | commit | subject | vs GOOD (CI) | side |")
	fmt.Fprintln(w, "|---:|---|---|---|---|")
	for k, st := range b.Steps {
		fmt.Fprintf(w, "| %d | `%s` | %s | %s | %s |\n", k+1, b.Commits[st.Commit].Short(),
			strings.ReplaceAll(subjectOf(b, st.Commit), "|", `\|`), ratioText(st.Mid), sideText(st))
	}
	fmt.Fprintln(w)
	for _, l := range answerLines(b) {
		fmt.Fprintln(w, l+"  ")
	}
	return nil
}

func cmpName(b *bisect.Report) string {
	if b.Benchmark == "" {
		return "bisect"
	}
	return b.Benchmark
}

// subjectOf is commit i's subject, BAD marked.
func subjectOf(b *bisect.Report, i int) string {
	if i == len(b.Commits)-1 {
		return "(BAD) " + b.Commits[i].Subject
	}
	return b.Commits[i].Subject
}

// ratioText is a ratio to GOOD as a change with its interval: "+200.1%
// (+198.0% to +204.5%)".
func ratioText(r bisect.Ratio) string {
	if !(r.Value > 0) {
		return "-"
	}
	return fmt.Sprintf("%s (%s to %s)", units.Change(r.Value-1), units.Change(r.Low-1), units.Change(r.High-1))
}

// sideText is the side a step put its commit on, with the measurements
// pooled and why it was skipped.
func sideText(st bisect.Step) string {
	s := st.Side.String()
	if st.Attempts > 1 {
		s += fmt.Sprintf(" (measured %d times)", st.Attempts)
	}
	if st.Why != "" {
		s += ": " + st.Why
	}
	return s
}

// stepOf is the step that measured commit i, nil when none did.
func stepOf(b *bisect.Report, i int) *bisect.Step {
	for k := range b.Steps {
		if b.Steps[k].Commit == i {
			return &b.Steps[k]
		}
	}
	return nil
}

// commitLine is a commit as the answer names it: hash, subject, author
// date and its measured ratio to GOOD.
func commitLine(b *bisect.Report, i int) string {
	c := b.Commits[i]
	s := fmt.Sprintf("%s %q (%s)", c.Hash, c.Subject, c.AuthorDate.Format("2006-01-02"))
	if st := stepOf(b, i); st != nil && st.Mid.Value > 0 {
		s += fmt.Sprintf(": %s against GOOD, %s CI %s to %s", units.Change(st.Mid.Value-1), units.Level(st.Mid.Level),
			units.Change(st.Mid.Low-1), units.Change(st.Mid.High-1))
	}
	return s
}

// shorts are the short hashes of the commits at idx.
func shorts(b *bisect.Report, idx []int) string {
	var s []string
	for _, i := range idx {
		s = append(s, b.Commits[i].Short())
	}
	return strings.Join(s, ", ")
}

// answerLines say what the bisection came to.
func answerLines(b *bisect.Report) []string {
	a := b.Answer
	var out []string
	if b.Interrupted {
		out = append(out, fmt.Sprintf("stopped after %s: what was measured is above", units.Count(len(b.Steps), "step")))
	}
	switch a.Verdict {
	case bisect.NoSlowdown:
		return append(out, fmt.Sprintf("no confirmed slowdown: BAD is %s against GOOD, not slower by more than %s",
			ratioText(b.Steps[0].Mid), units.Percent(b.Threshold)))
	case bisect.CannotJudge:
		why := ""
		if len(b.Steps) > 0 && b.Steps[0].Why != "" {
			why = ": " + b.Steps[0].Why
		}
		return append(out, "cannot judge whether BAD is slower than GOOD"+why)
	case bisect.NotFinished:
		if len(b.Steps) == 0 {
			return out
		}
	}
	if a.Verdict == bisect.Found && a.From == a.To {
		return append(out, "first slow commit: "+commitLine(b, a.From))
	}
	lead := "the slowdown is"
	if a.Verdict == bisect.NotFinished {
		lead = "so far the slowdown is"
	}
	out = append(out, fmt.Sprintf("%s in %s: %s..%s", lead, units.Count(a.To-a.From+1, "commit"), b.Commits[a.From].Short(), b.Commits[a.To].Short()))
	if a.First >= 0 && a.First != a.Last {
		out = append(out, "  first commit not at GOOD's level: "+commitLine(b, a.First))
	}
	if a.Last >= 0 {
		out = append(out, "  first commit at BAD's level: "+commitLine(b, a.Last))
	}
	if len(a.Undecided) > 0 {
		out = append(out, fmt.Sprintf("  between the two levels (two steps, or too noisy to tell): %s", shorts(b, a.Undecided)))
	}
	if len(a.Skipped) > 0 {
		out = append(out, fmt.Sprintf("  skipped (not built or not measured): %s", shorts(b, a.Skipped)))
	}
	return out
}
