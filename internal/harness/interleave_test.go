//go:build linux

package harness_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/fake"
)

func TestRoundOrder(t *testing.T) {
	var two [][]int
	for r := range 4 {
		two = append(two, harness.RoundOrder(2, r))
	}
	if want := [][]int{{0, 1}, {1, 0}, {0, 1}, {1, 0}}; !reflect.DeepEqual(two, want) {
		t.Errorf("two candidates: %v, want ABBA %v", two, want)
	}
	var three [][]int
	for r := range 4 {
		three = append(three, harness.RoundOrder(3, r))
	}
	if want := [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}; !reflect.DeepEqual(three, want) {
		t.Errorf("three candidates: %v, want a Williams design %v", three, want)
	}
	// Every candidate takes every position equally often over k rounds.
	for k := 1; k <= 5; k++ {
		count := make([][]int, k)
		for i := range count {
			count[i] = make([]int, k)
		}
		for r := range k * 2 {
			for pos, c := range harness.RoundOrder(k, r) {
				count[c][pos]++
			}
		}
		for c := range count {
			for pos := range count[c] {
				if count[c][pos] != 2 {
					t.Errorf("k=%d: candidate %d at position %d %d times in %d rounds, want 2", k, c, pos, count[c][pos], 2*k)
				}
			}
		}
	}
}

// Every candidate follows every other equally often over the design's
// rows (k for even k, 2k for odd), and every round is a permutation: the
// first-order carry-over of one sample into the next is balanced. A
// rotation fails this for k >= 3 (B follows A k-1 times, A follows B 0).
func TestRoundOrderBalancesCarryOver(t *testing.T) {
	for k := 2; k <= 7; k++ {
		rows := k
		if k%2 == 1 {
			rows = 2 * k
		}
		follows := map[[2]int]int{}
		for r := range 3 * rows {
			order := harness.RoundOrder(k, r)
			if seen := slices.Sorted(slices.Values(order)); !slices.Equal(seen, seq(k)) {
				t.Fatalf("k=%d round %d: %v is not a permutation", k, r, order)
			}
			for j := 1; j < k; j++ {
				follows[[2]int{order[j-1], order[j]}]++
			}
		}
		want := 3 * rows * (k - 1) / (k * (k - 1))
		for a := range k {
			for b := range k {
				if a != b && follows[[2]int{a, b}] != want {
					t.Errorf("k=%d: %d right after %d %d times in %d rounds, want %d", k, b, a, follows[[2]int{a, b}], 3*rows, want)
				}
			}
		}
	}
}

func seq(k int) []int {
	s := make([]int, k)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestInterleaveSamplesEveryCandidateEveryRound(t *testing.T) {
	var log []string
	a, b := fake.New("a", 1), fake.New("b", 1)
	a.Log, b.Log = &log, &log
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 4
	outs := harness.Interleave(context.Background(), []harness.Target{a, b}, opts)
	for _, o := range outs {
		if o.Err != nil || len(o.Samples) != 4 {
			t.Fatalf("%s: err %v, %d samples; want 4", o.Name, o.Err, len(o.Samples))
		}
	}
	var samples []string
	for _, entry := range log {
		if entry == "a: sample 10" || entry == "b: sample 10" {
			samples = append(samples, entry[:1])
		}
	}
	if want := []string{"a", "b", "b", "a", "a", "b", "b", "a"}; !slices.Equal(samples, want) {
		t.Errorf("sample order %v, want ABBA %v", samples, want)
	}
	// Both are opened before the first sample and closed after the last,
	// the last opened first (each undoes what its Open did).
	if log[0] != "a: open" || log[1] != "b: open" || log[len(log)-2] != "b: close completed" || log[len(log)-1] != "a: close completed" {
		t.Errorf("opened %q, %q; closed %q, %q: want a and b opened first, b and a closed last", log[0], log[1], log[len(log)-2], log[len(log)-1])
	}
}

func TestInterleaveStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 1000
	opts.Progress = func(p harness.Progress) {
		if p.Phase == "sampling" && p.Sample == 2 {
			cancel()
		}
	}
	a, b := fake.New("a", 1), fake.New("b", 1)
	outs := harness.Interleave(ctx, []harness.Target{a, b}, opts)
	for _, o := range outs {
		if !o.Interrupted || len(o.Samples) == 0 || len(o.Samples) > 3 {
			t.Errorf("%s: interrupted %v, %d samples; want stopped after round 3", o.Name, o.Interrupted, len(o.Samples))
		}
	}
	for _, ft := range []*fake.Target{a, b} {
		if last := ft.Calls[len(ft.Calls)-1]; last != "close stopped" {
			t.Errorf("%s closed with %q, want close stopped", ft.ID, last)
		}
	}
}

// With --target-ci, candidates in rounds stop on their ratio's interval,
// judged only when the rounds double: a target the first look meets stops
// there; one no look can meet runs until --max-time, and ends on a look
// or on the time.
func TestInterleaveTargetCIAimsAtTheRatio(t *testing.T) {
	run := func(target float64, maxTime time.Duration) int {
		a, b := fake.New("a", time.Microsecond), fake.New("b", time.Microsecond)
		a.Noise, b.Noise = 0.05, 0.02 // unlike: equal patterns would cancel in every ratio
		opts := quickOptions(0)
		opts.Iters = 10
		opts.Samples = 8
		opts.TargetCI, opts.MaxTime = target, maxTime
		outs := harness.Interleave(context.Background(), []harness.Target{a, b}, opts)
		if outs[0].Err != nil || len(outs[0].Samples) != len(outs[1].Samples) {
			t.Fatalf("err %v, %d and %d rounds", outs[0].Err, len(outs[0].Samples), len(outs[1].Samples))
		}
		return len(outs[0].Samples)
	}
	if n := run(0.5, time.Minute); n != 8 {
		t.Errorf("a ±50%% target: %d rounds, want the first look's 8", n)
	}
	if n := run(1e-9, 50*time.Millisecond); n < 16 {
		t.Errorf("an unreachable target: %d rounds, want sampling past the first look until --max-time", n)
	}
}

// Rounds with looks end at the first look Decided accepts, and say so;
// Decided is asked at the looks only; a deadline that has passed ends
// them once MinRounds are taken; without either they take Samples.
func TestInterleaveLooks(t *testing.T) {
	run := func(decideAt int, deadline time.Time) ([]harness.Outcome, []int) {
		a, b := fake.New("a", time.Microsecond), fake.New("b", time.Microsecond)
		opts := quickOptions(0)
		opts.Iters = 10
		opts.Samples = 30
		opts.Looks = []int{10, 20, 30}
		opts.MinRounds = 5
		opts.Deadline = deadline
		var asked []int
		opts.Decided = func(outs []harness.Outcome) bool {
			asked = append(asked, len(outs[0].Samples))
			return len(outs[0].Samples) == decideAt
		}
		return harness.Interleave(context.Background(), []harness.Target{a, b}, opts), asked
	}
	outs, asked := run(20, time.Time{})
	if n := len(outs[0].Samples); n != 20 || outs[0].Stop != result.StopDecided || !slices.Equal(asked, []int{10, 20}) {
		t.Errorf("decided at 20: %d rounds, stop %q, asked at %v; want 20, %q, [10 20]", n, outs[0].Stop, asked, result.StopDecided)
	}
	outs, _ = run(-1, time.Time{})
	if n := len(outs[0].Samples); n != 30 || outs[0].Stop != "" {
		t.Errorf("never decided: %d rounds, stop %q; want all 30 and no stop", n, outs[0].Stop)
	}
	outs, _ = run(-1, time.Now().Add(-time.Second))
	if n := len(outs[0].Samples); n != 5 || outs[0].Stop != result.StopBudget || len(outs[1].Samples) != 5 {
		t.Errorf("deadline passed: %d and %d rounds, stop %q; want MinRounds (5) each and %q", n, len(outs[1].Samples), outs[0].Stop, result.StopBudget)
	}
}

// With a seed, every round is a row of the design, drawn at random: the
// same seed gives the same rounds, and over many rounds each candidate
// goes first about as often as the other, with no period.
func TestRoundOrdersAtRandom(t *testing.T) {
	if got := harness.RoundOrders(2, 0)(3); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("seed 0, round 3: %v, want the design's row in turn [1 0]", got)
	}
	for _, k := range []int{2, 3, 4} {
		a, b := harness.RoundOrders(k, 7), harness.RoundOrders(k, 7)
		rows := map[string]bool{}
		for r := range harness.DesignRows(k) {
			rows[fmt.Sprint(harness.RoundOrder(k, r))] = true
		}
		first := make([]int, k)
		for r := range 2000 {
			order := a(r)
			if other := b(r); !slices.Equal(order, other) {
				t.Fatalf("k=%d round %d: %v and %v from one seed", k, r, order, other)
			}
			if !rows[fmt.Sprint(order)] {
				t.Fatalf("k=%d round %d: %v is not a row of the design", k, r, order)
			}
			first[order[0]]++
		}
		for c, n := range first {
			if want := 2000 / k; n < want*8/10 || n > want*12/10 {
				t.Errorf("k=%d: candidate %d first in %d of 2000 rounds, want about %d", k, c, n, want)
			}
		}
	}
	fixed, random := harness.RoundOrders(2, 0), harness.RoundOrders(2, 11)
	same := 0
	for r := range 400 {
		if slices.Equal(fixed(r), random(r)) {
			same++
		}
	}
	if same < 150 || same > 250 {
		t.Errorf("random rows matched the fixed ABBA order in %d of 400 rounds, want about half", same)
	}
}

// A run's seed is never 0 (no seed: the fixed order) and survives a JSON
// reader that holds numbers as float64.
func TestNewRoundSeed(t *testing.T) {
	for range 1000 {
		s := harness.NewRoundSeed()
		if s == 0 || uint64(float64(s)) != s {
			t.Fatalf("seed %d: want non-zero and exact as a float64", s)
		}
	}
}

// stoppedAt is a fake target whose sample number at (1-based) reports
// that a stop request ended it, as a child process killed at Ctrl-C does.
type stoppedAt struct {
	*fake.Target
	at, n int
}

func (s *stoppedAt) Sample(iters int64) ([]result.Sample, error) {
	if s.n++; s.n == s.at {
		return nil, fmt.Errorf("killed: %w", context.Canceled)
	}
	return s.Target.Sample(iters)
}

// elsewhere is a fake target whose samples say they ended on another CPU.
type elsewhere struct{ *fake.Target }

func (e elsewhere) Sample(iters int64) ([]result.Sample, error) {
	s, err := e.Target.Sample(iters)
	for i := range s {
		s[i].CPU = -2
	}
	return s, err
}

// What goes wrong with one candidate of an interleaved run ends the run
// for all: every outcome carries the error (named by the candidate), the
// samples taken so far are kept, and every candidate opened is closed,
// told whether its samples completed. A stop request is an interruption,
// not an error.
func TestInterleaveFailures(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(a, b *fake.Target, opts *harness.Options) []harness.Target
		err     string // every outcome's error; "" for none
		samples []int  // of a and b
		closes  []string
		interr  bool
		// cancelled cancels the run's context before it begins.
		cancelled bool
	}{
		{
			name: "a candidate that cannot open",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				b.OpenErr = errors.New("no such program")
				return []harness.Target{a, b}
			},
			err:     "b: no such program",
			samples: []int{0, 0},
			closes:  []string{"close failed", "open"}, // b was never opened
		},
		{
			name: "a sample that fails",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				b.FailAt = 2 // rounds AB, BA: b fails first in round 2
				return []harness.Target{a, b}
			},
			err:     "b: fake failure",
			samples: []int{1, 1},
			closes:  []string{"close failed", "close failed"},
		},
		{
			name: "a sample that panics",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				a.PanicAt = 2
				return []harness.Target{a, b}
			},
			err:     "panicked: fake panic",
			samples: []int{1, 2},
			closes:  []string{"close failed", "close failed"},
		},
		{
			name: "a stop before the first round",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				return []harness.Target{a, b}
			},
			cancelled: true,
			samples:   []int{0, 0},
			closes:    []string{"close failed", "close failed"},
			interr:    true,
		},
		{
			name: "a sample ended by a stop request",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				return []harness.Target{a, &stoppedAt{Target: b, at: 2}}
			},
			samples: []int{1, 1},
			closes:  []string{"close failed", "close failed"},
			interr:  true,
		},
		{
			name: "a pin that did not hold",
			setup: func(a, b *fake.Target, _ *harness.Options) []harness.Target {
				return []harness.Target{a, elsewhere{b}}
			},
			samples: []int{4, 4},
			closes:  []string{"close completed", "close completed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := fake.New("a", 1), fake.New("b", 1)
			opts := quickOptions(0)
			opts.Iters = 10
			opts.Samples = 4
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			outs := harness.Interleave(ctx, tt.setup(a, b, &opts), opts)
			for i, o := range outs {
				ft := []*fake.Target{a, b}[i]
				if len(o.Samples) != tt.samples[i] || o.Interrupted != tt.interr {
					t.Errorf("%s: %d samples, interrupted %v; want %d, %v", o.Name, len(o.Samples), o.Interrupted, tt.samples[i], tt.interr)
				}
				if last := ft.Calls[len(ft.Calls)-1]; last != tt.closes[i] {
					t.Errorf("%s: last call %q, want %q", o.Name, last, tt.closes[i])
				}
				calls := 0 // the fake's totals count its calls of Sample
				for _, c := range ft.Calls {
					if strings.HasPrefix(c, "sample ") {
						calls++
					}
				}
				if tt.closes[i] != "open" && o.Totals.GCCycles != uint32(calls) {
					t.Errorf("%s: totals %+v do not reach the outcome", o.Name, o.Totals)
				}
			}
			if tt.name == "a pin that did not hold" {
				if outs[0].Err != nil || outs[1].Err == nil || !strings.Contains(outs[1].Err.Error(), "pin did not hold") {
					t.Errorf("errors %v, %v: want only b's pin", outs[0].Err, outs[1].Err)
				}
				return
			}
			for _, o := range outs {
				if got := fmt.Sprint(o.Err); tt.err == "" && o.Err != nil || tt.err != "" && got != tt.err {
					t.Errorf("%s: err %v, want %q", o.Name, o.Err, tt.err)
				}
			}
		})
	}
}
