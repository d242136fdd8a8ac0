package render

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// factorFrom is where a change is written as a factor instead of a
// percentage: from 1.5x up ("1.8x slower", "41.2x faster"); below it as the
// change of time per op in percent ("12.3% slower", "9.8% faster"), the
// form benchstat uses, where -9.8% means 9.8% less time per op.
const factorFrom = 1.5

// Sentence writes the verdict of p for a person:
//
//	concat/builder is 41.2x faster than concat/quadratic (95% CI 39.8x-42.5x, p<0.001, 31 rounds)
//	new sum/sink is 12.3% slower than old sum/sink (95% CI +10.1% to +14.0%, p<0.001, 31+31 samples)
//	sum/sink vs sum/sink: no difference detected (ratio 1.01, 95% CI 0.98-1.03, p=0.41, 31 rounds)
//	b vs a: +0.50% measured, not claimed (95% CI +0.30% to +0.70%, p<0.001, 10+12 samples; the change, +0.50%, is within the 2% threshold)
func Sentence(p result.Pair) string {
	if p.Tail == nil {
		return medianSentence(p)
	}
	return medianSentence(p) + "; " + tailSentence(*p.Tail)
}

// tailSentence says how a percentile of the single calls compared:
// "p99 of single calls: 2.4 µs against 2 µs, 1.2x (97.5% CI
// 1.15x-1.26x): slower".
func tailSentence(t result.TailPair) string {
	s := fmt.Sprintf("%s of single calls: %s against %s", t.Percentile, units.Duration(float64(t.CandidateNs)), units.Duration(float64(t.BaseNs)))
	switch t.Verdict {
	case result.NotComparable, result.Inconclusive:
		return s + ", " + t.Verdict + ": " + t.Reason
	}
	hi := "unbounded"
	if t.High > 0 {
		hi = units.Sig(t.High, 3) + "x"
	}
	return s + fmt.Sprintf(", %sx (%s CI %sx-%s): %s", units.Sig(t.Ratio, 3), units.Level(t.Level), units.Sig(t.Low, 3), hi, t.Verdict)
}

// medianSentence is Sentence without the tail.
func medianSentence(p result.Pair) string {
	base, cand := cmp.Or(p.Base, "base"), cmp.Or(p.Candidate, "candidate")
	switch p.Verdict {
	case result.NotComparable:
		return fmt.Sprintf("%s vs %s: not comparable (%s)", cand, base, p.Reason)
	case result.Inconclusive:
		return fmt.Sprintf("%s vs %s: inconclusive: %s", cand, base, p.Reason)
	case result.Faster, result.Slower:
		s := fmt.Sprintf("%s is %s %s than %s (%s, %s, %s%s",
			cand, amount(p), p.Verdict, base, ciText(p), pText(p), nText(p), BasisText(p))
		if p.Busy != "" {
			s += fmt.Sprintf("; beyond what %s could explain, at most %sx", p.Busy, units.Sig(1+p.BusyBound, 2))
		}
		return s + ")"
	}
	lo, r, hi := fmtRatios(p.CILow, p.Ratio, p.CIHigh)
	s := fmt.Sprintf("%s vs %s: no difference detected (ratio %s, %s CI %s-%s, %s, %s%s",
		cand, base, r, units.Level(p.Level), lo, hi, pText(p), nText(p), BasisText(p))
	if p.CILow > 1 || p.CIHigh < 1 {
		// The interval excludes 1: a change was measured, and is not
		// claimed for the reason given. Saying "no difference" would be
		// false.
		s = fmt.Sprintf("%s vs %s: %s measured, not claimed (%s, %s, %s%s",
			cand, base, units.Change(p.Change()), ciText(p), pText(p), nText(p), BasisText(p))
	}
	if p.Reason != "" && !strings.Contains(p.Reason, "interval includes 1") {
		s += "; " + p.Reason
	}
	switch {
	case p.Detectable > 0 && p.RunNoiseAssumed:
		s += fmt.Sprintf("; one run per side tells only changes beyond %s from run-to-run variation (assumed %s, not measured): give several runs per side",
			units.Pct(p.Detectable), units.Pct(p.RunNoise))
	case p.Detectable > 0 && p.RunNoise > 0:
		s += fmt.Sprintf("; one run on a side tells only changes beyond %s from run-to-run variation (%s, measured on the other side's runs)",
			units.Pct(p.Detectable), units.Pct(p.RunNoise))
	case p.Detectable > 0:
		s += fmt.Sprintf("; one run per side tells only changes beyond %s from run-to-run variation: give several runs per side",
			units.Pct(p.Detectable))
	}
	return s + ")"
}

// BasisText says what was compared when it is not wall time ("; in
// cycles at the clock measured around each experiment"), as the sentence
// says it; a table of many rows on one basis can say it once.
func BasisText(p result.Pair) string {
	switch p.Basis {
	case result.BasisCycles:
		return "; in cycles at the clock measured around each experiment"
	case result.BasisOnCPU, result.BasisOnCPUCycles:
		return "; judged on " + p.Basis + ": the machine was busy, and the time the thread was off the CPU is left out"
	}
	return ""
}

// amount is how much faster or slower p's candidate is, without the
// direction: "41.2x" or "12.3%" (see factorFrom).
func amount(p result.Pair) string {
	if f := factor(p.Ratio); f >= factorFrom {
		return units.Sig(f, 3) + "x"
	}
	return strings.TrimLeft(units.Change(p.Change()), "+-")
}

// ciText is p's interval in the form of amount: "95% CI 39.8x-42.5x" or
// "95% CI +10.1% to +14.0%" (signed changes of time per op); the level is
// the pair's (98.3% for one of three comparisons at once).
func ciText(p result.Pair) string {
	if factor(p.Ratio) >= factorFrom {
		lo, hi := factor(p.CIHigh), factor(p.CILow) // faster: 1/hi is the smaller factor
		if p.Ratio > 1 {
			lo, hi = p.CILow, p.CIHigh
		}
		return units.Level(p.Level) + " CI " + units.Sig(lo, 3) + "x-" + units.Sig(hi, 3) + "x"
	}
	return units.Level(p.Level) + " CI " + units.Change(p.CILow-1) + " to " + units.Change(p.CIHigh-1)
}

// factor is how many times faster or slower a ratio is (always >= 1).
func factor(r float64) float64 {
	if r < 1 {
		return 1 / r
	}
	return r
}

// pText is the p-value as the sentence gives it, naming the correction
// (the interval beside it is at the family's level: they agree).
func pText(p result.Pair) string {
	s := "p=" + units.PValue(p.AdjustedP)
	if p.AdjustedP < 0.001 {
		s = "p<0.001"
	}
	if p.Comparisons > 1 {
		s += fmt.Sprintf(" Bonferroni-adjusted for %d comparisons", p.Comparisons)
	}
	return s
}

// nText is the amount of data: "31 rounds" ("31 of 101 rounds, stopped
// at a look: decided" when a run with looks stopped early), "31+30
// samples" or, when
// the run was the unit, "3+3 runs", or "3 paired runs" when run k of each
// side was taken together.
func nText(p result.Pair) string {
	switch {
	case p.Paired && p.N == 1:
		return "1 round"
	case p.Paired && p.PlannedRounds > p.N && p.Stop == result.StopDecided:
		return itoa(p.N) + " of " + itoa(p.PlannedRounds) + " rounds, stopped at a look: decided"
	case p.Paired && p.PlannedRounds > p.N && p.Stop == result.StopBudget:
		return itoa(p.N) + " of " + itoa(p.PlannedRounds) + " rounds, stopped when their time ran out"
	case p.Paired:
		return itoa(p.N) + " rounds"
	case p.PairedRuns:
		return itoa(p.N) + " paired runs"
	case p.BaseRuns > 1 && p.CandidateRuns > 1:
		return itoa(p.BaseRuns) + "+" + itoa(p.CandidateRuns) + " runs"
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

// FmtP is a p-value for a table cell, with "<0.001" for tiny p-values.
func FmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return units.PValue(p)
}

func itoa(n int) string { return strconv.Itoa(n) }
