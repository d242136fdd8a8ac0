package gotest

import (
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/pprof/profile"

	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// profiledCalls are the profile files of a benchmark's measured calls
// (--profile): each call's prefix, and the ops they ran.
type profiledCalls struct {
	prefixes []string
	ops      int64
	missing  int // measured calls the helper wrote no profile for
}

// profileDir is where the helper writes the profiles of the binary's
// calls: a directory beside it, removed with benchy's work directory.
func (t *Target) profileDir() string { return filepath.Join(filepath.Dir(t.Bin.Path), "profiles") }

// profileRun is the options of a sample run: with --profile, the helper
// is told to profile the calls at n (the measured calls and the process's
// first, its warm-up, whose profiles keepProfiles drops).
func (t *Target) profileRun(n int64) (Options, error) {
	o := t.opts
	if o.Profile == nil {
		return o, nil
	}
	if err := os.MkdirAll(t.profileDir(), 0o700); err != nil {
		return o, err
	}
	o.env = append(o.env[:len(o.env):len(o.env)], envProfile+"="+t.profileDir(), envProfileN+"="+strconv.FormatInt(n, 10))
	return o, nil
}

// keepProfiles keeps the profiles of the measured calls and removes the
// warm-up's.
func (t *Target) keepProfiles(warmup Record, measured []Record) {
	if t.opts.Profile == nil {
		return
	}
	removeProfile(warmup.Profile)
	for _, x := range measured {
		if x.Profile == "" {
			t.profiled.missing++
			continue
		}
		t.profiled.prefixes = append(t.profiled.prefixes, x.Profile)
		t.profiled.ops += x.N
	}
}

func removeProfile(prefix string) {
	if prefix == "" {
		return
	}
	for _, ext := range []string{".cpu", ".heap0", ".heap1"} {
		os.Remove(prefix + ext)
	}
}

// Profile is what --profile recorded of the benchmark's measured calls:
// their CPU profiles merged, and the allocations made under the benchmark
// function between the heap profiles written before and after each call;
// nil without --profile.
func (t *Target) Profile() *result.Profile {
	if t.opts.Profile == nil {
		return nil
	}
	pc := t.profiled
	defer func() {
		for _, p := range pc.prefixes {
			removeProfile(p)
		}
	}()
	if len(pc.prefixes) == 0 {
		why := "no measured call was profiled"
		if pc.missing > 0 {
			why = "the test binary wrote no profile of its measured calls (runtime/pprof failed in it, or another profiler ran: -test.cpuprofile)"
		}
		return &result.Profile{Error: why}
	}
	var cpus, before, after []*profile.Profile
	for _, p := range pc.prefixes {
		c, err := profiles.Read(p + ".cpu")
		if err != nil {
			return &result.Profile{Error: "CPU profile: " + err.Error()}
		}
		cpus = append(cpus, c)
		b, err1 := profiles.Read(p + ".heap0")
		a, err2 := profiles.Read(p + ".heap1")
		if err1 == nil && err2 == nil {
			before, after = append(before, b), append(after, a)
		}
	}
	cpu, err := profile.Merge(cpus)
	if err != nil {
		return &result.Profile{Error: "CPU profile: " + err.Error()}
	}
	profiles.WithoutProfiler(cpu)
	sum := t.opts.Profile.Record(t.Name(), cpu, nil, pc.ops)
	if len(before) < len(pc.prefixes) {
		sum.Error = "allocation profile: not every call's heap profiles could be read"
		return sum
	}
	alloc, err := profiles.Delta(before, after, t.fn)
	switch {
	case err != nil:
		sum.Error = "allocation profile: " + err.Error()
	case alloc != nil:
		a := t.opts.Profile.Record(t.Name(), nil, alloc, pc.ops)
		sum.Alloc, sum.AllocBytesPerOp, sum.AllocTop = a.Alloc, a.AllocBytesPerOp, a.AllocTop
		if a.Error != "" {
			sum.Error = a.Error
		}
	}
	if pc.missing > 0 && sum.Error == "" {
		sum.Error = strconv.Itoa(pc.missing) + " measured calls have no profile: the profiles are of the others"
	}
	return sum
}
