package asm

import "math/bits"

// This file finds what a loop computes anew each iteration: a value that
// depends on the loop's counter, on a value carried from the previous
// iteration, or on memory read at an address that moves. Such a value is
// work whatever its instructions are (integer, SSE and AVX, bit
// manipulation, atomics); a value computed from constants or from
// registers the loop never writes is the same every iteration, and a loop
// that only stores such values, or only counts, does nothing after its
// first iteration.

// regSet is a set of registers, numbered per architecture (x86Reg,
// arm64Reg) up to 125, plus the stack and the flags. It is a value, so an
// Inst stays comparable.
type regSet [2]uint64

const (
	regStack = 126 // the goroutine's stack, as one location
	regFlags = 127 // the condition flags
)

func (s *regSet) add(r int)            { s[r/64] |= 1 << (r % 64) }
func (s regSet) empty() bool           { return s[0]|s[1] == 0 }
func (s regSet) union(o regSet) regSet { return regSet{s[0] | o[0], s[1] | o[1]} }

// each calls f for every register of s.
func (s regSet) each(f func(r int)) {
	for w := range s {
		for m := s[w]; m != 0; m &= m - 1 {
			f(w*64 + bits.TrailingZeros64(m))
		}
	}
}

// changing counts the instructions of the loop [from, to) of f that
// compute a value that changes from one iteration to the next: a register,
// a stack slot or memory written from the loop's counter, from a value
// carried from the previous iteration, or from memory read at an address
// that changes. The counting itself (Inst.count: i++, p += 8) is not
// counted, nor are compares and branches, which write only the flags.
//
// It follows the definitions of each register through the loop's own
// branches (reaching definitions), then keeps as changing every definition
// that reads a changing one, starting from all that read a register at
// all: a definition that reads itself through the back edge (x = f(x),
// the counter) stays changing, one that reads only constants and values
// from before the loop does not. An indirect jump inside the loop makes
// every instruction count: where it goes is not known.
func changing(f *Func, from, to uint64) int {
	insts := loopInsts(f, from, to)
	succ, known := successors(insts)
	if !known {
		return writers(insts)
	}
	changes := changingDefs(insts, reachingDefs(insts, succ))
	count := 0
	for k, in := range insts {
		if changes[k] && !in.count && (in.Store || writesValue(in)) {
			count++
		}
	}
	return count
}

// loopInsts are the instructions of f in [from, to).
func loopInsts(f *Func, from, to uint64) []Inst {
	var insts []Inst
	for _, in := range f.Insts {
		if in.PC >= from && in.PC < to {
			insts = append(insts, in)
		}
	}
	return insts
}

// successors are the instructions that may follow each of insts inside
// the loop (indexes). known is false where a branch's target is not known
// (an indirect jump).
func successors(insts []Inst) (succ [][]int, known bool) {
	at := map[uint64]int{}
	for k, in := range insts {
		at[in.PC] = k
	}
	n := len(insts)
	succ = make([][]int, n)
	for k, in := range insts {
		if in.Branch {
			if in.Target == 0 {
				return nil, false
			}
			if t, ok := at[in.Target]; ok {
				succ[k] = append(succ[k], t)
			}
			if !in.jump && k+1 < n {
				succ[k] = append(succ[k], k+1)
			}
			continue
		}
		if k+1 < n {
			succ[k] = append(succ[k], k+1)
		}
	}
	return succ, true
}

// reachingDefs are the definitions that reach each instruction. Every
// instruction starts the walk: the code before the loop may jump into its
// middle (Go enters a loop at its condition), with values from before the
// loop only.
func reachingDefs(insts []Inst, succ [][]int) []defs {
	n := len(insts)
	reach := make([]defs, n)
	work := make([]int, n)
	for k := range reach {
		reach[k], work[k] = defs{}, n-1-k
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		out := reach[k].after(k, insts[k])
		for _, s := range succ[k] {
			if reach[s].merge(out) {
				work = append(work, s)
			}
		}
	}
	return reach
}

// changingDefs reports which instructions compute a changing value, as a
// greatest fixed point: starting from all that read a register at all, an
// instruction changes if it reads a definition (inside the loop) that
// changes.
func changingDefs(insts []Inst, reach []defs) []bool {
	changes := make([]bool, len(insts))
	for k, in := range insts {
		changes[k] = !in.uses.empty()
	}
	for again := true; again; {
		again = false
		for k, in := range insts {
			if !changes[k] {
				continue
			}
			c := false
			in.uses.each(func(r int) {
				for _, d := range reach[k][r] {
					c = c || changes[d]
				}
			})
			if !c {
				changes[k], again = false, true
			}
		}
	}
	return changes
}

// writesValue reports whether an instruction writes a register or the
// stack, not only the flags.
func writesValue(in Inst) bool {
	d := in.defs
	d[regFlags/64] &^= 1 << (regFlags % 64)
	return !d.empty()
}

// writers is changing's answer when the flow is not known: every
// instruction that writes a value or stores, the counting aside.
func writers(insts []Inst) int {
	n := 0
	for _, in := range insts {
		if !in.count && (in.Store || writesValue(in)) {
			n++
		}
	}
	return n
}

// defs maps a register to the definitions of it inside the loop that
// reach a point (indexes of the loop's instructions); a register that is
// absent has only the value it had before the loop, the same every
// iteration.
type defs map[int][]int

// after is d after instruction k: each register it writes is defined by
// k alone, except the stack, one location for many slots, which k adds to.
func (d defs) after(k int, in Inst) defs {
	out := make(defs, len(d)+2)
	for r, ds := range d {
		out[r] = ds
	}
	in.defs.each(func(r int) {
		if r == regStack {
			out[r] = addDef(d[r], k)
			return
		}
		out[r] = []int{k}
	})
	return out
}

// merge adds the definitions of o to d and reports whether d grew.
func (d defs) merge(o defs) bool {
	grew := false
	for r, ds := range o {
		for _, x := range ds {
			if n := addDef(d[r], x); len(n) != len(d[r]) {
				d[r], grew = n, true
			}
		}
	}
	return grew
}

// addDef adds x to the set ds (a short slice), copying it.
func addDef(ds []int, x int) []int {
	for _, y := range ds {
		if y == x {
			return ds
		}
	}
	return append(ds[:len(ds):len(ds)], x)
}
