package profiles

import (
	"cmp"
	"slices"

	"github.com/google/pprof/profile"

	"github.com/benchy-dev/benchy/internal/result"
)

// TopN is how many functions a summary keeps.
const TopN = 10

// byFunc is a profile's values of one sample type summed by function: flat
// (the function is the innermost frame, inlined frames counted as their
// own functions, as pprof does) and cumulative (the function is anywhere
// on the stack, once per sample however often it recurs).
type byFunc struct {
	flat, cum map[string]int64
	total     int64
}

// sumByFunc sums p's values of sample type index i by function. A sample
// from the diff base (pprof::base) counts negated, as pprof shows it.
func sumByFunc(p *profile.Profile, i int) byFunc {
	s := byFunc{flat: map[string]int64{}, cum: map[string]int64{}}
	for _, smp := range p.Sample {
		if i >= len(smp.Value) {
			continue
		}
		v := smp.Value[i]
		s.total += v
		seen := map[string]bool{}
		first := true
		for _, loc := range smp.Location {
			for _, line := range loc.Line {
				name := funcName(line)
				if first {
					s.flat[name] += v
					first = false
				}
				if !seen[name] {
					seen[name] = true
					s.cum[name] += v
				}
			}
			if len(loc.Line) == 0 { // not symbolized: the address stands for it
				name := "?"
				if first {
					s.flat[name] += v
					first = false
				}
				if !seen[name] {
					seen[name] = true
					s.cum[name] += v
				}
			}
		}
	}
	return s
}

func funcName(l profile.Line) string {
	if l.Function == nil || l.Function.Name == "" {
		return "?"
	}
	return l.Function.Name
}

// top is the n functions with the most flat value, per op (divided by
// ops), ties broken by name.
func (s byFunc) top(n int, ops int64) []result.ProfileEntry {
	var es []result.ProfileEntry
	for name, f := range s.flat {
		if f <= 0 {
			continue
		}
		es = append(es, result.ProfileEntry{Func: name, Flat: perOp(f, ops), Cum: perOp(s.cum[name], ops)})
	}
	slices.SortFunc(es, func(a, b result.ProfileEntry) int {
		return cmp.Or(cmp.Compare(b.Flat, a.Flat), cmp.Compare(a.Func, b.Func))
	})
	return es[:min(n, len(es))]
}

func perOp(v, ops int64) float64 {
	if ops <= 0 {
		return 0
	}
	return float64(v) / float64(ops)
}

// sampleType is the index of p's sample type named typ ("cpu",
// "alloc_space"), -1 when p has none.
func sampleType(p *profile.Profile, typ string) int {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	return -1
}

// count is the number of samples p holds in sample type "samples" (a CPU
// profile's count of SIGPROF samples).
func count(p *profile.Profile) int {
	i := sampleType(p, "samples")
	if i < 0 {
		return len(p.Sample)
	}
	n := int64(0)
	for _, s := range p.Sample {
		n += s.Value[i]
	}
	return int(n)
}

// SummarizeCPU fills the CPU part of sum from the CPU profile p of ops
// ops.
func SummarizeCPU(sum *result.Profile, p *profile.Profile, ops int64) {
	sum.Ops = ops
	sum.Samples = count(p)
	i := sampleType(p, "cpu")
	if i < 0 {
		return
	}
	s := sumByFunc(p, i)
	sum.CPUNsPerOp = perOp(s.total, ops)
	sum.Top = s.top(TopN, ops)
}

// SummarizeAlloc fills the allocation part of sum from the allocation
// profile p of sum.Ops ops.
func SummarizeAlloc(sum *result.Profile, p *profile.Profile) {
	i := sampleType(p, "alloc_space")
	if i < 0 {
		return
	}
	s := sumByFunc(p, i)
	sum.AllocBytesPerOp = perOp(s.total, sum.Ops)
	sum.AllocTop = s.top(TopN, sum.Ops)
}
