package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/bisect"
)

// What every format says of each kind of answer: one commit with its
// subject, date and change; two steps with both commits; a range with
// the commits skipped; no slowdown with BAD's figure.
func TestWriteBisect(t *testing.T) {
	commits := make([]bisect.Commit, 6)
	for i := range commits {
		commits[i] = bisect.Commit{Hash: fmt.Sprintf("%d%039d", i+1, 0), Subject: fmt.Sprintf("change %d", i+1),
			AuthorDate: time.Date(2025, 3, i+1, 12, 0, 0, 0, time.UTC)}
	}
	r := func(v float64) bisect.Ratio {
		return bisect.Ratio{Value: v, Low: v * 0.99, High: v * 1.01, Level: 0.95}
	}
	bad := bisect.Step{Commit: 5, Mid: r(3), Bad: r(3), Side: bisect.Slow, Attempts: 1}
	good, zero, five := -1, 0, 5 // a twin's commit: GOOD, commit 1, BAD
	tests := []struct {
		name  string
		steps []bisect.Step
		a     bisect.Answer
		want  []string
	}{
		{"one commit", []bisect.Step{bad, {Commit: 2, Mid: r(3), Bad: r(3), Side: bisect.Slow, Attempts: 1},
			{Commit: 1, Mid: r(1), Bad: r(3), Side: bisect.Fast, Attempts: 1}},
			bisect.Answer{Verdict: bisect.Found, From: 2, To: 2, First: 2, Last: 2},
			[]string{"first slow commit: " + commits[2].Hash + ` "change 3" (2025-03-03): +200.0% against GOOD, 95% CI +197.0% to +203.0%`}},
		{"two steps", []bisect.Step{bad, {Commit: 2, Mid: r(1.7), Bad: r(3), Side: bisect.Undecided, Attempts: 3}},
			bisect.Answer{Verdict: bisect.Found, From: 2, To: 3, First: 2, Last: 3, Undecided: []int{2}},
			[]string{"the slowdown is in 2 commits: 300000000000..400000000000", "first commit not at GOOD's level: " + commits[2].Hash,
				"first commit at BAD's level: " + commits[3].Hash, "between the two levels (two steps, or too noisy to tell): 300000000000",
				"undecided (measured 3 times)"}},
		{"skipped", []bisect.Step{bad, {Commit: 2, Side: bisect.Skipped, Why: "does not build", Attempts: 1}},
			bisect.Answer{Verdict: bisect.Found, From: 2, To: 3, First: -1, Last: -1, Skipped: []int{2}},
			[]string{"the slowdown is in 2 commits", "skipped (not built or not measured): 300000000000", "skipped: does not build"}},
		{"twins", []bisect.Step{bad, {Commit: 2, Mid: r(3), Bad: r(3), Side: bisect.Slow, SameAs: &five},
			{Commit: 1, Mid: r(1.4), Bad: r(3), Side: bisect.Fast, Attempts: 3, SameAs: &zero}, {Commit: 0, Side: bisect.Fast, SameAs: &good}},
			bisect.Answer{Verdict: bisect.Found, From: 2, To: 2, First: 2, Last: 2},
			[]string{"slow, not measured: BAD's program", "fast: 100000000000's program (measured 3 times, undecided alone)",
				"fast, not measured: GOOD's program", `"change 3" (2025-03-03): +200.0% against GOOD, 95% CI +197.0% to +203.0% (BAD's program)`}},
		{"no slowdown", []bisect.Step{{Commit: 5, Mid: r(1.001), Bad: r(1.001), Side: bisect.Fast, Attempts: 1}},
			bisect.Answer{Verdict: bisect.NoSlowdown, First: -1, Last: -1},
			[]string{"no confirmed slowdown: BAD is +0.10% (-0.90% to +1.1%) against GOOD, not slower by more than 5%"}},
	}
	for _, tt := range tests {
		rep := &bisect.Report{Good: bisect.Commit{Hash: strings.Repeat("a", 40)}, Commits: commits,
			Benchmarks: []bisect.Benchmark{{Name: "Work", Steps: tt.steps, Answer: tt.a}}, Runs: len(tt.steps), Threshold: 0.05}
		for _, format := range BisectFormats {
			var b bytes.Buffer
			if err := WriteBisect(&b, rep, format); err != nil {
				t.Fatal(err)
			}
			if format == "json" {
				continue // bisect's own test reads it back
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("%s, %s: lacks %q:\n%s", tt.name, format, w, b.String())
				}
			}
			if strings.Contains(b.String(), "first slow commit:") != (tt.a.From == tt.a.To && tt.a.Verdict == bisect.Found) {
				t.Errorf("%s, %s: names one commit where it should not, or not where it should:\n%s", tt.name, format, b.String())
			}
		}
	}
	if err := WriteBisect(&bytes.Buffer{}, &bisect.Report{}, "html"); err == nil {
		t.Error("html: no error")
	}
}

// Several benchmarks: one answer each under its name, those BAD did not
// make slower named on one line with BAD's figure and not walked, and the
// runs counted once for the walk.
func TestWriteBisectSeveral(t *testing.T) {
	commits := make([]bisect.Commit, 4)
	for i := range commits {
		commits[i] = bisect.Commit{Hash: fmt.Sprintf("%d%039d", i+1, 0), Subject: fmt.Sprintf("change %d", i+1)}
	}
	r := func(v float64) bisect.Ratio {
		return bisect.Ratio{Value: v, Low: v * 0.99, High: v * 1.01, Level: 0.95}
	}
	rep := &bisect.Report{Good: bisect.Commit{Hash: strings.Repeat("a", 40)}, Commits: commits, Runs: 3, Threshold: 0.05,
		Benchmarks: []bisect.Benchmark{
			{Name: "Parse", Steps: []bisect.Step{{Commit: 3, Mid: r(1.3), Bad: r(1.3), Side: bisect.Slow, Attempts: 1},
				{Commit: 1, Mid: r(1.3), Bad: r(1.3), Side: bisect.Slow, Attempts: 1}, {Commit: 0, Mid: r(1), Bad: r(1.3), Side: bisect.Fast, Attempts: 1}},
				Answer: bisect.Answer{Verdict: bisect.Found, From: 1, To: 1, First: 1, Last: 1}},
			{Name: "Format", Steps: []bisect.Step{{Commit: 3, Mid: r(1.002), Bad: r(1.002), Side: bisect.Fast, Attempts: 1}},
				Answer: bisect.Answer{Verdict: bisect.NoSlowdown, First: -1, Last: -1}},
			{Name: "Sum", Steps: []bisect.Step{{Commit: 3, Mid: r(1.04), Bad: r(1.04), Side: bisect.Undecided, Why: "too noisy", Attempts: 3}},
				Answer: bisect.Answer{Verdict: bisect.CannotJudge, First: -1, Last: -1}},
		}}
	for _, tt := range []struct {
		format string
		want   []string
	}{
		{"text", []string{"3 benchmarks: 4 commits after aaaaaaaaaaaa (GOOD) up to 400000000000 (BAD), first parents; 3 interleaved runs",
			"\nParse\n", "first slow commit: " + commits[1].Hash, "\nSum\n", "cannot judge whether BAD is slower than GOOD: too noisy",
			"not slower at BAD by more than 5%, not walked: Format +0.20% (-0.80% to +1.2%)"}},
		{"markdown", []string{"### Bisection of 3 benchmarks", "(3 interleaved runs)", "#### `Parse`", "#### `Sum`",
			"not slower at BAD by more than 5%, not walked: `Format` +0.20%"}},
	} {
		var b bytes.Buffer
		if err := WriteBisect(&b, rep, tt.format); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: lacks %q:\n%s", tt.format, w, b.String())
			}
		}
		if strings.Contains(b.String(), "Format\n") || strings.Contains(b.String(), "`Format`\n") || strings.Count(b.String(), "vs GOOD (CI)") != 2 {
			t.Errorf("%s: want tables for Parse and Sum only:\n%s", tt.format, b.String())
		}
	}
}
