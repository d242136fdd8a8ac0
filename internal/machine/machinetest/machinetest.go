// Package machinetest reads the fixture machines of testdata/machines the
// way the tests of the reader (sysread), of the judging (fit) and of the
// header's writer (render) share: at a fixed time, with fixed Go facts,
// and with a reference-loop probe whose speeds a test sets.
package machinetest

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// Runtime is the Go facts every fixture is read with.
var Runtime = &machine.Runtime{GoVersion: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4, NumCPU: 4}

// Dir is the directory of the fixture machine name.
func Dir(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "../../../testdata/machines", name)
}

// Read reads the fixture machine name with a window of a second at
// 2026-11-30 12:00 UTC; probe, when not nil, times the reference loop.
func Read(t testing.TB, name string, probe *Probe) *machine.Snapshot {
	t.Helper()
	opts := sysread.ReadOptions{
		Window:  time.Second,
		Now:     func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		Runtime: Runtime,
	}
	if probe != nil {
		opts.Probe = probe.Speeds
	}
	s, err := sysread.Read(context.Background(), Dir(name), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ReadProbed reads the fixture machine name with the probe, then sets
// each CPU's busy over a window of 100 ticks (judged) to busy[cpu] (1%
// when absent).
func ReadProbed(t testing.TB, name string, probe *Probe, busy map[int]float64) *machine.Snapshot {
	t.Helper()
	s := Read(t, name, probe)
	bs := s.Busy.Value
	for i := range bs {
		bs[i].Ticks, bs[i].Busy.Value = 100, 1
		if v, ok := busy[bs[i].CPU]; ok {
			bs[i].Busy.Value = v
		}
	}
	return s
}

// A Probe times the reference loop as a test says: NS[cpu] ns per
// iteration, unknown for Reason on a CPU not in NS, Own of CPU time on
// each; Batches keeps the batches it was asked for.
type Probe struct {
	NS      map[int]float64
	Reason  string
	Own     time.Duration
	Batches []machine.CPUList
}

// Speeds is the probe (sysread.SpeedProbe).
func (p *Probe) Speeds(batches []machine.CPUList) []machine.CPUSpeed {
	p.Batches = batches
	var out []machine.CPUSpeed
	for _, b := range batches {
		for _, c := range b {
			sp := machine.CPUSpeed{CPU: c, Own: p.Own, RefNs: machine.Unknown[float64]("%s", p.Reason)}
			if v, ok := p.NS[c]; ok {
				sp.RefNs, sp.RepeatsNs = machine.Known(v), []float64{v * 1.01, v}
			}
			out = append(out, sp)
		}
	}
	slices.SortFunc(out, func(a, b machine.CPUSpeed) int { return a.CPU - b.CPU })
	return out
}

// Codes is "severity code" of each finding, sorted.
func Codes(fs []finding.Finding) []string {
	var c []string
	for _, f := range fs {
		c = append(c, f.Severity.String()+" "+f.Code)
	}
	slices.Sort(c)
	return c
}
