package harness

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"
)

// RoundOrder is the order in which round r (0-based) samples k candidates
// when the rounds take the rows of a Williams design in turn. Every
// candidate takes every position equally often, and, what a rotation
// (ABC, BCA, CAB) does not give, follows every other candidate equally
// often: a rotation puts B after A in every round and A after B in none,
// so a candidate that warms the caches or the clock for the next one (a
// carry-over) helps one comparison every time and another never. For even
// k one Latin square of k rows does it, each ordered pair once; for odd k
// the square and its mirror, 2k rows, each ordered pair twice (DesignRows).
// Two candidates alternate ABBA (A B, B A, ...): the same design.
func RoundOrder(k, r int) []int {
	// The first row 0, 1, k-1, 2, k-2, ...; row i adds i to it (mod k).
	first := make([]int, k)
	for j, lo, hi := 1, 1, k-1; j < k; j++ {
		if j%2 == 1 {
			first[j], lo = lo, lo+1
		} else {
			first[j], hi = hi, hi-1
		}
	}
	i := r % max(DesignRows(k), 1)
	order := make([]int, k)
	for j := range order {
		order[j] = (first[j] + i) % k
	}
	if i >= k { // the mirror square of an odd k
		slices.Reverse(order)
	}
	return order
}

// DesignRows is the number of rows of the Williams design of k
// candidates: k for even k, 2k for odd.
func DesignRows(k int) int {
	if k%2 == 1 {
		return 2 * k
	}
	return k
}

// RoundOrders returns the order of each round of an interleaved run of k
// candidates. With seed 0 the rounds take the design's rows in turn
// (RoundOrder); otherwise each round draws its row at random, from seed,
// independently of the others, so that every position and every
// carry-over is balanced on average and nothing periodic can line up with
// the order.
//
// Why at random: samples calibrated to one length make the fixed order
// periodic in time (ABBA repeats every four samples), and a disturbance
// that repeats at a period near it (a neighbour's timer, the host's
// scheduler) then slows the same candidate round after round. Simulated
// (TestRandomRoundsBreakAPeriodicDisturbance: 400 runs of 101 rounds of
// 10 ms samples, a disturbance slowing a quarter of every period): at a
// period of 45 ms the fixed order claimed identical code in 377 runs and
// a real +1% as faster in 141; random rows in 14 and 2, within the sign
// test's 5%. Over periods from 35 to 60 ms: 22 and 9 against 3 and 0.
// The rows are drawn one by one rather than shuffled in blocks: a block
// (ABBA or BAAB) puts one candidate's two samples side by side, and a
// disturbance spanning both moves two rounds the same way (29 claims at
// 45 ms).
func RoundOrders(k int, seed uint64) func(r int) []int {
	if seed == 0 {
		return func(r int) []int { return RoundOrder(k, r) }
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rows := DesignRows(k)
	return func(int) []int { return RoundOrder(k, rng.IntN(rows)) }
}

// NewRoundSeed is a seed for RoundOrders drawn for one run, recorded with
// its result so that the order of its rounds can be told: never 0, and
// below 2^53, so that a JSON reader that holds numbers as float64 (jq,
// JavaScript) keeps it exactly.
func NewRoundSeed() uint64 {
	return rand.Uint64()>>11 | 1
}

// Interleave measures candidates in rounds on one pinned thread: each is
// opened, warmed up and calibrated, then every round takes one sample of
// every candidate in RoundOrder, so all see the same machine. It returns
// one outcome per candidate; opts.Samples is the number of rounds.
func Interleave(ts []Target, opts Options) []Outcome {
	outs := make([]Outcome, len(ts))
	for i, t := range ts {
		outs[i].Name = t.Name()
	}
	runtime.GC()
	err := OnThread(opts, func() error {
		ms := make([]*measured, 0, len(ts))
		completed := false // see runOne
		defer func() {
			for i, m := range ms {
				outs[i].Totals = m.t.Close(ending(completed, opts.Stop))
			}
		}()
		for i, t := range ts {
			if err := t.Open(); err != nil {
				return fmt.Errorf("%s: %w", t.Name(), err)
			}
			ms = append(ms, &measured{t: t, opts: opts, index: i, total: len(ts)})
		}
		// Warm up and calibrate every candidate before the first round.
		for i, m := range ms {
			stopped, err := m.warmup()
			if err == nil && !stopped {
				stopped, err = m.calibrate()
			}
			if err != nil {
				return fmt.Errorf("%s: %w", m.t.Name(), err)
			}
			if stopped {
				markInterrupted(outs)
				return nil
			}
			outs[i].Iters = m.iters
		}
		check := opts.speedCheck()
		before := probe(opts)
		spent := make([]time.Duration, len(ms))
		ci := make([]precision, len(ms))
		began := time.Now() // MaxTime bounds the rounds of all of them
		look := 0           // the next look of moreRounds
		stop := ""          // why sequentialMore ended the rounds early
		order := RoundOrders(len(ms), opts.RoundSeed)
		more := func() bool {
			elapsed := time.Since(began)
			if len(opts.Looks) > 0 && len(ms) >= 2 {
				return opts.sequentialMore(outs, &stop)
			}
			if opts.TargetCI > 0 && len(ms) >= 2 {
				return opts.moreRounds(outs, spent, elapsed, &look)
			}
			// Rounds give every candidate the same count, so MinTime is
			// judged on the slowest: on the fastest, it would take the
			// slowest along for as many rounds as the fastest needs
			// (exec of gzip against xz: 409 rounds, 31 s).
			slowest := slices.Max(spent)
			for i := range spent {
				if opts.more(outs[i].Samples, slowest, elapsed, &ci[i]) {
					return true
				}
			}
			return false
		}
	rounds:
		for r := 0; more(); r++ {
			for _, i := range order(r) {
				if Stopped(opts.Stop) {
					markInterrupted(outs)
					break rounds
				}
				m := ms[i]
				m.progress("sampling", r)
				batch, err := m.t.Sample(m.iters)
				if err != nil {
					return fmt.Errorf("%s: %w", m.t.Name(), err)
				}
				check.mark(batch)
				outs[i].Samples = append(outs[i].Samples, batch...)
				for _, s := range batch {
					spent[i] += time.Duration(s.Ns)
				}
				m.t.Between()
			}
		}
		after := probe(opts)
		completed = true
		for i := range outs {
			outs[i].Before, outs[i].After = before, after
			outs[i].Stop = stop
			if err := checkPin(outs[i].Samples, opts); err != nil {
				outs[i].Err = err
			}
		}
		return nil
	})
	if errors.Is(err, ErrStopped) {
		markInterrupted(outs)
		err = nil
	}
	if err != nil {
		for i := range outs {
			if outs[i].Err == nil {
				outs[i].Err = err
			}
		}
	}
	return outs
}

func markInterrupted(outs []Outcome) {
	for i := range outs {
		outs[i].Interrupted = true
	}
}
