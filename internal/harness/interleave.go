package harness

import (
	"context"
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
// one outcome per candidate; opts.Samples is the number of rounds. A
// cancelled ctx ends the rounds after the current sample.
func Interleave(ctx context.Context, ts []Target, opts Options) []Outcome {
	outs := make([]Outcome, len(ts))
	for i, t := range ts {
		outs[i].Name = t.Name()
	}
	runtime.GC()
	err := OnThread(opts, func() error {
		r := &interleaved{opts: opts, done: ctx.Done(), outs: outs}
		completed := false // see runOne
		defer func() { r.close(completed) }()
		if err := r.open(ts); err != nil {
			return err
		}
		if stopped, err := r.prepare(); err != nil || stopped {
			return err
		}
		check := opts.speedCheck()
		before := probe(opts)
		if err := r.rounds(check); err != nil {
			return err
		}
		after := probe(opts)
		completed = true
		r.finish(before, after)
		return nil
	})
	if errors.Is(err, context.Canceled) {
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

// interleaved is an interleaved run on its pinned thread: the candidates
// opened so far and what their rounds have measured.
type interleaved struct {
	opts  Options
	done  <-chan struct{} // the run's ctx.Done(), closed at a stop
	outs  []Outcome
	ms    []*measured     // the candidates opened, in the order of outs
	spent []time.Duration // the time each candidate's samples took
	ci    []precision     // each candidate's interval, for opts.more
	began time.Time       // MaxTime bounds the rounds of all of them
	look  int             // the next look of moreRounds
	stop  string          // why sequentialMore ended the rounds early
}

// open opens every candidate, in order, and stops at the first that
// cannot be opened.
func (r *interleaved) open(ts []Target) error {
	r.ms = make([]*measured, 0, len(ts))
	for i, t := range ts {
		if err := t.Open(); err != nil {
			return fmt.Errorf("%s: %w", t.Name(), err)
		}
		r.ms = append(r.ms, &measured{t: t, opts: r.opts, done: r.done, index: i, total: len(ts)})
	}
	return nil
}

// close closes every candidate opened, telling it whether the samples
// completed, the last opened first: each puts back what its Open changed
// as it found it (the collector turned off), so they must be undone in
// reverse, or the first one's "off" is what the last puts back.
func (r *interleaved) close(completed bool) {
	for i := len(r.ms) - 1; i >= 0; i-- {
		r.outs[i].Totals = r.ms[i].t.Close(ending(completed, r.done))
	}
}

// prepare warms up and calibrates every candidate before the first round.
// A stop request marks every outcome interrupted.
func (r *interleaved) prepare() (stopped bool, err error) {
	for i, m := range r.ms {
		stopped, err := m.warmup()
		if err == nil && !stopped {
			stopped, err = m.calibrate()
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", m.t.Name(), err)
		}
		if stopped {
			markInterrupted(r.outs)
			return true, nil
		}
		r.outs[i].Iters = m.iters
	}
	return false, nil
}

// rounds samples every candidate once per round, in the round's order,
// while more says so. A stop request ends them between two samples and
// marks every outcome interrupted.
func (r *interleaved) rounds(check *speedCheck) error {
	r.spent = make([]time.Duration, len(r.ms))
	r.ci = make([]precision, len(r.ms))
	r.began = time.Now()
	order := RoundOrders(len(r.ms), r.opts.RoundSeed)
	for n := 0; r.more(); n++ {
		for _, i := range order(n) {
			if closed(r.done) {
				markInterrupted(r.outs)
				return nil
			}
			if err := r.sample(i, n, check); err != nil {
				return err
			}
		}
	}
	return nil
}

// sample takes one sample of candidate i in round n.
func (r *interleaved) sample(i, n int, check *speedCheck) error {
	m := r.ms[i]
	m.progress("sampling", n)
	batch, err := m.t.Sample(m.iters)
	if err != nil {
		return fmt.Errorf("%s: %w", m.t.Name(), err)
	}
	check.mark(batch)
	r.outs[i].Samples = append(r.outs[i].Samples, batch...)
	for _, s := range batch {
		r.spent[i] += time.Duration(s.Ns)
	}
	m.t.Between()
	return nil
}

// more reports whether another round is needed: by the looks of a
// sequential test, by the ratios' intervals (TargetCI), or else by the
// options' samples and times.
func (r *interleaved) more() bool {
	opts, outs := r.opts, r.outs
	elapsed := time.Since(r.began)
	if len(opts.Looks) > 0 && len(r.ms) >= 2 {
		return opts.sequentialMore(outs, &r.stop)
	}
	if opts.TargetCI > 0 && len(r.ms) >= 2 {
		return opts.moreRounds(outs, r.spent, elapsed, &r.look)
	}
	// Rounds give every candidate the same count, so MinTime is
	// judged on the slowest: on the fastest, it would take the
	// slowest along for as many rounds as the fastest needs
	// (exec of gzip against xz: 409 rounds, 31 s).
	slowest := slices.Max(r.spent)
	for i := range r.spent {
		if opts.more(outs[i].Samples, slowest, elapsed, &r.ci[i]) {
			return true
		}
	}
	return false
}

// finish records the probes around the rounds, why they stopped early,
// and whether the pin held, in every outcome.
func (r *interleaved) finish(before, after Probe) {
	for i := range r.outs {
		r.outs[i].Before, r.outs[i].After = before, after
		r.outs[i].Stop = r.stop
		if err := checkPin(r.outs[i].Samples, r.opts); err != nil {
			r.outs[i].Err = err
		}
	}
}

func markInterrupted(outs []Outcome) {
	for i := range outs {
		outs[i].Interrupted = true
	}
}
