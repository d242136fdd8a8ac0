package result_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// A result written before exec masked its names holds a password in each
// program's name, description, error and findings, and in the comparison
// that names them: reading it masks every one, renames the references
// with the experiments (so they still match), and leaves a Go benchmark's
// name alone (no command line).
func TestUnmarshalMasksCommandNames(t *testing.T) {
	const pw = "PWSECRET"
	a, b := "psql postgres://u:"+pw+"@h/db -c 'select 1'", "psql 'host=h password="+pw+"' -c 'select 2'"
	maskedA, maskedB := "psql postgres://u:xxxxx@h/db -c 'select 1'", "psql 'host=h password=xxxxx -c 'select 2'"
	r := resulttest.Fixture()
	r.Experiments = r.Experiments[:2]
	r.Experiments[1].Name = "BenchmarkLogin/password=" + pw // a benchmark's name, as written
	for _, name := range []string{a, b} {
		r.Experiments = append(r.Experiments, result.Experiment{Kind: result.KindProcess, Name: name,
			Description: "/usr/bin/" + name, Unit: "run", Iters: 1, Samples: resulttest.Spread(3, 1, 1e6, 0, 1, 2),
			Error:    "run 2 of " + name + " exited with status 2",
			Findings: []finding.Finding{{Code: "x", Severity: finding.Info, Message: "of " + name}}})
	}
	r.Settings.Compare = []string{a, b}
	r.Comparison = []result.Pair{{Base: a, Candidate: b, Verdict: result.NotComparable, Reason: "of " + b, Sentence: b + " vs " + a}}
	r.Cause = &result.Cause{Code: "x", Experiments: []string{b}}
	var buf bytes.Buffer
	if err := result.Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	got, err := result.Unmarshal(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := result.Encode(&buf, got); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), pw); n != 1 {
		t.Errorf("the password is shown %d times, want once (the benchmark's name):\n%s", n, buf.String())
	}
	if got.Experiments[1].Name != "BenchmarkLogin/password="+pw {
		t.Errorf("a benchmark renamed: %q", got.Experiments[1].Name)
	}
	if e := got.Experiments[2]; e.Name != maskedA || e.Description != "/usr/bin/"+maskedA {
		t.Errorf("experiment %q, %q; want %q", e.Name, e.Description, maskedA)
	}
	p := got.Comparison[0]
	if got.Settings.Compare[0] != maskedA || got.Settings.Compare[1] != maskedB || p.Base != maskedA || p.Candidate != maskedB || got.Cause.Experiments[0] != maskedB {
		t.Errorf("references not renamed with their experiments: compare %q, pair %q vs %q, cause %q", got.Settings.Compare, p.Base, p.Candidate, got.Cause.Experiments)
	}
	for _, name := range got.Settings.Compare {
		if got.Find(name) == nil {
			t.Errorf("compare names %q, which no experiment is", name)
		}
	}
	// Read again, a masked result is unchanged.
	again, err := result.Unmarshal(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var buf2 bytes.Buffer
	if err := result.Encode(&buf2, again); err != nil || buf2.String() != buf.String() {
		t.Errorf("a masked result changed when read again (%v)", err)
	}
}
