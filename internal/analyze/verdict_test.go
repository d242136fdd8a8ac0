package analyze

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

func f(code string, sev finding.Severity) finding.Finding {
	return finding.Finding{Code: code, Severity: sev, Message: code}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		name     string
		own, env []finding.Finding
		want     string
		reasons  []string
	}{
		{"nothing", nil, nil, result.VerdictBelievable, nil},
		{"info only", []finding.Finding{f("outliers", finding.Info), f("allocs", finding.Info)}, nil, result.VerdictBelievable, nil},
		{"warning", []finding.Finding{f("unstable", finding.Warn), f("outliers", finding.Info)}, nil, result.VerdictDoubtful, []string{"unstable"}},
		{"error wins", []finding.Finding{f("unstable", finding.Warn), f("impossible", finding.Error), f("migrated", finding.Error)},
			nil, result.VerdictNotBelievable, []string{"impossible", "migrated"}},
		{"env busy cpu alone is a note", nil, []finding.Finding{f("cpu-busy", finding.Warn)}, result.VerdictBelievable, nil},
		{"env busy cpu names the cause of a disturbance", []finding.Finding{f("disturbed", finding.Warn)}, []finding.Finding{f("cpu-busy", finding.Warn), f("load", finding.Warn)},
			result.VerdictDoubtful, []string{"disturbed", "cpu-busy", "load"}},
		{"env load with an unrelated warning stays a note", []finding.Finding{f("few-samples", finding.Warn)}, []finding.Finding{f("load", finding.Warn)},
			result.VerdictDoubtful, []string{"few-samples"}},
		{"an info disturbance is no interference", []finding.Finding{f("disturbed", finding.Info)}, []finding.Finding{f("cpu-busy", finding.Warn)},
			result.VerdictBelievable, nil},
		{"env setup only", nil, []finding.Finding{f("governor", finding.Warn), f("turbo", finding.Warn), f("virtual-machine", finding.Info)},
			result.VerdictBelievable, nil},
		{"env error of any code", nil, []finding.Finding{f("something-new", finding.Error)}, result.VerdictDoubtful, []string{"something-new"}},
		{"env info steal", nil, []finding.Finding{f("steal", finding.Info)}, result.VerdictBelievable, nil},
		{"a fault of the benchmark before what the machine did", []finding.Finding{f("disturbed", finding.Warn), f("setup-in-timer", finding.Warn), f("slow-clock", finding.Warn)}, nil,
			result.VerdictDoubtful, []string{"setup-in-timer", "disturbed", "slow-clock"}},
		{"a parallel benchmark's pin before a drift", []finding.Finding{f("drift", finding.Warn), f("not-pinned", finding.Warn)}, nil,
			result.VerdictDoubtful, []string{"not-pinned", "drift"}},
		{"an unlisted code before the counts", []finding.Finding{f("few-samples", finding.Warn), f("something-new", finding.Warn)}, nil,
			result.VerdictDoubtful, []string{"something-new", "few-samples"}},
		{"env never makes it not believable", []finding.Finding{f("drift", finding.Warn)}, []finding.Finding{f("steal", finding.Error)},
			result.VerdictDoubtful, []string{"drift", "steal"}},
		{"duplicate codes once", []finding.Finding{f("gc", finding.Warn), f("gc", finding.Warn)}, nil, result.VerdictDoubtful, []string{"gc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, r := Verdict(tt.own, tt.env)
			if v != tt.want || !slices.Equal(r, tt.reasons) {
				t.Errorf("Verdict = %q %v, want %q %v", v, r, tt.want, tt.reasons)
			}
		})
	}
}

func TestSummaryAndStrict(t *testing.T) {
	r := &result.Result{Experiments: []result.Experiment{
		{Name: "a", Verdict: result.VerdictBelievable},
		{Name: "b", Verdict: result.VerdictDoubtful, Reasons: []string{"unstable"}},
		{Name: "c", Verdict: result.VerdictNotBelievable, Reasons: []string{"impossible"}},
		{Name: "d", Verdict: result.VerdictBelievable},
		{Name: "e", Verdict: result.VerdictDoubtful, Reasons: []string{"unstable", "drift"}},
	}}
	if got, want := Summary(r), "2 believable, 2 doubtful (unstable, drift), 1 not believable (impossible)"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	if got := StrictFailures(r, finding.Error); !slices.Equal(got, []string{"c"}) {
		t.Errorf("strict error = %v", got)
	}
	if got := StrictFailures(r, finding.Warn); !slices.Equal(got, []string{"b", "c", "e"}) {
		t.Errorf("strict warn = %v", got)
	}
	if got := Summary(&result.Result{}); got != "no experiments" {
		t.Errorf("empty summary = %q", got)
	}
	if got := Summary(&result.Result{Experiments: []result.Experiment{{Name: "x"}}}); got != "no verdicts: the result was not analyzed" {
		t.Errorf("unanalyzed summary = %q", got)
	}
	if got := StrictFailures(&result.Result{Experiments: []result.Experiment{{Name: "x"}}}, finding.Error); !slices.Equal(got, []string{"x"}) {
		t.Errorf("unanalyzed experiment must fail strict: %v", got)
	}
}

func TestAnalyzeKeepsOtherFindings(t *testing.T) {
	r := &result.Result{CPU: 2, Experiments: []result.Experiment{{
		Name:    "sum/unused",
		Samples: timed(1000, 314000, 314000, 314000, 314000, 314000),
		// A stale finding of Analyze's own codes goes; the other stays.
		Findings: []finding.Finding{f(result.CodeImpossible, finding.Error), f("no-load-in-loop", finding.Error)},
	}}}
	Analyze(r)
	e := r.Experiments[0]
	if finding.Has(e.Findings, result.CodeImpossible) || !finding.Has(e.Findings, "no-load-in-loop") {
		t.Errorf("findings after Analyze: %v", e.Findings)
	}
	if e.Verdict != result.VerdictNotBelievable || !slices.Equal(e.Reasons, []string{"no-load-in-loop"}) {
		t.Errorf("verdict %q %v", e.Verdict, e.Reasons)
	}
	if e.Stats.N != 5 || e.Stats.Median != 314 {
		t.Errorf("stats %+v", e.Stats)
	}
	Analyze(r) // idempotent
	if len(r.Experiments[0].Findings) != 1 {
		t.Errorf("second Analyze changed findings: %v", r.Experiments[0].Findings)
	}
	Analyze(nil)
}

// With the machine snapshot in the result, Analyze judges the environment
// again (a stale cpu-busy goes, cpu0 is found); without one it keeps what
// the file says.
func TestAnalyzeEnvironment(t *testing.T) {
	stale := []finding.Finding{f("cpu-busy", finding.Warn)}
	r := &result.Result{CPU: 0, Before: &machine.Snapshot{}, Environment: stale,
		Experiments: []result.Experiment{{Name: "x", Samples: perOp(100, 100, 100, 100, 100)}}}
	Analyze(r)
	if finding.Has(r.Environment, "cpu-busy") || !finding.Has(r.Environment, "cpu0") {
		t.Errorf("environment not recomputed: %v", r.Environment)
	}
	if v := r.Experiments[0].Verdict; v != result.VerdictBelievable {
		t.Errorf("verdict %q, want believable once cpu-busy is gone", v)
	}

	r = &result.Result{CPU: 0, Environment: stale, Experiments: []result.Experiment{{Name: "x", Samples: perOp(100, 100, 100, 100, 100)}}}
	Analyze(r)
	if !finding.Has(r.Environment, "cpu-busy") || r.Experiments[0].Verdict != result.VerdictBelievable {
		t.Errorf("no snapshot: environment %v, verdict %q; want the stored cpu-busy kept, as a note", r.Environment, r.Experiments[0].Verdict)
	}
}

// Another benchy process on the measured CPU is an environment warning,
// kept when the environment is judged again from the snapshot.
func TestAnalyzeCPUShared(t *testing.T) {
	r := &result.Result{CPU: 1, Before: &machine.Snapshot{}, SharedCPU: "cpu1 is locked by another benchy process (pid 42)",
		Experiments: []result.Experiment{{Name: "x", Samples: perOp(100, 100, 100, 100, 100)}}}
	Analyze(r)
	if !slices.ContainsFunc(r.Environment, func(f finding.Finding) bool {
		return f.Code == result.CodeCPUShared && f.Severity == finding.Warn && f.Message == r.SharedCPU
	}) {
		t.Errorf("environment %v: want cpu-shared with the lock's message", r.Environment)
	}
}

// TestReasonOrderDocumented keeps docs/findings.md's list of the reason
// order the same as reasonOrder.
func TestReasonOrderDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/findings.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "<!-- reason order -->")
	if !ok {
		t.Fatal("docs/findings.md has no <!-- reason order --> list")
	}
	list, _, _ := strings.Cut(after, ";")
	var got []string
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		if w == "(any other code)" {
			w = "*"
		}
		got = append(got, strings.Trim(w, "`"))
	}
	want := slices.Clone(reasonOrder)
	at := slices.Index(want, result.CodeShortSamples)
	want = slices.Insert(want, at, "*")
	if !slices.Equal(got, want) {
		t.Errorf("docs/findings.md lists the reasons as\n%q\nthe code ranks them\n%q", got, want)
	}
}
