package analyze

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// hostSlowed is an experiment of n samples of 100 ns per op whose speed
// checks read 0.25 ns per iteration, except from sample from to sample to
// (excluded), where the host shared the core: the checks read 0.45 ns
// and the samples 170 ns per op.
func hostSlowed(n, from, to int) result.Experiment {
	e := result.Experiment{Name: "x/y", Kind: result.KindLoop, Iters: 1000}
	for i := range n {
		s := result.Sample{Iters: 1000, Ns: 100_000 + int64(i%3), CPU: 1, RefNs: 0.25}
		if i >= from && i < to {
			s.Ns, s.RefNs = 170_000, 0.45
		}
		e.Samples = append(e.Samples, s)
	}
	return e
}

func TestSlowedBracketsEachSample(t *testing.T) {
	e := hostSlowed(10, 4, 6)
	// Sample 6 follows a slow check: the slowdown may have lasted into it.
	if got, want := Slowed(e, 0.25), []int{4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("Slowed = %v, want %v", got, want)
	}
	e.Reference = &result.Reference{BeforeNs: 0.5, AfterNs: 0.25}
	if got, want := Slowed(e, 0.25), []int{0, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("with a slow probe before: Slowed = %v, want %v", got, want)
	}
	if got := Slowed(e, 0); got != nil {
		t.Errorf("best unknown: Slowed = %v, want nil", got)
	}
	for i := range e.Samples {
		e.Samples[i].RefNs = 0
	}
	if got := Slowed(e, 0.25); got != nil {
		t.Errorf("no sample checked: Slowed = %v, want nil", got)
	}
	if got := Slowed(hostSlowed(10, 0, 0), 0.25); got == nil || len(got) != 0 {
		t.Errorf("every check at its best: Slowed = %#v, want empty, not nil", got)
	}
}

func analyzed(es ...result.Experiment) *result.Result {
	r := &result.Result{GOARCH: "amd64", CPU: 1, Experiments: es}
	Analyze(r)
	return r
}

// A stretch the host slowed is left out of the statistics, said, and does
// not make the number doubtful; the statistics are those of the rest.
func TestSlowedSamplesLeftOut(t *testing.T) {
	e := analyzed(hostSlowed(31, 10, 20)).Experiments[0]
	if len(e.Slowed) != 11 {
		t.Fatalf("slowed %v, want the 10 slow samples and the one after", e.Slowed)
	}
	if e.Stats.Max > 100.01 || e.Stats.N != 20 {
		t.Errorf("stats of %d samples, max %v ns/op: want the 20 clean ones, at most 100 ns/op", e.Stats.N, e.Stats.Max)
	}
	if finding.Has(e.Findings, result.CodeSlowCore) || e.Verdict != result.VerdictBelievable {
		t.Errorf("verdict %s %v, findings %v: want believable, no slow-core", e.Verdict, e.Reasons, e.Findings)
	}
	f := find(e.Findings, result.CodeSlowedSamples)
	if f == nil || f.Severity != finding.Info || !strings.Contains(f.Message, "11 of 31 samples were taken while the core ran a reference loop up to 80% slower") || !strings.Contains(f.Message, "the statistics are of the 20 others") {
		t.Errorf("slowed-samples finding %+v", f)
	}
}

// When most samples were slowed, none are left out: the number is
// doubtful, and says why.
func TestMostSamplesSlowedIsSlowCore(t *testing.T) {
	e := analyzed(hostSlowed(31, 5, 31)).Experiments[0]
	if e.Stats.N != 31 {
		t.Errorf("stats of %d samples, want all 31", e.Stats.N)
	}
	f := find(e.Findings, result.CodeSlowCore)
	if f == nil || f.Severity != finding.Warn || !strings.Contains(f.Message, "too few others (5)") {
		t.Fatalf("slow-core finding %+v, findings %v", f, e.Findings)
	}
	if e.Verdict != result.VerdictDoubtful {
		t.Errorf("verdict %s, want doubtful", e.Verdict)
	}
}

// Checked samples all at their best leave the probes around the
// experiment out of it: the checks saw every stretch, the probes two ends.
func TestCheckedSamplesOverrideTheProbes(t *testing.T) {
	e := hostSlowed(31, 0, 0)
	e.Clock = &result.EffectiveClock{BeforeHz: 4e9, AfterHz: 4e9, Source: chainSource}
	e.Reference = &result.Reference{BeforeNs: 0.25, AfterNs: 0.45}
	if got := analyzed(e).Experiments[0]; finding.Has(got.Findings, result.CodeSlowCore) || finding.Has(got.Findings, result.CodeSlowedSamples) {
		t.Errorf("findings %v: the last sample's check was at its best", got.Findings)
	}
	for i := range e.Samples {
		e.Samples[i].RefNs = 0
	}
	if got := analyzed(e).Experiments[0]; !finding.Has(got.Findings, result.CodeSlowCore) {
		t.Errorf("unchecked samples: findings %v, want slow-core from the probe after", got.Findings)
	}
}

// find returns the finding of fs with code, or nil.
func find(fs []finding.Finding, code string) *finding.Finding {
	for i := range fs {
		if fs[i].Code == code {
			return &fs[i]
		}
	}
	return nil
}

// onCPU3 is e measured on cpu3, not the run's CPU.
func onCPU3(e result.Experiment) result.Experiment {
	for i := range e.Samples {
		e.Samples[i].CPU = 3
	}
	three := 3
	e.CPU = &three
	return e
}

// An experiment measured again on another CPU is judged there (its
// samples did not migrate), and says where each attempt was taken and how
// the machine slowed it: samples on a slowed core, or checks that ran
// slow through the whole attempt (a lower clock).
func TestRemeasuredElsewhere(t *testing.T) {
	e := onCPU3(hostSlowed(31, 0, 0))
	clocked := hostSlowed(31, 0, 0).Samples
	for i := range clocked {
		clocked[i].RefNs = 0.27 // 8% over the best, every check
	}
	e.Attempts = []result.Attempt{{CPU: 1, Samples: hostSlowed(31, 0, 20).Samples}, {CPU: 0, Samples: clocked}}
	got := analyzed(e).Experiments[0]
	if finding.Has(got.Findings, result.CodeMigrated) || len(got.Disturbed) != 0 {
		t.Errorf("samples on the experiment's own CPU read as moved: %v, disturbed %v", got.Findings, got.Disturbed)
	}
	f := find(got.Findings, result.CodeRemeasured)
	if f == nil || f.Message != "measured again twice, the host having slowed the core (cpu1 21 of 31 slowed, its checks 80% slower; cpu0 0 of 31 slowed, its checks 8% slower): the statistics are of the attempt on cpu3, 0 of 31 slowed" {
		t.Errorf("remeasured finding %+v", f)
	}
	if len(got.Attempts[0].Slowed) != 21 { // the 20, and the one after
		t.Errorf("the earlier attempt: %d slowed, want 21", len(got.Attempts[0].Slowed))
	}
}

// An experiment measured once, on the CPU the run moved to, is judged
// there and says so.
func TestMovedRunIsJudgedWhereItMoved(t *testing.T) {
	e := onCPU3(hostSlowed(31, 0, 0))
	got := analyzed(e).Experiments[0]
	if finding.Has(got.Findings, result.CodeMigrated) {
		t.Errorf("samples on the CPU moved to read as migrated: %v", got.Findings)
	}
	f := find(got.Findings, result.CodeRemeasured)
	if f == nil || f.Evidence["moved"] != true || f.Evidence["judged_cpu"] != 3 {
		t.Errorf("remeasured finding %+v, want moved to cpu3", f)
	}
	if got := analyzed(hostSlowed(31, 0, 0)).Experiments[0]; finding.Has(got.Findings, result.CodeRemeasured) {
		t.Errorf("measured on the run's CPU: %v", got.Findings)
	}
}

// A check after a sample in which the program's own collector ran is no
// evidence: its workers may have taken the core's other hardware thread.
func TestSlowedIgnoresChecksAfterTheProgramsCollector(t *testing.T) {
	e := hostSlowed(10, 4, 5)
	e.Samples[4].Counters = map[string]int64{result.CounterGCCycles: 1}
	if got := Slowed(e, 0.25); len(got) != 0 {
		t.Errorf("Slowed = %v, want none: the slow check followed a collection", got)
	}
	e.Samples[4].Counters = map[string]int64{result.CounterGCCycles: 0, result.CounterGCCPU: 0}
	if got := Slowed(e, 0.25); !slices.Equal(got, []int{4, 5}) {
		t.Errorf("no collection: Slowed = %v, want [4 5]", got)
	}
}

// The probes at an experiment's ends may read a lower clock than its
// samples ran at: with checked samples, slow-clock needs the checks
// (whose time follows the clock) to have run slow too. From a real run:
// the probes read 3.46 and 3.68 GHz against 3.78 elsewhere, while every
// check read 0.272 ns against a best of 0.265.
func TestSlowClockNeedsSlowChecks(t *testing.T) {
	e := hostSlowed(31, 0, 0)
	e.Clock = &result.EffectiveClock{BeforeHz: 3.46e9, AfterHz: 3.68e9, Source: chainSource}
	f := Facts{RunClockHz: 3.78e9, RunRefNs: 0.265}
	for i := range e.Samples {
		e.Samples[i].RefNs = 0.272
	}
	if got := only(e, f, result.CodeSlowClock); len(got) != 0 {
		t.Errorf("checks at their best: %v", got)
	}
	for i := range e.Samples {
		e.Samples[i].RefNs = 0.29 // 9% slower: the clock did drop
	}
	if got := only(e, f, result.CodeSlowClock); len(got) != 1 {
		t.Errorf("checks 9%% slow: %v, want slow-clock", got)
	}
	for i := range e.Samples {
		e.Samples[i].RefNs = 0
	}
	if got := only(e, f, result.CodeSlowClock); len(got) != 1 {
		t.Errorf("unchecked samples: %v, want slow-clock from the probes", got)
	}
}
