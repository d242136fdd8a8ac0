package harness

import (
	"testing"
	"time"
)

func TestNextIters(t *testing.T) {
	target := 10 * time.Millisecond
	tests := []struct {
		name         string
		prev, prevNs int64
		want         int64
	}{
		{"below clock resolution grows 100x", 10, 0, 1000},
		{"aims 20% past target", 1000, 1_000_000, 12000},
		{"at most 100x the last", 1, 1, 100},
		{"at least one more", 1000, 100_000_000, 1001},
		{"capped", MaxIters / 2, 1, MaxIters},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nextIters(tt.prev, tt.prevNs, target); got != tt.want {
				t.Errorf("nextIters(%d, %d, %v) = %d, want %d", tt.prev, tt.prevNs, target, got, tt.want)
			}
		})
	}
}

// fakeLoop is a loop of fixed cost per iteration, timed by a fake clock.
type fakeLoop struct {
	perIter time.Duration
	runs    []int64
}

func (f *fakeLoop) run(n int64) time.Duration {
	f.runs = append(f.runs, n)
	return time.Duration(n) * f.perIter
}

func TestCalibrate(t *testing.T) {
	tests := []struct {
		name    string
		perIter time.Duration
		target  time.Duration
	}{
		{"1ns op, 10ms sample", 1, 10 * time.Millisecond},
		{"300ns op, 10ms sample", 300, 10 * time.Millisecond},
		{"op longer than the sample", 50 * time.Millisecond, 10 * time.Millisecond},
		{"1us op, 1ms sample", time.Microsecond, time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeLoop{perIter: tt.perIter}
			n := Calibrate(f.run, tt.target)
			if got := time.Duration(n) * tt.perIter; got < tt.target {
				t.Errorf("calibrated %d iterations = %v, shorter than target %v", n, got, tt.target)
			}
			// Never more than the 20% headroom past what is needed, once
			// the growth is no longer capped.
			if need := int64(tt.target / tt.perIter); n > 1 && float64(n) > 1.2*float64(max(need, 1))+1 {
				t.Errorf("calibrated %d iterations, need only %d", n, need)
			}
			for i := 1; i < len(f.runs); i++ {
				if f.runs[i] <= f.runs[i-1] || f.runs[i] > 100*f.runs[i-1] {
					t.Errorf("run %d grew from %d to %d: want more, at most 100x", i, f.runs[i-1], f.runs[i])
				}
			}
		})
	}
}

// TestCalibrateConfirmedSlowFirstRun: a first run that waited for the CPU
// (1 ms for one iteration) stops Calibrate at one iteration; the
// confirming runs take the count up to the target.
func TestCalibrateConfirmedSlowFirstRun(t *testing.T) {
	const perIter, target = time.Nanosecond, 100 * time.Microsecond
	calls := 0
	run := func(n int64) time.Duration {
		calls++
		if calls == 1 {
			return time.Millisecond
		}
		return time.Duration(n) * perIter
	}
	if n := Calibrate(run, target); n != 1 {
		t.Fatalf("Calibrate after a slow first run = %d, want 1 (the case this guards)", n)
	}
	calls = 0
	n := CalibrateConfirmed(run, target)
	if got := time.Duration(n) * perIter; got < target || float64(n) > 1.2*float64(target/perIter)+1 {
		t.Errorf("CalibrateConfirmed after a slow first run = %d iterations (%v), want the target %v with at most 20%% more", n, got, target)
	}
}

func TestCalibrateEmptyLoopEnds(t *testing.T) {
	// A loop the compiler emptied reads as 0 ns: calibration must still end.
	n := Calibrate(func(int64) time.Duration { return 0 }, time.Millisecond)
	if n != MaxIters {
		t.Errorf("Calibrate on a 0 ns loop = %d, want the cap %d", n, MaxIters)
	}
}

func TestSampleTarget(t *testing.T) {
	if got := SampleTarget(10*time.Millisecond, 20); got != 10*time.Millisecond {
		t.Errorf("fine clock: got %v, want the sample time", got)
	}
	if got := SampleTarget(time.Millisecond, 4*time.Microsecond); got != 4*time.Millisecond {
		t.Errorf("coarse clock: got %v, want 1000 steps = 4ms", got)
	}
}

func TestMeasureClock(t *testing.T) {
	c := MeasureClock()
	if c.NowCostNs <= 0 || c.Granularity <= 0 {
		t.Fatalf("MeasureClock() = %+v, want positive cost and granularity", c)
	}
}

func TestConfirm(t *testing.T) {
	target := 10 * time.Millisecond
	if got := Confirm(1000, 11_000_000, target); got != 1000 {
		t.Errorf("confirmed run long enough: got %d, want 1000 kept", got)
	}
	// The samples run twice as fast as the calibration run did: scale up
	// so they still last the target, with 20% headroom.
	if got := Confirm(1000, 5_000_000, target); got != 2400 {
		t.Errorf("confirming run half as long: got %d, want 2400", got)
	}
}

func TestReferenceLoopNs(t *testing.T) {
	ns := ReferenceLoopNs(2 * time.Millisecond)
	if !(ns > 0) || ns > 1e6 {
		t.Errorf("ReferenceLoopNs = %v, want a positive time per iteration", ns)
	}
	var sink int
	if referenceLoop(10, &sink); sink != 9 {
		t.Errorf("the reference loop stored %d, want 9", sink)
	}
}
