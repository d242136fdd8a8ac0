package changepoint

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzClassify feeds Classify arbitrary series and checks that the result
// is well formed (see checkResult), also with the search on a grid of 8
// positions, as a long series is searched. The first byte picks how the
// rest is read: as raw float64 bits (NaN, ±Inf, zeros, negatives, 1e-300 and
// 1e300 alike) or as one byte per sample, 1 + b/32, which gives ties,
// steps and spikes among valid times.
func FuzzClassify(f *testing.F) {
	f.Add([]byte{1, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32})
	f.Add([]byte{1, 200, 90, 40, 33, 32, 32, 31, 32, 33, 32, 32, 31, 32, 32, 33, 32})
	f.Add([]byte{1, 32, 32, 32, 32, 32, 32, 90, 90, 90, 90, 90, 90, 32, 32, 32, 32, 32, 32})
	f.Add(float64Bytes(1, 2, 3, math.NaN(), 5, 6, 7, 8, 9, 10, 11))
	f.Add(float64Bytes(0, -1, math.Inf(1), math.Inf(-1), 1e-300, 1e300, 5e-324, 1, 1, 1, 1))
	f.Add(float64Bytes(1e-300, 1e-300, 1e-300, 1e-300, 1e-300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		var xs []float64
		if data[0]%2 == 0 {
			for b := data[1:]; len(b) >= 8; b = b[8:] {
				xs = append(xs, math.Float64frombits(binary.LittleEndian.Uint64(b)))
			}
		} else {
			for _, b := range data[1:] {
				xs = append(xs, 1+float64(b)/32)
			}
		}
		if len(xs) > 1000 {
			// PELT is quadratic on series without changes: long inputs
			// only slow the fuzzer down.
			return
		}
		r := Classify(xs)
		checkResult(t, xs, r)
		// The grid search of long series, on a grid of 8 positions.
		checkResult(t, xs, classify(xs, 8))
		if d := Detect(xs, DefaultPenalty(len(xs))); !increasingInside(d, len(xs)) {
			t.Fatalf("Detect = %v for %d samples", d, len(xs))
		}
		if c := Across([]Result{r, Classify(xs)}); c != r.Class && r.Judged {
			t.Fatalf("Across of two copies of %q is %q", r.Class, c)
		}
	})
}

func float64Bytes(xs ...float64) []byte {
	b := []byte{0}
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func increasingInside(cps []int, n int) bool {
	for i, c := range cps {
		if c < MinSegment || c > n-MinSegment || (i > 0 && c-cps[i-1] < MinSegment) {
			return false
		}
	}
	return true
}
