package profiles

import (
	"bytes"
	"errors"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"

	"github.com/google/pprof/profile"
)

// HeapSnapshot is this process's allocation profile now: every sampled
// allocation since it started, by stack. It collects first, because the
// runtime publishes an allocation in the profile only once a collection
// has completed after it; so two snapshots hold exactly the allocations
// made between them, less what the profiler did not sample (Go samples
// one allocation per runtime.MemProfileRate bytes, 512 KiB, and scales
// the counts up). runtime.GC publishes the profile only if no other
// collection completed meanwhile (the runtime's profile "may be up to two
// garbage collection cycles old"), so it collects until one collection
// ran alone, at most maxPublish times: after a loop that allocates fast,
// one collection left half of the measured allocations out (1842 B/op
// read for 4096, under two CPU hogs), and so did two, once, under the
// race detector and two hogs (1765).
func HeapSnapshot() ([]byte, error) {
	for range maxPublish {
		before := Collections()
		runtime.GC()
		if Collections() == before+1 {
			break
		}
	}
	var b bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&b, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// maxPublish bounds the collections HeapSnapshot runs to publish the
// profile.
const maxPublish = 5

// Collections is how many collections have completed, read without
// stopping the world. A collection that was under way when runtime.GC was
// called completes in the call too, so the count may rise by two in a
// call that ran alone: HeapSnapshot then collects once more, which only
// costs a collection.
func Collections() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Delta is the allocations of after less those of before (two heap
// profiles of one process, as pprof -diff_base subtracts them), keeping
// only the allocations made under a frame of the function fn (the
// measured loop or benchmark function): what benchy itself allocated
// between the snapshots is left out. nil, nil when nothing is left.
func Delta(before, after []*profile.Profile, fn string) (*profile.Profile, error) {
	if len(before) != len(after) || len(after) == 0 {
		return nil, errors.New("allocation profiles: not one before and one after every call")
	}
	all := make([]*profile.Profile, 0, 2*len(after))
	for i := range after {
		b := before[i].Copy()
		b.Scale(-1)
		all = append(all, after[i], b)
	}
	p, err := profile.Merge(all)
	if err != nil {
		return nil, err
	}
	keep := p.Sample[:0]
	for _, s := range p.Sample {
		if under(s, fn) {
			keep = append(keep, s)
		}
	}
	p.Sample = keep
	allocOnly(p)
	keep = p.Sample[:0]
	for _, s := range p.Sample {
		if positive(s) {
			keep = append(keep, s)
		}
	}
	p.Sample = keep
	if len(p.Sample) == 0 {
		return nil, nil
	}
	return p.Compact(), nil
}

// under reports whether fn is a frame of s's stack.
func under(s *profile.Sample, fn string) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && l.Function.Name == fn {
				return true
			}
		}
	}
	return false
}

// positive reports whether s has a value above zero: a stack whose count
// fell (rounding in the profiler's scaling) is no allocation.
func positive(s *profile.Sample) bool {
	for _, v := range s.Value {
		if v > 0 {
			return true
		}
	}
	return false
}

// ParseAll parses every profile in data.
func ParseAll(data [][]byte) ([]*profile.Profile, error) {
	ps := make([]*profile.Profile, len(data))
	for i, d := range data {
		p, err := profile.ParseData(d)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	return ps, nil
}

// allocOnly keeps of a heap profile the sample types of what was allocated
// (alloc_objects, alloc_space): the in-use ones of a difference mean
// nothing. go tool pprof then shows alloc_space first.
func allocOnly(p *profile.Profile) {
	var idx []int
	var types []*profile.ValueType
	for i, st := range p.SampleType {
		if st.Type == "alloc_objects" || st.Type == "alloc_space" {
			idx, types = append(idx, i), append(types, st)
		}
	}
	if len(idx) == 0 {
		return
	}
	for _, s := range p.Sample {
		v := make([]int64, len(idx))
		for j, i := range idx {
			v[j] = s.Value[i]
		}
		s.Value = v
	}
	p.SampleType = types
	p.DefaultSampleType = "alloc_space"
}
