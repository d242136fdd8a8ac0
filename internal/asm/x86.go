package asm

import (
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

// decoder decodes one instruction at pc and classifies what it does.
type decoder func(code []byte, pc uint64) (Inst, error)

// symbolizer names the symbol that holds an address, and returns its
// start, so that the text of an instruction says "sink(SB)" rather than
// "0x1c83fd(IP)".
type symbolizer = func(addr uint64) (name string, base uint64)

// newDecoders make the decoder of an architecture for a symbolizer: the
// running program and a file look their names up in different places.
var newDecoders = map[string]func(symbolizer) decoder{
	"amd64": func(sym symbolizer) decoder {
		return func(code []byte, pc uint64) (Inst, error) { return decodeX86(code, pc, sym) }
	},
	"arm64": func(sym symbolizer) decoder {
		return func(code []byte, pc uint64) (Inst, error) { return decodeARM64(code, pc, sym) }
	},
}

func decodeX86(code []byte, pc uint64, sym symbolizer) (Inst, error) {
	xi, err := x86asm.Decode(code, 64)
	if err != nil {
		return Inst{}, err
	}
	in := Inst{
		Len:  xi.Len,
		Op:   xi.Op.String(),
		Text: x86asm.GoSyntax(xi, pc, sym),
	}
	switch xi.Op {
	case x86asm.CALL:
		in.Call = true
	case x86asm.JMP, x86asm.JA, x86asm.JAE, x86asm.JB, x86asm.JBE, x86asm.JCXZ, x86asm.JE,
		x86asm.JECXZ, x86asm.JG, x86asm.JGE, x86asm.JL, x86asm.JLE, x86asm.JNE, x86asm.JNO,
		x86asm.JNP, x86asm.JNS, x86asm.JO, x86asm.JP, x86asm.JRCXZ, x86asm.JS,
		x86asm.LOOP, x86asm.LOOPE, x86asm.LOOPNE:
		in.Branch = true
	}
	if rel, ok := xi.Args[0].(x86asm.Rel); ok && (in.Call || in.Branch) {
		in.Target = uint64(int64(pc) + int64(xi.Len) + int64(rel))
	}
	x86Memory(&in, xi)
	in.Arith = x86Arith(xi)
	in.Move = x86Move(xi)
	return in, nil
}

// x86Move reports a move of a value from one register to another (MOV,
// a conditional move, an exchange): in a loop without loads it carries
// values from one iteration to the next (a, b = b, a+b), which is work.
func x86Move(xi x86asm.Inst) bool {
	s := xi.Op.String()
	if !strings.HasPrefix(s, "MOV") && !strings.HasPrefix(s, "CMOV") && xi.Op != x86asm.XCHG {
		return false
	}
	a, okA := xi.Args[0].(x86asm.Reg)
	b, okB := xi.Args[1].(x86asm.Reg)
	return okA && okB && a != b
}

// x86Memory marks the memory accesses of an instruction. Arguments are in
// Intel order: the first is the destination.
func x86Memory(in *Inst, xi x86asm.Inst) {
	switch xi.Op {
	case x86asm.LEA, x86asm.NOP, x86asm.PREFETCHNTA, x86asm.PREFETCHT0,
		x86asm.PREFETCHT1, x86asm.PREFETCHT2, x86asm.PREFETCHW:
		return // an address computed, nothing read
	}
	for i, a := range xi.Args {
		m, ok := a.(x86asm.Mem)
		if !ok {
			continue
		}
		load, store := true, false
		if i == 0 {
			load, store = x86DestAccess(xi.Op)
		}
		stack := m.Base == x86asm.RSP || m.Base == x86asm.RBP
		in.MemBytes = xi.MemBytes
		if load {
			in.Load = in.Load || !stack
			in.StackLoad = in.StackLoad || stack
		}
		if store {
			in.Store = in.Store || !stack
			in.StackStore = in.StackStore || stack
		}
	}
}

// x86DestAccess says whether an instruction reads and writes a memory
// destination: MOV only writes it, CMP only reads it, ADD does both.
func x86DestAccess(op x86asm.Op) (load, store bool) {
	s := op.String()
	switch {
	case op == x86asm.CMP || op == x86asm.TEST || op == x86asm.BT || op == x86asm.PUSH ||
		op == x86asm.CALL || op == x86asm.JMP || strings.HasPrefix(s, "UCOMI") || strings.HasPrefix(s, "COMI"):
		return true, false
	case strings.HasPrefix(s, "MOV") || strings.HasPrefix(s, "VMOV") || strings.HasPrefix(s, "SET") ||
		op == x86asm.POP || strings.HasPrefix(s, "STOS"):
		return false, true
	}
	return true, true
}

// x86Arith names the arithmetic an instruction does, or "" for none. Loop
// counting (INC, DEC, adding or subtracting a constant, LEA of a register
// plus a constant) and zeroing a register with XOR are bookkeeping, not
// work.
func x86Arith(xi x86asm.Inst) string {
	s := xi.Op.String()
	_, imm := xi.Args[1].(x86asm.Imm)
	switch xi.Op {
	case x86asm.LEA:
		// LEA computes an address without reading it, and compilers use it
		// to add: base+index*scale is an add (and a shift); base plus a
		// constant is counting, like ADD with an immediate.
		if m, ok := xi.Args[1].(x86asm.Mem); ok && m.Index != 0 {
			return "add"
		}
		return ""
	case x86asm.ADD, x86asm.SUB:
		if imm {
			return ""
		}
	case x86asm.XOR, x86asm.PXOR, x86asm.XORPS, x86asm.XORPD:
		if xi.Args[0] != nil && xi.Args[0] == xi.Args[1] {
			return ""
		}
	}
	return arithKind(strings.TrimPrefix(s, "V"))
}

// arithKind maps a mnemonic (without an AVX "V" prefix) to a kind of
// arithmetic; the same names serve amd64 and arm64.
func arithKind(op string) string {
	for _, k := range arithKinds {
		for _, p := range k.prefixes {
			if strings.HasPrefix(op, p) {
				return k.kind
			}
		}
	}
	return ""
}

var arithKinds = []struct {
	kind     string
	prefixes []string
}{
	{"fused multiply-add", []string{"FMADD", "FMSUB", "FNMADD", "FNMSUB", "MADD", "MSUB"}},
	{"multiply", []string{"IMUL", "MUL", "PMUL", "SMULL", "UMULL", "SMULH", "UMULH", "FMUL"}},
	{"divide", []string{"IDIV", "DIV", "SDIV", "UDIV", "FDIV"}},
	{"add", []string{"ADD", "ADC", "PADD", "FADD", "ADDS"}},
	{"subtract", []string{"SUB", "SBB", "PSUB", "FSUB", "NEG"}},
	{"xor", []string{"XOR", "PXOR", "EOR"}},
	{"logic", []string{"AND", "OR", "NOT", "PAND", "POR", "ORR", "BIC", "MVN"}},
	{"shift", []string{"SHL", "SHR", "SAR", "ROL", "ROR", "RCL", "RCR", "LSL", "LSR", "ASR", "PSLL", "PSRL", "PSRA"}},
	{"bit count", []string{"POPCNT", "LZCNT", "TZCNT", "BSF", "BSR", "CLZ", "CNT", "RBIT"}},
}
