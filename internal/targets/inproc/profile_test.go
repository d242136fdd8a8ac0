package inproc_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

var profSink [][]byte

//go:noinline
func allocLoop(n int) {
	for range n {
		profSink = append(profSink[:0], make([]byte, 4096))
	}
}

//go:noinline
func warmupOnly() {
	x := 0
	for i := range 1 << 22 {
		x += i
	}
	testSink += uint64(x)
}

// TestProfileCoversTheMeasuredCalls: the profiles of a loop cover its
// samples' ops, hold nothing of its setup, and the allocation profile is
// of the loop's allocations (that work outside the measured calls is left
// out while the profiler runs is TestSessionKeepsOnlyMeasured's).
func TestProfileCoversTheMeasuredCalls(t *testing.T) {
	d, err := profiles.NewDir(t.TempDir(), outfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := inproc.Workload{Name: "test/alloc", Setup: func() {
		for until := time.Now().Add(100 * time.Millisecond); time.Now().Before(until); {
			warmupOnly()
		}
	}, Loop: allocLoop}
	hopts := quickOptions()
	hopts.Samples, hopts.SampleTime = 20, 10*time.Millisecond
	tgt := inproc.New(w, inproc.Options{Profile: profiles.NewRecorder(d)})
	o := harness.Run(context.Background(), []harness.Target{tgt}, hopts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	p := tgt.Profile()
	if p == nil || p.CPU == "" || p.Error != "" {
		t.Fatalf("profile %+v: want a CPU profile", p)
	}
	if p.Ops != o.Ops() {
		t.Errorf("the profile covers %d ops, the samples %d", p.Ops, o.Ops())
	}
	cpu, err := profiles.Read(p.CPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range cpu.Sample {
		for _, l := range s.Location {
			for _, line := range l.Line {
				if strings.HasSuffix(line.Function.Name, ".warmupOnly") {
					t.Fatalf("the setup's work is in the profile: %v", s)
				}
			}
		}
	}
	if p.Alloc == "" || p.AllocBytesPerOp <= 0 {
		t.Fatalf("allocation profile %q, %v B/op: want one", p.Alloc, p.AllocBytesPerOp)
	}
	// Sampled, so not exact: within a factor of two of the 4 KiB per op.
	if p.AllocBytesPerOp < 2048 || p.AllocBytesPerOp > 8192 {
		t.Errorf("%v B/op in the allocation profile, want about 4096", p.AllocBytesPerOp)
	}
	if len(p.AllocTop) == 0 || !strings.HasSuffix(p.AllocTop[0].Func, ".allocLoop") {
		t.Errorf("allocation top %+v: want allocLoop first", p.AllocTop)
	}
}

// TestNoProfileWithoutTheFlag: nil, so the result has no profile.
func TestNoProfileWithoutTheFlag(t *testing.T) {
	tgt := inproc.New(inproc.Workload{Name: "test/add", Loop: addLoop}, inproc.Options{})
	harness.Run(context.Background(), []harness.Target{tgt}, quickOptions())
	if p := tgt.Profile(); p != nil {
		t.Errorf("profile %+v without --profile", p)
	}
}
