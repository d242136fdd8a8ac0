// Package resulttest holds what the tests of the analysis, the writers and
// the commands share: a fixture result with one experiment of every kind,
// the samples it is made of, its golden files under testdata/report, and
// the one check of a golden file.
package resulttest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// Update (-update) rewrites the golden files instead of comparing them.
var Update = flag.Bool("update", false, "rewrite the golden files")

// GoldenDir holds the golden outputs of the fixture result.
var GoldenDir = filepath.Join("..", "..", "testdata", "report") // from a package directory under internal/

// CheckGolden checks got against the fixture's golden file name in
// GoldenDir (see CheckFile).
func CheckGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	CheckFile(t, filepath.Join(GoldenDir, name), got)
}

// CheckFile compares got with the golden file at path, writing path.got
// on a mismatch, so that a diff shows what changed (or the golden file
// itself with -update).
func CheckFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		if err := os.WriteFile(path+".got", got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s differs from the golden file; see %s.got", filepath.Base(path), path)
	}
}

// Spread makes n samples of iters iterations around nsPerOp: a fixed
// pattern of small deviations (in per mille), so outputs are stable.
func Spread(n int, iters int64, nsPerOp float64, perMille ...float64) []result.Sample {
	s := make([]result.Sample, n)
	for i := range s {
		d := perMille[i%len(perMille)]
		s[i] = result.Sample{Iters: iters, Ns: int64(nsPerOp * float64(iters) * (1 + d/1000)), CPU: 1}
	}
	return s
}

// Fixture is a run on a VM with one experiment of every kind:
// believable with counters (one sample preempted and page-faulted),
// impossible with samples shorter than asked, unstable, slow first
// sample, an extra finding from elsewhere, and a failure. It is not
// analysed: the tests call Analyze.
func Fixture() *result.Result {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	sink := Spread(11, 32000, 314, 0, 3, -2, 5, 1, -1, 2, 0, 8, -3, 1)
	for i := range sink {
		sink[i].Counters = map[string]int64{
			result.CounterCycles:        sink[i].Ns * 29 / 10,
			result.CounterInstructions:  32000 * 4200,
			result.CounterInvoluntaryCS: map[bool]int64{true: 1}[i == 8],
			result.CounterNrMigrations:  0,
			result.CounterPageFaults:    map[bool]int64{true: 3}[i == 8],
		}
	}
	slowFirst := Spread(9, 400000, 25, 0, 1, -1, 2, 0, -2, 1, 0, 1)
	slowFirst[0].Ns *= 3
	r := &result.Result{
		Schema:     result.SchemaVersion,
		Tool:       "benchy 0.1.0",
		Command:    []string{"benchy", "run", "--cpu", "1"},
		Start:      start,
		End:        start.Add(4 * time.Second),
		CPU:        1,
		CPUChoice:  "--cpu 1",
		GOMAXPROCS: 2,
		Settings: result.Settings{Bench: ".", Samples: 11, Warmup: 100 * time.Millisecond,
			SampleTime: 10 * time.Millisecond, Isolate: true, Window: time.Second},
		Clock:          result.Clock{NowCostNs: 24.6, GranularityNs: 1},
		GOOS:           "linux",
		GOARCH:         "amd64",
		GoVersion:      "go1.26.8",
		CPUModel:       "AMD EPYC 7B13",
		Governor:       "unknown: no cpufreq directory (virtual machine)",
		EffectiveClock: result.EffectiveClock{BeforeHz: 2.9e9, AfterHz: 2.95e9, Source: "dependent-add chain"},
		MaxFreqSource:  "unknown: no cpufreq directory (virtual machine)",
		Counters: result.CounterReport{
			Opened:      []string{"task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles", "instructions"},
			Unavailable: map[string]string{"branch-misses": "not supported: EOPNOTSUPP", "ref-cycles": "no such event: ENOENT"},
		},
		Environment: []finding.Finding{
			{Code: "virtual-machine", Severity: finding.Info, Message: "hypervisor KVM: steal and frequency are the host's"},
			{Code: "no-cpufreq", Severity: finding.Warn, Message: "no cpufreq: governor and frequency unknown"},
		},
		Experiments: []result.Experiment{
			{Name: "sum/sink", Description: "sum of 4096 uint64 stored to a package variable",
				Units: 4096, Unit: "add", FloorCycles: result.DefaultFloorCycles, ReadsMemory: true,
				Iters: 32000, Samples: sink},
			{Name: "fold/constant", Description: "a pure mixing function on a constant: folded away",
				Units: 8, Unit: "multiply", FloorCycles: 0.5,
				Iters: 20000000, Samples: Spread(11, 20000000, 0.45, 0, 2, -1, 1, 0, 3, -2, 0, 1, -1, 2)},
			{Name: "sum/unused", Description: "sum of 4096 uint64, result discarded",
				Units: 4096, Unit: "add", FloorCycles: result.DefaultFloorCycles, ReadsMemory: true,
				Iters: 50000, Samples: Spread(11, 50000, 210, 0, 2, -1, 1, 0, 3, -2, 0, 1, -1, 2),
				Findings: []finding.Finding{{Code: "no-load-in-loop", Severity: finding.Error,
					Message: "the measured loop reads no memory although the work reads its input"}}},
			{Name: "sort/ints-8000", Description: "sorting a fresh copy of 8000 ints",
				Units: 8000, Unit: "element", FloorCycles: 1,
				Iters: 25, Samples: Spread(11, 25, 410000, 0, 90, -80, 120, 10, -60, 70, 0, 150, -90, 30),
				GC: result.GCStats{AllocsPerOp: 1, BytesPerOp: 65536}},
			{Name: "clock/now", Description: "the cost of time.Now itself",
				Units: 1, Unit: "call", FloorCycles: 10,
				Iters: 400000, Samples: slowFirst},
			{Name: "concat/quadratic", Description: "s = s + line, 8000 times",
				Error: "panic: runtime error: index out of range [3] with length 3"},
		},
	}
	return r
}

// OnCPU is samples of 1000 iterations with the given wall and on-CPU
// (task-clock) times per op, in ns.
func OnCPU(wall, on []float64) []result.Sample {
	s := make([]result.Sample, len(wall))
	for i := range wall {
		s[i] = result.Sample{Iters: 1000, Ns: int64(wall[i] * 1000),
			Counters: map[string]int64{result.CounterTaskClock: int64(on[i] * 1000)}}
	}
	return s
}
