package asm

import (
	"sort"
	"strings"
)

// Loop is a range of code that a backward branch jumps to the start of.
type Loop struct {
	Head uint64 `json:"head"` // target of the backward branch(es)
	End  uint64 `json:"end"`  // first address after the last backward branch
	// Depth is 1 for an outermost loop; Inner is true when no other loop
	// lies inside this one: that is where an experiment spends its time.
	Depth int  `json:"depth"`
	Inner bool `json:"inner"`
	Body  Body `json:"body"`
}

// Body counts what one pass through a loop's instructions does.
type Body struct {
	Insts       int      `json:"insts"`
	Loads       int      `json:"loads"`      // memory loads, stack excluded
	LoadBytes   int      `json:"load_bytes"` // bytes those loads read
	Stores      int      `json:"stores"`     // memory stores, stack excluded
	StackLoads  int      `json:"stack_loads"`
	StackStores int      `json:"stack_stores"`
	Arith       int      `json:"arith"`
	Moves       int      `json:"moves,omitempty"` // register-to-register moves
	Kinds       []string `json:"kinds,omitempty"` // kinds of arithmetic, in order of first use
	Calls       []string `json:"calls,omitempty"` // functions called (or "indirect")
	// Changing counts the instructions of a loop that compute a value that
	// changes from one iteration to the next (from the counter, from a
	// value carried from the last iteration, from memory at an address that
	// moves), the counting itself aside: a loop without any does nothing
	// its first iteration did not, whatever its instructions are.
	Changing int `json:"changing"`
}

// findLoops finds the loops of f from its backward branches. Go lays out a
// loop as one range of code entered at its head, so a loop is the range
// from a branch target to the last branch back to it.
func findLoops(f *Func) []Loop {
	ends := map[uint64]uint64{}
	lastCall := ""
	for _, in := range f.Insts {
		if in.Call {
			lastCall = in.Callee
		}
		if in.Branch && in.Target != 0 && in.Target <= in.PC && in.Target >= f.Entry {
			// The jump back to the entry after growing the stack is
			// not a loop.
			if in.Target == f.Entry && strings.HasPrefix(lastCall, "runtime.morestack") {
				continue
			}
			ends[in.Target] = max(ends[in.Target], in.PC+uint64(in.Len))
		}
	}
	var loops []Loop
	for head, end := range ends {
		loops = append(loops, Loop{Head: head, End: end})
	}
	sort.Slice(loops, func(i, j int) bool {
		if loops[i].Head != loops[j].Head {
			return loops[i].Head < loops[j].Head
		}
		return loops[i].End > loops[j].End
	})
	for i := range loops {
		l := &loops[i]
		l.Depth, l.Inner = 1, true
		for j, o := range loops {
			if i == j {
				continue
			}
			if contains(o, *l) {
				l.Depth++
			}
			if contains(*l, o) {
				l.Inner = false
			}
		}
		l.Body = body(f, l.Head, l.End)
		l.Body.Changing = changing(f, l.Head, l.End)
	}
	return loops
}

// contains reports whether loop a strictly encloses loop b.
func contains(a, b Loop) bool {
	return a.Head <= b.Head && b.End <= a.End && (a.Head != b.Head || a.End != b.End)
}

// body counts the instructions of f in [from, to).
func body(f *Func, from, to uint64) Body {
	var b Body
	for _, in := range f.Insts {
		if in.PC < from || in.PC >= to {
			continue
		}
		b.Insts++
		if in.Load {
			b.Loads++
			b.LoadBytes += in.MemBytes
		}
		if in.Store {
			b.Stores++
		}
		if in.StackLoad {
			b.StackLoads++
		}
		if in.StackStore {
			b.StackStores++
		}
		if in.Move {
			b.Moves++
		}
		if in.Arith != "" {
			b.Arith++
			b.Kinds = appendNew(b.Kinds, in.Arith)
		}
		if in.Call && !boring(in.Callee) {
			name := in.Callee
			if in.Target == 0 {
				name = "indirect"
			}
			b.Calls = appendNew(b.Calls, name)
		}
	}
	return b
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// loopCallees lists the entries of functions called directly from inside a
// loop of f, in order, without the runtime's stack growth and panics, which
// are not the work.
func loopCallees(f *Func) []uint64 {
	var out []uint64
	seen := map[uint64]bool{f.Entry: true}
	for _, in := range f.Insts {
		if !in.Call || in.Target == 0 || seen[in.Target] || !inLoop(f, in.PC) || boring(in.Callee) {
			continue
		}
		seen[in.Target] = true
		out = append(out, in.Target)
	}
	return out
}

func inLoop(f *Func, pc uint64) bool {
	for _, l := range f.Loops {
		if l.Head <= pc && pc < l.End {
			return true
		}
	}
	return false
}

func boring(name string) bool {
	return strings.HasPrefix(name, "runtime.morestack") || strings.HasPrefix(name, "runtime.panic") ||
		name == "runtime.gcWriteBarrier" || strings.HasPrefix(name, "runtime.gcWriteBarrier")
}
