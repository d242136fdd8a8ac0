package cli

import (
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// runJSON runs benchy run with args and --format json and decodes it.
func runJSON(t *testing.T, args ...string) (*result.Result, int) {
	t.Helper()
	stdout, stderr, code := runBinary(t, append(append([]string{"run"}, args...), "--format", "json")...)
	if code != 0 && code != ExitStrict {
		t.Fatalf("benchy run %v: exit %d: %s", args, code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return r, code
}

func experiment(t *testing.T, r *result.Result, name string) result.Experiment {
	t.Helper()
	for _, e := range r.Experiments {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no experiment %s in the result", name)
	return result.Experiment{}
}

// fold/constant's work is computed while compiling: its time per
// multiply is below what any core can do; sum/sink's is not.
func TestRunCallsFoldedWorkImpossible(t *testing.T) {
	r, code := runJSON(t, "--bench", "^(fold/constant|sum/sink)$", "--samples", "5", "--sample-time", "2ms",
		"--window", "10ms", "--strict")
	if code != ExitStrict {
		t.Errorf("--strict with an impossible result: exit %d, want %d", code, ExitStrict)
	}
	// Impossible is judged on the median: where other tasks had the CPU
	// for more than 5% of the median sample (a disturbed error), the
	// median says nothing of the work, and that is the reason given.
	folded := experiment(t, r, "fold/constant")
	inflated := slices.ContainsFunc(folded.Findings, func(f finding.Finding) bool {
		return f.Code == result.CodeDisturbed && f.Severity == finding.Error
	})
	if !(finding.Has(folded.Findings, "impossible") || inflated) || folded.Verdict != result.VerdictNotBelievable {
		t.Errorf("fold/constant: verdict %q, findings %v; want impossible (or the median disturbed), not believable", folded.Verdict, folded.Findings)
	}
	// sum/sink is honest: not believed only when other tasks inflated its
	// median, and then for that reason alone.
	sink := experiment(t, r, "sum/sink")
	for _, f := range sink.Findings {
		if f.Code == result.CodeImpossible || f.Severity == finding.Error && f.Code != result.CodeDisturbed {
			t.Errorf("sum/sink: verdict %q, %s %s: %s; want it possible", sink.Verdict, f.Severity, f.Code, f.Message)
		}
	}
}

func TestRunFlagsTheLoopThatLostItsLoads(t *testing.T) {
	r, _ := runJSON(t, "--bench", "^sum/(unused|sink)$", "--samples", "3", "--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms")
	if e := experiment(t, r, "sum/unused"); !finding.Has(e.Findings, "no-load-in-loop") {
		t.Errorf("sum/unused: findings %v, want no-load-in-loop", e.Findings)
	}
	if e := experiment(t, r, "sum/sink"); finding.Has(e.Findings, "no-load-in-loop") {
		t.Errorf("sum/sink: findings %v, want no no-load-in-loop", e.Findings)
	}
}

// TestRunInterrupted stops a long run with SIGINT: it must write what it
// measured, marked interrupted, and exit 130.
func TestRunInterrupted(t *testing.T) {
	var stdout strings.Builder
	cmd := exec.Command(benchyBinary(t), "run", "--bench", "^sum/sink$", "--samples", "100000",
		"--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms", "--no-asm", "--format", "json")
	cmd.Stdout = &stdout
	term := startOnTerminal(t, cmd)
	term.waitFor(t, "samples to keep", sampled(20))
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitInterrupted {
		t.Fatalf("exit: %v, want %d; stderr %s", err, ExitInterrupted, term.String())
	}
	r, derr := result.Decode(strings.NewReader(stdout.String()))
	if derr != nil {
		t.Fatalf("the interrupted run's JSON: %v", derr)
	}
	if !r.Interrupted {
		t.Error("result not marked interrupted")
	}
	e := experiment(t, r, "sum/sink")
	// The statistics are those of every sample, or of the steady ones
	// after a warm-up the series shows (then a warmup finding says so).
	// Of the samples no slowed core touched (slowed-samples).
	warm := finding.Has(e.Findings, result.CodeWarmup)
	judged := len(e.WithoutSlowed().Samples)
	if len(e.Samples) == 0 || len(e.Samples) >= 100000 || e.Stats.N == 0 || e.Stats.N > judged ||
		(e.Stats.N < judged) != warm {
		t.Errorf("%d samples (%d slowed), stats n %d, warm-up found %v: want the ones taken before the stop", len(e.Samples), len(e.Slowed), e.Stats.N, warm)
	}
}

// run --compare measures in interleaved rounds and says which is faster:
// sort/copy-8000, the copy alone, is hundreds of times faster than
// sort/ints-8000, the copy and the sort (concat/quadratic against
// concat/builder is as clear, but an op of quadratic copies 160 MB).
func TestRunCompareInterleaved(t *testing.T) {
	t.Parallel()
	r, _ := runJSON(t, "--compare", "sort/ints-8000,sort/copy-8000", "--samples", "12", "--sample-time", "1ms",
		"--warmup", "20ms", "--window", "10ms")
	if len(r.Comparison) != 1 {
		t.Fatalf("comparison: %+v, want one pair", r.Comparison)
	}
	p := r.Comparison[0]
	// Over the 12 rounds, less those a slowed core touched on either side.
	slowed := map[int]bool{}
	for _, e := range r.Experiments {
		for _, i := range e.Slowed {
			slowed[i] = true
		}
	}
	if p.Verdict != "faster" || p.Candidate != "sort/copy-8000" || p.Base != "sort/ints-8000" || p.N > 12 || p.N < 12-len(slowed) {
		t.Errorf("pair %+v: want sort/copy-8000 faster than sort/ints-8000 over 12 rounds (less %d slowed)", p, len(slowed))
	}
	if !strings.Contains(p.Sentence, "sort/copy-8000 is") || !strings.Contains(p.Sentence, "faster than sort/ints-8000") {
		t.Errorf("sentence %q", p.Sentence)
	}
	if r.Settings.RoundSeed == 0 {
		t.Errorf("settings %+v: no round_seed, want the seed the rounds drew their order from", r.Settings)
	}
}

func TestRunCompareAA(t *testing.T) {
	r, _ := runJSON(t, "--compare", "sum/sink,sum/sink", "--samples", "15", "--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms")
	if len(r.Experiments) != 2 || r.Experiments[1].Name != "sum/sink#2" {
		t.Fatalf("experiments %v, want sum/sink and sum/sink#2", r.Experiments)
	}
	// Identical code: never a difference; on a machine whose core was
	// shared meanwhile, honestly inconclusive.
	if len(r.Comparison) != 1 || (r.Comparison[0].Verdict != "no difference detected" && r.Comparison[0].Verdict != "inconclusive") {
		t.Errorf("A/A comparison %+v, want no difference detected (or inconclusive)", r.Comparison)
	}
}
