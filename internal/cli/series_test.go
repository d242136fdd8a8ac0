//go:build linux

package cli

import (
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// measuredCPU is the CPU the real-run tests pin to: the last one, which
// is where benchy's own choice lands on most machines.
func measuredCPU(t *testing.T) int {
	t.Helper()
	out, err := exec.Command("nproc").Output()
	if err != nil {
		t.Skip("no nproc")
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return max(n-1, 0)
}

// A CPU hog that takes the measured CPU halfway through a run makes its
// series slow down and stay slow: classified slowdown (or, when the hog's
// share wanders, no steady state), never flat. On a CPU already shared
// before the hog came (other tasks, a loaded machine, the host) the samples swing
// between shares from the start, and a step in such a series is no
// change the classifier may claim (changepoint tests it on made series):
// then the run must say the machine interfered, and not believe the
// number. So too when the hog's share swings so widely from sample to
// sample that the step is within the noise (unstable).
func TestSeriesHogHalfway(t *testing.T) {
	if onlyInProcess() {
		t.Skip("a real run with a hog")
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	cpu := measuredCPU(t)
	var stdout strings.Builder
	cmd := exec.Command(benchyBinary(t), "run", "--bench", "^sum/sink$", "--cpu", strconv.Itoa(cpu), "--samples", "100",
		"--window", "100ms", "--format", "json")
	cmd.Stdout = &stdout
	term := startOnTerminal(t, cmd)
	// The hog comes when the progress line shows 40 samples taken, not
	// at a time benchy may not have reached on a loaded machine (or
	// passed on a fast one).
	term.waitFor(t, "40 samples", sampled(40))
	hog := exec.Command("taskset", "-c", strconv.Itoa(cpu), "sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		hog.Process.Kill()
		hog.Wait()
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("benchy run: %v\n%s", err, term.String())
	}
	r, err := result.Decode(strings.NewReader(stdout.String()))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Experiments[0]
	ser := analyze.ClassifySeries(e)
	var codes []string
	for _, f := range e.Findings {
		codes = append(codes, f.Code)
	}
	// The first quarter of the 100 samples is before the hog.
	before := e.Samples[:len(e.Samples)/4]
	disturbed := 0
	for i, s := range before {
		share, ok := result.OffCPUShare(s)
		_, slowed := slices.BinarySearch(e.Slowed, i)
		if slowed || (ok && share > analyze.OffCPUDisturbed) {
			disturbed++
		}
	}
	shared := disturbed > len(before)/10
	// The hog's share of each 100 ms sample may swing so widely that the
	// step is no larger than the samples' own swing from one to the next
	// after it (and the run says unstable): then, too, the run must name
	// the interference. A clean series swings by a few percent.
	step, swing := stepAndSwing(before, e.Samples[len(e.Samples)/2:])
	swinging := slices.Contains(codes, result.CodeUnstable) && step <= swing
	t.Logf("class %s: %s; findings %v; %d of the %d samples before the hog disturbed or slowed; step %.2f, swing after it %.2f (logs)",
		ser.Class, ser.Results[0].Reason, codes, disturbed, len(before), step, swing)
	checkSeriesAgrees(t, e)
	switch {
	case slices.Contains(codes, result.CodeSlowdown) || slices.Contains(codes, result.CodeNoSteadyState):
	case !shared && !swinging:
		t.Errorf("a hog from halfway: class %s, findings %v; want slowdown or no-steady-state", ser.Class, codes)
	case !analyze.Interfered(e.Findings) || e.Verdict == result.VerdictBelievable:
		t.Errorf("a hog from halfway, the CPU shared from the start or the samples swinging: verdict %s, findings %v; want the interference named", e.Verdict, codes)
	}
}

// stepAndSwing is, in logs of the samples' times, the step from the
// median of before to that of after, and after's swing from one sample to
// the next (the root mean square of successive differences over √2, the
// noise the classifier weighs a step against).
func stepAndSwing(before, after []result.Sample) (step, swing float64) {
	logs := func(ss []result.Sample) []float64 {
		out := make([]float64, len(ss))
		for i, s := range ss {
			out[i] = math.Log(float64(s.Ns))
		}
		return out
	}
	b, a := logs(before), logs(after)
	sum := 0.0
	for i := 1; i < len(a); i++ {
		sum += (a[i] - a[i-1]) * (a[i] - a[i-1])
	}
	return stats.Median(a) - stats.Median(b), math.Sqrt(sum / float64(len(a)-1) / 2)
}

// checkSeriesAgrees checks, of an experiment benchy wrote, that whatever
// the class of its series, the finding and the statistics agree with it:
// the class is that of the samples no slowed core touched
// (slowed-samples), and it has the class's finding alone (none when
// flat) and statistics over the steady samples. analyze tests the rule
// on made series of every class (TestSeriesClassFindingsAndStatsAgree);
// this is the binary's output keeping it.
func checkSeriesAgrees(t *testing.T, e result.Experiment) {
	t.Helper()
	e = e.WithoutSlowed()
	ser := analyze.ClassifySeries(e)
	if !ser.Judged() {
		t.Errorf("%s: %d samples not classified: %s", e.Name, len(e.Samples), ser.Reason)
		return
	}
	if e.Series == nil || e.Series.Class != string(ser.Class) {
		t.Errorf("%s: stored series %+v, the samples' class %s", e.Name, e.Series, ser.Class)
	}
	want := map[string]string{"warmup": result.CodeWarmup, "slowdown": result.CodeSlowdown,
		"no steady state": result.CodeNoSteadyState}[string(ser.Class)]
	var got []string
	for _, f := range e.Findings {
		if slices.Contains([]string{result.CodeWarmup, result.CodeSlowdown, result.CodeNoSteadyState}, f.Code) {
			got = append(got, f.Code)
		}
	}
	if (want == "" && len(got) > 0) || (want != "" && !slices.Equal(got, []string{want})) {
		t.Errorf("%s: class %s, findings %v", e.Name, ser.Class, got)
	}
	if steady := len(ser.Steady(e.Samples)); e.Stats.N != steady {
		t.Errorf("%s: statistics over %d samples, the steady state holds %d", e.Name, e.Stats.N, steady)
	}
}
