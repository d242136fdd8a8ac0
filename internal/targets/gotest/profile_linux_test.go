package gotest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/profiles"
)

// TestProfileOfMeasuredCalls builds a package with a benchmark in the
// package itself (its profiler set through the external test package)
// and one in the external test package, profiles two processes of each,
// and reads the profiles: they cover the measured calls' ops, never the
// work of testing's N=1 probe nor of each process's warm-up call, and
// the allocation profile is the allocating benchmark's.
func TestProfileOfMeasuredCalls(t *testing.T) {
	notUnderRace(t)
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, testdata, []string{"./profiled"}, nil)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("go list: %v %v", pkgs, err)
	}
	bin, err := BuildWith(ch, pkgs[0], t.TempDir(), nil, BuildOptions{Profile: true})
	if err != nil {
		var be *BuildError
		if errors.As(err, &be) {
			t.Fatalf("%v\n%s", err, be.Output)
		}
		t.Fatal(err)
	}
	o := quick(t)
	o.SampleTime = 20e6
	if o.Profile, err = profiles.NewDir(t.TempDir(), outfile.Options{}); err != nil {
		t.Fatal(err)
	}
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := displays(ts); len(got) != 2 {
		t.Fatalf("targets %v, want Spin and Alloc", got)
	}
	for _, tgt := range ts {
		var samples int
		for range 2 {
			batch, err := tgt.Sample(tgt.N)
			if err != nil {
				t.Fatal(err)
			}
			samples += len(batch)
		}
		tgt.Close(harness.EndCompleted)
		p := tgt.Profile()
		if p == nil || p.CPU == "" || p.Error != "" {
			t.Fatalf("%s: profile %+v", tgt.Display, p)
		}
		if want := int64(samples) * tgt.N; p.Ops != want {
			t.Errorf("%s: the profile covers %d ops, the samples %d", tgt.Display, p.Ops, want)
		}
		cpu, err := profiles.Read(p.CPU)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range cpu.Sample {
			for _, l := range s.Location {
				for _, line := range l.Line {
					if n := line.Function.Name; strings.HasSuffix(n, "profiled.Probe") || strings.HasSuffix(n, "profiled.Warmup") || strings.Contains(n, "profileWriter") {
						t.Fatalf("%s: %s is in the profile of the measured calls", tgt.Display, n)
					}
				}
			}
		}
		switch tgt.Display {
		case "Alloc":
			if p.Alloc == "" || len(p.AllocTop) == 0 || !strings.Contains(p.AllocTop[0].Func, "BenchmarkAlloc") {
				t.Errorf("Alloc: allocation profile %q, top %+v", p.Alloc, p.AllocTop)
			}
			// 1 KiB per op, sampled: within a factor of two.
			if p.AllocBytesPerOp < 512 || p.AllocBytesPerOp > 2048 {
				t.Errorf("Alloc: %v B/op in the profile, want about 1024", p.AllocBytesPerOp)
			}
		case "Spin":
			if p.Alloc != "" {
				t.Errorf("Spin allocates nothing, but has the allocation profile %s", p.Alloc)
			}
		}
		if filepath.Dir(p.CPU) != o.Profile.Path {
			t.Errorf("%s: profile %s not in %s", tgt.Display, p.CPU, o.Profile.Path)
		}
	}
	// The helper's files are gone once read.
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(bin.Path), "profiles", "*")); len(left) > 0 {
		t.Errorf("%d profile files left beside the binary", len(left))
	}
}
