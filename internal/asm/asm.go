// Package asm shows the machine code of a function of the running program,
// so a person can check that the work they mean to measure is really in the
// measured loop. It finds the function in benchy's own executable from a
// function value, disassembles it (amd64 and arm64), marks the loops, and
// says in one line what the innermost loop does: whether it reads memory,
// which arithmetic it does, which functions it calls.
//
// It does the same for a function of an executable file that is not
// running, such as a test binary built by "go test -c", found by its
// symbol name (File.Inspect).
package asm

import (
	"fmt"
	"reflect"
	"runtime"
)

// Listing is the disassembly of one function and of the functions its loops
// call directly (one level deep).
type Listing struct {
	Arch string `json:"arch"`
	// Bounds says where the function's size came from: "elf symbols" or
	// "gopclntab" (stripped binaries).
	Bounds  string `json:"bounds"`
	Func    Func   `json:"func"`
	Callees []Func `json:"callees,omitempty"`
}

// Func is one disassembled function.
type Func struct {
	Name  string `json:"name"`
	Entry uint64 `json:"entry"`
	End   uint64 `json:"end"` // first address after the function
	File  string `json:"file,omitempty"`
	Line  int    `json:"line,omitempty"`
	Insts []Inst `json:"insts"`
	Loops []Loop `json:"loops,omitempty"`
}

// Inst is one decoded instruction and what it does to memory.
type Inst struct {
	PC   uint64 `json:"pc"`
	Len  int    `json:"len"`
	Text string `json:"text"` // Go assembler syntax
	Op   string `json:"op"`   // mnemonic as the decoder names it
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Load and Store are memory accesses other than the goroutine stack;
	// StackLoad and StackStore are spills, locals and saved registers.
	Load       bool `json:"load,omitempty"`
	Store      bool `json:"store,omitempty"`
	StackLoad  bool `json:"stack_load,omitempty"`
	StackStore bool `json:"stack_store,omitempty"`
	MemBytes   int  `json:"mem_bytes,omitempty"` // size of the memory operand
	// Arith names the kind of arithmetic ("add", "multiply", ...); loop
	// counting (increments, adding a constant) and register zeroing are not
	// counted.
	Arith string `json:"arith,omitempty"`
	// Move is a copy from one register to another.
	Move   bool `json:"move,omitempty"`
	Branch bool `json:"branch,omitempty"` // a jump, conditional or not
	Call   bool `json:"call,omitempty"`
	// Target is the destination of a direct branch or call (0 if indirect).
	Target uint64 `json:"target,omitempty"`
	// Callee names the function a direct call goes to.
	Callee string `json:"callee,omitempty"`

	// uses and defs are the registers the instruction reads (its address
	// registers included) and writes, with regStack and regFlags; count
	// marks a loop's counting (a register plus a constant into itself:
	// i++, p += 8); jump a branch that always jumps. changing reads them.
	uses, defs  regSet
	count, jump bool
}

// ErrUnsupportedArch is returned on architectures benchy cannot disassemble.
var ErrUnsupportedArch = fmt.Errorf("benchy asm supports amd64 and arm64, not %s", runtime.GOARCH)

// maxCallees bounds how many called functions a listing follows.
const maxCallees = 4

// Inspect disassembles the function fn (a func value of a top-level
// function) from the running executable, and the functions called directly
// from its loops.
func Inspect(fn any) (*Listing, error) {
	if _, ok := newDecoders[runtime.GOARCH]; !ok {
		return nil, ErrUnsupportedArch
	}
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("asm: %T is not a function", fn)
	}
	return inspect(process{}, runtime.GOARCH, uint64(v.Pointer()))
}

// inspect disassembles the function at entry and the functions called
// directly from its loops, with the code, bounds and names of src. Inspect
// and File.Inspect differ only in their src.
func inspect(src codeSource, arch string, entry uint64) (*Listing, error) {
	newDec, ok := newDecoders[arch]
	if !ok {
		return nil, ErrUnsupportedArch
	}
	dec := newDec(src.symbolize)
	f, how, err := disassemble(src, dec, entry)
	if err != nil {
		return nil, err
	}
	l := &Listing{Arch: arch, Bounds: how, Func: *f}
	for _, target := range loopCallees(f) {
		if len(l.Callees) == maxCallees {
			break
		}
		g, _, err := disassemble(src, dec, target)
		if err != nil {
			continue // a callee that cannot be read is left out, not fatal
		}
		l.Callees = append(l.Callees, *g)
	}
	return l, nil
}

// disassemble decodes the whole function that starts at entry.
func disassemble(src codeSource, dec decoder, entry uint64) (*Func, string, error) {
	name, end, how, err := src.function(entry)
	if err != nil {
		return nil, "", err
	}
	code, err := src.code(entry, end)
	if err != nil {
		return nil, "", err
	}
	f := decodeFrom(src, dec, name, entry, code)
	f.File, f.Line = src.fileLine(entry)
	return f, how, nil
}

// decodeFrom decodes the code of a function at entry: every instruction,
// its source line and the function a call goes to (from src), the loops.
// Bytes that do not decode are shown one at a time and decoding goes on.
func decodeFrom(src codeSource, dec decoder, name string, entry uint64, code []byte) *Func {
	f := &Func{Name: name, Entry: entry, End: entry + uint64(len(code))}
	for off := 0; off < len(code); {
		pc := entry + uint64(off)
		in, err := dec(code[off:], pc)
		if err != nil || in.Len <= 0 || in.Len > len(code)-off {
			in = Inst{Len: 1, Op: "?", Text: fmt.Sprintf("BYTE $%#02x", code[off])}
		}
		in.PC = pc
		in.File, in.Line = src.fileLine(pc)
		if in.Call && in.Target != 0 {
			in.Callee = src.funcName(in.Target)
		}
		f.Insts = append(f.Insts, in)
		off += in.Len
	}
	trimPadding(f, code)
	f.Loops = findLoops(f)
	return f
}

// trimPadding drops the filler after the last instruction (INT3 on amd64,
// zero words on arm64): .gopclntab bounds a function by the next one's
// entry, so they include it.
func trimPadding(f *Func, code []byte) {
	n := len(f.Insts)
	for n > 0 {
		in := f.Insts[n-1]
		raw := code[in.PC-f.Entry : in.PC-f.Entry+uint64(in.Len)]
		if !allBytes(raw, 0xcc) && !allBytes(raw, 0) {
			break
		}
		n--
	}
	if n < len(f.Insts) {
		f.Insts = f.Insts[:n]
		if n > 0 {
			last := f.Insts[n-1]
			f.End = last.PC + uint64(last.Len)
		}
	}
}

func allBytes(b []byte, v byte) bool {
	for _, c := range b {
		if c != v {
			return false
		}
	}
	return len(b) > 0
}
