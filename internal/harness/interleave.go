package harness

import (
	"errors"
	"fmt"
	"runtime"
	"time"
)

// RoundOrder is the order in which round r (0-based) samples k candidates.
// Two candidates alternate ABBA (A B, B A, A B, ...), so a slow drift of
// the machine is met by both equally often first and second. More
// candidates rotate (ABC, BCA, CAB, ...): each takes every position in turn.
func RoundOrder(k, r int) []int {
	order := make([]int, k)
	if k == 2 {
		if r%2 == 0 {
			order[0], order[1] = 0, 1
		} else {
			order[0], order[1] = 1, 0
		}
		return order
	}
	for i := range order {
		order[i] = (r + i) % k
	}
	return order
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
		before := probe(opts)
		spent := make([]time.Duration, len(ms))
		ci := make([]precision, len(ms))
		began := time.Now() // MaxTime bounds the rounds of all of them
		look := 0           // the next look of moreRounds
		stop := ""          // why sequentialMore ended the rounds early
		more := func() bool {
			elapsed := time.Since(began)
			if len(opts.Looks) > 0 && len(ms) >= 2 {
				return opts.sequentialMore(outs, elapsed, &stop)
			}
			if opts.TargetCI > 0 && len(ms) >= 2 {
				return opts.moreRounds(outs, spent, elapsed, &look)
			}
			for i, d := range spent {
				if opts.more(outs[i].Samples, d, elapsed, &ci[i]) {
					return true
				}
			}
			return false
		}
	rounds:
		for r := 0; more(); r++ {
			for _, i := range RoundOrder(len(ms), r) {
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
