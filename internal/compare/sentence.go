package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// factorFrom is where a change is written as a factor instead of a
// percentage: from 1.5x up ("1.8x slower", "41.2x faster"); below it as the
// change of time per op in percent ("12.3% slower", "9.8% faster"), the
// form benchstat uses, where -9.8% means 9.8% less time per op.
const factorFrom = 1.5

// sentence writes the verdict of p for a person:
//
//	concat/builder is 41.2x faster than concat/quadratic (95% CI 39.8x-42.5x, p<0.001, 31 rounds)
//	new sum/sink is 12.3% slower than old sum/sink (95% CI +10.1% to +14.0%, p<0.001, 31+31 samples)
//	sum/sink vs sum/sink: no difference detected (ratio 1.01, 95% CI 0.98-1.03, p=0.41, 31 rounds)
func sentence(p Pair) string {
	base, cand := orDefault(p.Base, "base"), orDefault(p.Candidate, "candidate")
	switch p.Verdict {
	case NotComparable:
		return fmt.Sprintf("%s vs %s: not comparable (%s)", cand, base, p.Reason)
	case Faster, Slower:
		return fmt.Sprintf("%s is %s %s than %s (%s, %s, %s)",
			cand, amount(p), p.Verdict, base, ciText(p), pText(p), nText(p))
	}
	lo, r, hi := fmtRatios(p.CILow, p.Ratio, p.CIHigh)
	s := fmt.Sprintf("%s vs %s: no difference detected (ratio %s, 95%% CI %s-%s, %s, %s",
		cand, base, r, lo, hi, pText(p), nText(p))
	if p.Reason != "" && !strings.Contains(p.Reason, "interval includes 1") {
		s += "; " + p.Reason
	}
	return s + ")"
}

// amount is how much faster or slower p's candidate is, without the
// direction: "41.2x" or "12.3%" (see factorFrom).
func amount(p Pair) string {
	if f := factor(p.Ratio); f >= factorFrom {
		return Sig3(f) + "x"
	}
	return strings.TrimLeft(fmtPct(p.Change()), "+-")
}

// ciText is p's interval in the form of amount: "95% CI 39.8x-42.5x" or
// "95% CI +10.1% to +14.0%" (signed changes of time per op).
func ciText(p Pair) string {
	if factor(p.Ratio) >= factorFrom {
		lo, hi := factor(p.CIHigh), factor(p.CILow) // faster: 1/hi is the smaller factor
		if p.Ratio > 1 {
			lo, hi = p.CILow, p.CIHigh
		}
		return "95% CI " + Sig3(lo) + "x-" + Sig3(hi) + "x"
	}
	return "95% CI " + fmtPct(p.CILow-1) + " to " + fmtPct(p.CIHigh-1)
}

// factor is how many times faster or slower a ratio is (always >= 1).
func factor(r float64) float64 {
	if r < 1 {
		return 1 / r
	}
	return r
}

// pText is the p-value as the sentence gives it, naming the correction.
func pText(p Pair) string {
	s := "p=" + fmtP(p.AdjustedP)
	if p.AdjustedP < 0.001 {
		s = "p<0.001"
	}
	if p.Comparisons > 1 {
		s += fmt.Sprintf(" Holm-adjusted for %d comparisons", p.Comparisons)
	}
	return s
}

// nText is the amount of data: "31 rounds" or "31+30 samples".
func nText(p Pair) string {
	if p.Paired {
		if p.N == 1 {
			return "1 round"
		}
		return itoa(p.N) + " rounds"
	}
	return itoa(p.BaseN) + "+" + itoa(p.CandidateN) + " samples"
}

// fmtRatios formats an interval and its estimate with two decimals, or
// more while rounding would make distinct values look equal (1.005 in
// 1.003-1.007 must not read "1.00, 1.00-1.01").
func fmtRatios(lo, r, hi float64) (string, string, string) {
	for d := 2; ; d++ {
		f := func(x float64) string { return strconv.FormatFloat(x, 'f', d, 64) }
		a, b, c := f(lo), f(r), f(hi)
		if d == 4 || ((a != b || lo == r) && (b != c || r == hi)) {
			return a, b, c
		}
	}
}

// fmtPct formats a relative change as a signed percentage: "+12.3%",
// "-0.48%" (two significant digits below 1%).
func fmtPct(x float64) string {
	v := 100 * x
	if math.Abs(v) < 1 && v != 0 {
		return fmt.Sprintf("%+.2f%%", v)
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// FmtPct is fmtPct for writers: "+12.3%".
func FmtPct(x float64) string { return fmtPct(x) }

// fmtThreshold formats a threshold: 0.02 -> "2%", 0.005 -> "0.5%".
func fmtThreshold(t float64) string {
	return strconv.FormatFloat(100*t, 'f', -1, 64) + "%"
}

// fmtP formats a p-value with two significant digits: 0.41, 0.041, 0.0012.
func fmtP(p float64) string {
	if p >= 0.1 || p == 0 || math.IsNaN(p) {
		return strconv.FormatFloat(p, 'f', 2, 64)
	}
	d := 1 - int(math.Floor(math.Log10(p)))
	return strconv.FormatFloat(p, 'f', d, 64)
}

// FmtP is fmtP for writers, with "<0.001" for tiny p-values.
func FmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmtP(p)
}

// sig3 formats x with three significant digits, trailing zeros dropped:
// 41.23 -> "41.2", 1.8 -> "1.8", 1234 -> "1234".
func Sig3(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	d := max(2-int(math.Floor(math.Log10(math.Abs(x)))), 0)
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
