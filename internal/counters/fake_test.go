package counters

import (
	"errors"
	"maps"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

var _ Source = (*Fake)(nil)

func TestFakeScript(t *testing.T) {
	first := map[string]int64{result.CounterCycles: 1}
	f := &Fake{Reads: []map[string]int64{first, nil, {result.CounterCycles: 2}}}
	r, err := f.Read()
	if err != nil || !maps.Equal(r, first) {
		t.Fatalf("first Read = %v, %v", r, err)
	}
	r[result.CounterCycles] = 99
	if first[result.CounterCycles] != 1 {
		t.Error("Read returned the script's own map, not a copy")
	}
	if _, err := f.Read(); !errors.Is(err, ErrFake) {
		t.Errorf("nil entry: err = %v, want ErrFake", err)
	}
	if r, err := f.Read(); err != nil || r[result.CounterCycles] != 2 {
		t.Errorf("third Read = %v, %v", r, err)
	}
	if _, err := f.Read(); !errors.Is(err, ErrFake) {
		t.Errorf("after the script: err = %v, want ErrFake", err)
	}
	f.Close()
	if !f.Closed {
		t.Error("Close did not mark the fake closed")
	}
}

// TestFakeHardwarePath takes two samples the way the harness does, from a
// source with the hardware counters this VM lacks: one sample fully counted,
// one during which the PMU was shared, whose hardware counts must not be
// taken as the sample's.
func TestFakeHardwarePath(t *testing.T) {
	cyc, ins := result.CounterCycles, result.CounterInstructions
	reading := func(c, i, en, run int64) map[string]int64 {
		return map[string]int64{cyc: c, ins: i, HardwareEnabled: en, HardwareRunning: run, result.CounterTaskClock: en}
	}
	f := &Fake{Reads: []map[string]int64{
		reading(0, 0, 0, 0), reading(3_000_000, 9_000_000, 1_000_000, 1_000_000),
		reading(3_100_000, 9_300_000, 1_100_000, 1_100_000), reading(5_000_000, 15_000_000, 2_100_000, 1_700_000),
	}}
	var samples []map[string]int64
	for range 2 {
		before, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		after, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, Delta(before, after))
	}
	if got := samples[0][cyc]; got != 3_000_000 {
		t.Errorf("sample 0 cycles = %d, want 3000000", got)
	}
	if ipc := float64(samples[0][ins]) / float64(samples[0][cyc]); ipc != 3 {
		t.Errorf("sample 0 IPC = %g, want 3", ipc)
	}
	if _, ok := samples[1][cyc]; ok {
		t.Errorf("sample 1 keeps cycles although the PMU counted only 60%% of it: %v", samples[1])
	}
	if samples[1][result.CounterTaskClock] != 1_000_000 {
		t.Errorf("sample 1 lost its software counts: %v", samples[1])
	}
}
