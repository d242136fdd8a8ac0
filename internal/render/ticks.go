package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/units"
)

// A tick is a labelled value on a chart's axis.
type tick struct {
	v     float64
	label string
}

// niceStep is the step of about n ticks over span: 1, 2 or 5 times a
// power of ten (the nearest to span/n), the steps a reader adds up
// without effort.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n < 1 || math.IsInf(span, 0) || math.IsNaN(span) {
		return 1
	}
	raw := span / float64(n)
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / pow; {
	case f < 1.5:
		return pow
	case f < 3:
		return 2 * pow
	case f < 7:
		return 5 * pow
	}
	return 10 * pow
}

// linearTicks is the multiples of a nice step inside [lo, hi], about n
// of them (at least two where the step allows), labelled by label. Equal
// ends, or ends so large that the step is below their precision (equal
// values of 2^53 and more: k+1 == k), are one tick at lo; an end that is
// not finite has none. The count is known before the loop, so no value
// can keep it going.
func linearTicks(lo, hi float64, n int, label func(v, step float64) string) []tick {
	if !isFinite(lo) || !isFinite(hi) || hi < lo {
		return nil
	}
	step := niceStep(hi-lo, n)
	first := math.Ceil(lo/step - 1e-9)
	count := math.Floor(hi/step+1e-9) - first + 1
	if hi == lo || first+1 == first || count > float64(4*n+4) {
		return []tick{{lo, label(lo, niceStep(math.Abs(lo), 1)/1000)}}
	}
	var out []tick
	for k := range int(count) {
		v := (first + float64(k)) * step
		if v == 0 {
			v = 0 // not -0
		}
		out = append(out, tick{v, label(v, step)})
	}
	return out
}

func isFinite(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }

// plainLabel writes v with the decimals its step needs and no more:
// "0.2", "1.5", "20".
func plainLabel(v, step float64) string {
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// durationTicks is round ticks over [lo, hi] ns in one unit, the one of
// hi: "1.2 µs", "1.4 µs", not three arbitrary values.
func durationTicks(lo, hi float64, n int) []tick {
	unit, scale := units.DurationUnit(hi)
	return scaledTicks(lo, hi, n, unit, scale)
}

// logTicks is round ticks over [lo, hi] (both > 0) for a log scale: the
// powers of ten when the range spans three decades or more (every other
// one past eight), 1-2-5 in each decade over one to three, and a linear
// nice step inside less than a decade, so the labels are always values
// a reader can place (1, 10, 100 or 0.98, 1, 1.02), never the ends of
// the range (1.02, 0.0142, 0.000198).
func logTicks(lo, hi float64) []tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	decades := math.Log10(hi / lo)
	if decades < 1 {
		return linearTicks(lo, hi, 4, plainLabel)
	}
	mults := []float64{1, 2, 5}
	every := 1
	if decades >= 3 {
		mults = []float64{1}
		if decades > 8 {
			every = 2
		}
	}
	var out []tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		if int(e)%every != 0 {
			continue
		}
		pow := math.Pow(10, e)
		for _, m := range mults {
			v := m * pow
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, tick{v, plainLabel(v, pow)})
			}
		}
	}
	return out
}
