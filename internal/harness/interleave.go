package harness

import (
	"fmt"
	"runtime"
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
// set up, warmed up and calibrated, then every round takes one sample of
// every candidate in RoundOrder, so all see the same machine. It returns
// one outcome per candidate; opts.Samples is the number of rounds.
func Interleave(ws []Workload, opts Options) []Outcome {
	outs := make([]Outcome, len(ws))
	for i, w := range ws {
		outs[i].Workload = w
	}
	runtime.GC()
	err := Pinned(opts.CPU, opts.Isolate, func() error {
		benches := make([]*bench, len(ws))
		for i, w := range ws {
			b, err := newBench(w, i, len(ws), opts)
			if err != nil {
				return fmt.Errorf("%s: %w", w.Name, err)
			}
			defer b.close()
			benches[i] = b
		}
		// Warm up and calibrate every candidate before the first round.
		for i, b := range benches {
			if b.warmup() || b.calibrate() {
				markInterrupted(outs)
				return nil
			}
			outs[i].Iters = b.iters
		}
		before := probe(opts)
	rounds:
		for r := range opts.Samples {
			for _, i := range RoundOrder(len(ws), r) {
				if Stopped(opts.Stop) {
					markInterrupted(outs)
					break rounds
				}
				b := benches[i]
				b.sampling = true
				b.progress("sampling", r)
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				s, err := b.sample()
				if err != nil {
					return fmt.Errorf("%s: %w", ws[i].Name, err)
				}
				runtime.ReadMemStats(&after)
				o := &outs[i]
				o.Samples = append(o.Samples, s)
				o.GCCycles += after.NumGC - before.NumGC
				b.collectIfLarge()
			}
		}
		after := probe(opts)
		for i, b := range benches {
			outs[i].Before, outs[i].After = before, after
			outs[i].ForcedGC = b.forcedGC
			if len(outs[i].Samples) > 0 {
				outs[i].AllocsPerOp, outs[i].BytesPerOp = b.measureAllocs()
			}
			if err := checkPin(outs[i].Samples, opts.CPU); err != nil {
				outs[i].Err = err
			}
		}
		return nil
	})
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
