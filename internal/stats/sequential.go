package stats

import (
	"math"
)

// A comparison in interleaved rounds may stop before the rounds it planned:
// at a look fixed in advance, when the verdict is already clear, or when
// its time is up. Looking at an interval more than once and stopping when
// it looks good makes it cover less than it says, so each look gets its
// own share of alpha and the shares add up to alpha: the interval at a look
// is taken at the level 1 - share·alpha, and the p-value is divided by the
// share (a weighted Bonferroni rule over the looks), so that whatever look
// a run stops at, the chance that any of its intervals misses the true
// ratio is at most alpha, and the interval still excludes 1 exactly when
// the adjusted p-value is below alpha.
//
// The shares follow O'Brien and Fleming's spending function in Lan and
// DeMets' form, alpha(t) = 2 - 2·Phi(z/sqrt(t)) with z the two-sided
// normal quantile of alpha and t the share of the planned rounds taken:
// almost nothing early (0.8% of alpha at 31 of 101 rounds), most at the
// end (77%), so a change clear enough to be seen early stops the run, and
// a run that goes to the end loses little (the last interval is taken at
// 96.2% where a fixed design takes 95%). The shares are added, not
// combined exactly as group-sequential boundaries are (the looks are
// correlated, so the exact boundary would give the last look a little
// more): conservative, and valid for the sign test's discrete levels and
// any stopping rule.
//
// A run that ends for a reason the data do not give (its time budget ran
// out, it was interrupted, or it reached the planned end) spends at its
// last look all the earlier looks left: that look was not chosen for what
// it showed. One that stopped at a look because the verdict was clear
// takes that look's planned share.

// lookFractions are where the looks fall, as shares of the planned rounds
// after the first: 31, 61 and 101 of 101.
var lookFractions = []float64{0.3, 0.6, 1}

// MinLookRounds is the fewest rounds a plan with looks is made for: below
// it a comparison takes all its rounds and is judged once.
const MinLookRounds = 30

// Looks are the round counts at which a comparison planned for rounds
// rounds is looked at: 31, 61 and 101 for 101; none (one look at the end)
// below MinLookRounds.
func Looks(rounds int) []int {
	if rounds < MinLookRounds {
		return nil
	}
	looks := make([]int, len(lookFractions))
	for i, f := range lookFractions {
		looks[i] = 1 + int(math.Round(f*float64(rounds-1)))
	}
	return looks
}

// spent is the share of alpha spent by n of planned rounds: the O'Brien-
// Fleming-type function at t = n/planned, divided by DefaultAlpha; 1 from
// the planned rounds on.
func spent(n, planned int) float64 {
	if n >= planned {
		return 1
	}
	if n <= 0 {
		return 0
	}
	z := normalQuantile(1 - DefaultAlpha/2)
	t := float64(n) / float64(planned)
	return 2 * normalSurvival(z/math.Sqrt(t)) / DefaultAlpha
}

// LookShare is the share of alpha of the look at n rounds of a run
// planned with looks (Looks): the planned share of that look when the run
// stopped there because the verdict was clear (decided), otherwise all
// that the earlier looks left. Without looks it is 1: one look, all of
// alpha.
func LookShare(looks []int, n int, decided bool) float64 {
	if len(looks) == 0 {
		return 1
	}
	planned := looks[len(looks)-1]
	before := 0.0 // spent by the looks before n
	for _, l := range looks {
		if l < min(n, planned) {
			before = spent(l, planned)
		}
	}
	if decided {
		for _, l := range looks {
			if l == n {
				return spent(n, planned) - before
			}
		}
	}
	return 1 - before
}
