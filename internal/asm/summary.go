package asm

import (
	"fmt"
	"strings"
)

// Summary says what the measured loop of a listing does.
type Summary struct {
	// Func is the function whose loop Line describes: the inspected
	// function, or a function its innermost loop calls.
	Func string `json:"func"`
	// Loops is the number of loops in the inspected function.
	Loops int `json:"loops"`
	// Loop is the head of the loop Line describes (0 when there is none).
	Loop uint64 `json:"loop,omitempty"`
	Body Body   `json:"body"`
	// LoopLoads reports that the innermost loop of the inspected function
	// reads memory other than the stack, or calls a function (which may).
	// False for a loop that only counts: its input is not read.
	LoopLoads bool `json:"loop_loads"`
	// Line is the one-line meaning, e.g. "the loop at 0x4a21c0 loads 8
	// bytes per iteration and adds".
	Line string `json:"line"`
}

// Summary describes the innermost loop of the inspected function, following
// one call from it when the work happens in the callee.
func (l *Listing) Summary() Summary {
	s := Summary{Func: l.Func.Name, Loops: len(l.Func.Loops)}
	main, ok := hotLoop(l.Func.Loops)
	if !ok {
		s.Line = fmt.Sprintf("%s has no loop: the ops are not repeated in this function", ShortName(l.Func.Name))
		return s
	}
	s.Loop, s.Body = main.Head, main.Body
	s.LoopLoads = main.Body.Loads > 0 || len(main.Body.Calls) > 0
	s.Line = fmt.Sprintf("the loop at %#x %s", main.Head, main.Body.Describe("iteration"))
	for _, name := range main.Body.Calls {
		callee := l.callee(name)
		if callee == nil {
			continue
		}
		if inner, ok := hotLoop(callee.Loops); ok {
			s.Func, s.Loop, s.Body = callee.Name, inner.Head, inner.Body
			s.Line += fmt.Sprintf("; %s's loop at %#x %s", ShortName(callee.Name), inner.Head, inner.Body.Describe("iteration"))
		} else {
			b := body(callee, callee.Entry, callee.End)
			s.Line += fmt.Sprintf("; %s (no loop) %s", ShortName(callee.Name), b.Describe("call"))
		}
		break
	}
	return s
}

func (l *Listing) callee(name string) *Func {
	for i := range l.Callees {
		if l.Callees[i].Name == name {
			return &l.Callees[i]
		}
	}
	return nil
}

// hotLoop picks the loop an op spends its time in: the most deeply nested
// innermost loop, the first one if several are equally deep.
func hotLoop(loops []Loop) (Loop, bool) {
	var best Loop
	found := false
	for _, lp := range loops {
		if lp.Inner && (!found || lp.Depth > best.Depth) {
			best, found = lp, true
		}
	}
	return best, found
}

// Describe says in words what one pass through a loop body (per is
// "iteration") or one call of a function without a loop ("call") does.
func (b Body) Describe(per string) string {
	var parts []string
	if b.Loads > 0 {
		if b.LoadBytes > 0 {
			parts = append(parts, fmt.Sprintf("loads %d bytes per %s", b.LoadBytes, per))
		} else {
			parts = append(parts, fmt.Sprintf("loads memory %d times per %s", b.Loads, per))
		}
	}
	for _, k := range b.Kinds {
		parts = append(parts, verb(k))
	}
	if b.Stores > 0 {
		parts = append(parts, "stores")
	}
	if len(b.Calls) > 0 {
		names := make([]string, len(b.Calls))
		for i, c := range b.Calls {
			names[i] = ShortName(c)
		}
		parts = append(parts, "calls "+strings.Join(names, ", "))
	}
	if b.Moves > 0 && b.Loads == 0 {
		parts = append(parts, "moves values between registers")
	}
	if b.Loads == 0 && len(b.Calls) == 0 {
		// A loop that loads nothing either works in registers (an
		// iterative Fibonacci: adds by LEA, moves) or does nothing but
		// count, or stores one value over and over.
		switch {
		case b.Arith == 0 && b.Moves == 0 && b.Stores == 0 && b.Changing == 0:
			return "has no memory load: the input is not read (it only counts)"
		case b.Arith == 0 && b.Moves == 0 && b.Changing == 0:
			return "has no memory load: the input is not read; it stores a value computed before the loop (or while compiling)"
		}
		return "has no memory load; it " + join(parts)
	}
	return join(parts)
}

// verbs say what a loop does for each kind of arithmetic.
var verbs = map[string]string{
	"add": "adds", "subtract": "subtracts", "multiply": "multiplies", "divide": "divides",
	"shift": "shifts", "xor": "xors", "logic": "does bit logic",
	"fused multiply-add": "multiply-adds", "bit count": "counts bits",
	"square root": "takes square roots", "byte swap": "swaps bytes", "min/max": "takes minima or maxima",
	"convert": "converts", "round": "rounds",
}

func verb(kind string) string {
	if v, ok := verbs[kind]; ok {
		return v
	}
	return "does " + kind
}

// join writes "a", "a and b", "a, b and c".
func join(parts []string) string {
	switch len(parts) {
	case 0:
		return "does nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// ShortName drops the package path from a function name:
// "github.com/x/y/internal/workload.sumSinkLoop" -> "workload.sumSinkLoop".
// Slashes inside type arguments ("[...]") are kept.
func ShortName(name string) string {
	prefix, _, _ := strings.Cut(name, "[")
	return name[strings.LastIndex(prefix, "/")+1:]
}
