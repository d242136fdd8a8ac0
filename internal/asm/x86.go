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

// operands are the arguments a decoder gives an instruction (a fixed
// array of them on both architectures), up to the first absent one.
func operands[A comparable](all []A) []A {
	var zero A
	for i, a := range all {
		if a == zero {
			return all[:i]
		}
	}
	return all
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
	x86Regs(&in, xi)
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
	{"square root", []string{"SQRT", "FSQRT"}},
	{"byte swap", []string{"BSWAP", "REV"}},
	{"min/max", []string{"MIN", "MAX", "PMIN", "PMAX", "FMIN", "FMAX", "SMIN", "SMAX", "UMIN", "UMAX"}},
	{"convert", []string{"CVT", "FCVT", "SCVTF", "UCVTF"}},
	{"round", []string{"ROUND", "FRINT"}},
}

// x86Regs records the registers an instruction reads and writes, and
// whether it counts or always jumps, for changing. Arguments are in Intel
// order (the destination first); the registers the decoder does not list
// (a one-operand multiply's RAX and RDX, a string instruction's) are
// added. Where in doubt a destination is taken as read too: a read too
// many can only make a value look changing, never hide work.
func x86Regs(in *Inst, xi x86asm.Inst) {
	args := operands(xi.Args[:])
	op, s := xi.Op, xi.Op.String()
	if in.StackLoad {
		in.uses.add(regStack)
	}
	if in.StackStore {
		in.defs.add(regStack)
	}
	if x86SetsFlags[op] {
		in.defs.add(regFlags)
	}
	if x86ReadsFlags(op, s) {
		in.uses.add(regFlags)
	}
	switch {
	// Before the case of no operands: the decoder lists none for these.
	case x86SignExtends(op):
		x86Use(in, x86asm.RAX)
		x86Def(in, x86asm.RDX)
	case x86WidensAX(op):
		x86Use(in, x86asm.RAX)
		x86Def(in, x86asm.RAX)
	case len(args) == 0 || in.Branch || in.Call || x86Hint(s):
		in.jump = op == x86asm.JMP
	case x86Compares(op, s):
		x86Use(in, args...)
	case len(args) == 1 && x86WideMulDiv(op):
		x86Use(in, args[0], x86asm.RAX, x86asm.RDX)
		x86Def(in, x86asm.RAX, x86asm.RDX)
	case x86StringOp(s):
		x86Use(in, x86asm.RAX, x86asm.RCX, x86asm.RSI, x86asm.RDI)
		x86Def(in, x86asm.RAX, x86asm.RCX, x86asm.RSI, x86asm.RDI)
	case x86Exchanges(op, s):
		x86Exchange(in, op, args)
	case x86Zeroes(op, args):
		if r, ok := args[0].(x86asm.Reg); ok {
			x86Def(in, r)
		}
	default:
		x86SourcesToDest(in, op, s, args)
	}
}

// x86Use records the registers the arguments read: a register itself, a
// memory operand's base and index.
func x86Use(in *Inst, args ...x86asm.Arg) {
	for _, a := range args {
		switch a := a.(type) {
		case x86asm.Reg:
			if r, _, ok := x86Reg(a); ok {
				in.uses.add(r)
			}
		case x86asm.Mem:
			for _, b := range []x86asm.Reg{a.Base, a.Index} {
				if r, _, ok := x86Reg(b); ok {
					in.uses.add(r)
				}
			}
		}
	}
}

// x86Def records registers the instruction writes.
func x86Def(in *Inst, regs ...x86asm.Reg) {
	for _, reg := range regs {
		if r, _, ok := x86Reg(reg); ok {
			in.defs.add(r)
		}
	}
}

// x86ReadsFlags reports the instructions that read the condition flags:
// SETcc, CMOVcc and the arithmetic and rotates through the carry.
func x86ReadsFlags(op x86asm.Op, s string) bool {
	switch op {
	case x86asm.ADC, x86asm.SBB, x86asm.RCL, x86asm.RCR:
		return true
	}
	return strings.HasPrefix(s, "SET") || strings.HasPrefix(s, "CMOV")
}

// x86Hint reports the instructions that compute no value from their
// operands: NOPs and prefetches.
func x86Hint(s string) bool {
	return strings.HasPrefix(s, "NOP") || strings.HasPrefix(s, "PREFETCH")
}

// x86Compares reports the instructions that read every operand and write
// only the flags.
func x86Compares(op x86asm.Op, s string) bool {
	switch op {
	case x86asm.CMP, x86asm.TEST, x86asm.BT, x86asm.PTEST:
		return true
	}
	return strings.HasPrefix(s, "UCOMIS") || strings.HasPrefix(s, "COMIS")
}

// x86WideMulDiv reports the multiplies and divides whose one-operand form
// reads and writes RAX and RDX.
func x86WideMulDiv(op x86asm.Op) bool {
	switch op {
	case x86asm.MUL, x86asm.IMUL, x86asm.DIV, x86asm.IDIV:
		return true
	}
	return false
}

// x86SignExtends reports the instructions that extend RAX's sign into
// RDX (CQO, CDQ, CWD: the setup of a signed divide), which the decoder
// gives no operands.
func x86SignExtends(op x86asm.Op) bool {
	return op == x86asm.CQO || op == x86asm.CDQ || op == x86asm.CWD
}

// x86WidensAX reports the instructions that extend the sign of AX's lower
// half into the whole of it (CBW, CWDE, CDQE: Go writes MOVLQSX AX, AX as
// CDQE), which the decoder gives no operands.
func x86WidensAX(op x86asm.Op) bool {
	return op == x86asm.CBW || op == x86asm.CWDE || op == x86asm.CDQE
}

// x86Exchanges reports XCHG, XADD and CMPXCHG, which write their source
// too.
func x86Exchanges(op x86asm.Op, s string) bool {
	return op == x86asm.XCHG || op == x86asm.XADD || strings.HasPrefix(s, "CMPXCHG")
}

// x86Exchange records XCHG, XADD and CMPXCHG: every operand read, every
// register operand written, and RAX both for all but XCHG.
func x86Exchange(in *Inst, op x86asm.Op, args []x86asm.Arg) {
	for _, a := range args {
		x86Use(in, a)
		if r, ok := a.(x86asm.Reg); ok {
			x86Def(in, r)
		}
	}
	if op != x86asm.XCHG {
		x86Use(in, x86asm.RAX)
		x86Def(in, x86asm.RAX)
	}
}

// x86SourcesToDest records the usual form: the sources read, the
// destination (the first argument) written, and read too where the
// instruction keeps part of it or reads it (a memory destination's
// address is read).
func x86SourcesToDest(in *Inst, op x86asm.Op, s string, args []x86asm.Arg) {
	x86Use(in, args[1:]...)
	switch dst := args[0].(type) {
	case x86asm.Mem:
		x86Use(in, dst)
	case x86asm.Reg:
		r, partial, ok := x86Reg(dst)
		if !ok {
			return
		}
		in.defs.add(r)
		if partial || !x86WriteOnly(s, args) {
			in.uses.add(r)
		}
		in.count = x86Counts(op, dst, args)
	}
}

// x86Counts reports whether an instruction adds a constant to a register
// into the same register: INC, DEC, ADD or SUB of an immediate, LEA of the
// register plus a displacement. That is how a loop counts.
func x86Counts(op x86asm.Op, dst x86asm.Reg, args []x86asm.Arg) bool {
	switch op {
	case x86asm.INC, x86asm.DEC:
		return true
	case x86asm.ADD, x86asm.SUB:
		_, imm := args[1].(x86asm.Imm)
		return imm
	case x86asm.LEA:
		m, ok := args[1].(x86asm.Mem)
		if !ok || m.Index != 0 {
			return false
		}
		a, _, okA := x86Reg(m.Base)
		b, _, okB := x86Reg(dst)
		return okA && okB && a == b
	}
	return false
}

// x86Zeroes reports the idioms that set a register to zero whatever it
// held: XOR, SUB and their vector forms of a register with itself.
func x86Zeroes(op x86asm.Op, args []x86asm.Arg) bool {
	switch op {
	case x86asm.XOR, x86asm.SUB, x86asm.PXOR, x86asm.XORPS, x86asm.XORPD:
		return len(args) == 2 && args[0] == args[1]
	case x86asm.VPXOR, x86asm.VXORPS, x86asm.VXORPD:
		return len(args) == 3 && args[1] == args[2]
	}
	return false
}

// x86WriteOnly reports an instruction whose destination register is
// written without being read: moves and loads of a whole register, LEA,
// conversions to an integer, bit counts, three-operand forms (AVX, BMI,
// IMUL with an immediate). Scalar SSE arithmetic keeps the upper part of
// its destination, so it reads it.
func x86WriteOnly(s string, args []x86asm.Arg) bool {
	switch s {
	case "MOV", "MOVZX", "MOVSX", "MOVSXD", "MOVQ", "MOVD", "MOVBE", "MOVAPS", "MOVAPD", "MOVUPS",
		"MOVUPD", "MOVDQA", "MOVDQU", "LDDQU", "LEA", "POPCNT", "LZCNT", "TZCNT", "BSF", "BSR",
		"PMOVMSKB", "MOVMSKPS", "MOVMSKPD", "PSHUFD", "PSHUFLW", "PSHUFHW",
		"CVTTSD2SI", "CVTSD2SI", "CVTTSS2SI", "CVTSS2SI",
		"ANDN", "SHLX", "SHRX", "SARX", "RORX", "PDEP", "PEXT", "BZHI", "BEXTR", "BLSI", "BLSR", "BLSMSK":
		return true
	case "MOVSD_XMM", "MOVSS":
		_, mem := args[1].(x86asm.Mem) // from memory the upper part is zeroed
		return mem
	case "IMUL":
		return len(args) == 3
	}
	if strings.HasPrefix(s, "V") {
		accumulates := strings.Contains(s, "FMADD") || strings.Contains(s, "FMSUB") || strings.Contains(s, "FNM") ||
			strings.Contains(s, "PERMI2") || strings.Contains(s, "PERMT2")
		return strings.HasPrefix(s, "VMOV") && len(args) == 2 || len(args) >= 3 && !accumulates
	}
	return false
}

// x86StringOp reports the string instructions, which read and write RSI,
// RDI, RCX and RAX without naming them.
func x86StringOp(s string) bool {
	for _, p := range []string{"MOVS", "STOS", "LODS", "SCAS", "CMPS"} {
		if strings.HasPrefix(s, p) && len(s) == len(p)+1 {
			return true // MOVSQ, not MOVSX or MOVSD_XMM
		}
	}
	return false
}

// x86SetsFlags are the instructions that write the condition flags, as
// far as a loop's flow needs them: a flag write missing here keeps an
// older one alive, which can only make a value look changing.
var x86SetsFlags = map[x86asm.Op]bool{
	x86asm.ADD: true, x86asm.ADC: true, x86asm.SUB: true, x86asm.SBB: true, x86asm.AND: true,
	x86asm.OR: true, x86asm.XOR: true, x86asm.NEG: true, x86asm.INC: true, x86asm.DEC: true,
	x86asm.CMP: true, x86asm.TEST: true, x86asm.SHL: true, x86asm.SHR: true, x86asm.SAR: true,
	x86asm.ROL: true, x86asm.ROR: true, x86asm.RCL: true, x86asm.RCR: true, x86asm.BT: true,
	x86asm.BTS: true, x86asm.BTR: true, x86asm.BTC: true, x86asm.IMUL: true, x86asm.MUL: true,
	x86asm.BSF: true, x86asm.BSR: true, x86asm.POPCNT: true, x86asm.LZCNT: true, x86asm.TZCNT: true,
	x86asm.UCOMISS: true, x86asm.UCOMISD: true, x86asm.COMISS: true, x86asm.COMISD: true,
	x86asm.XADD: true, x86asm.CMPXCHG: true, x86asm.PTEST: true, x86asm.SHLD: true, x86asm.SHRD: true,
}

// x86Reg numbers a register for changing: the general registers 0-15
// whatever their width (partial for 8 and 16 bits, which keep the rest of
// the register), the vector registers 16-47 whatever their width.
func x86Reg(r x86asm.Reg) (n int, partial, ok bool) {
	switch {
	case r >= x86asm.AL && r <= x86asm.BL:
		return int(r - x86asm.AL), true, true
	case r >= x86asm.AH && r <= x86asm.BH:
		return int(r - x86asm.AH), true, true
	case r >= x86asm.SPB && r <= x86asm.R15B:
		return int(r-x86asm.SPB) + 4, true, true
	case r >= x86asm.AX && r <= x86asm.R15W:
		return int(r - x86asm.AX), true, true
	case r >= x86asm.EAX && r <= x86asm.R15L:
		return int(r - x86asm.EAX), false, true
	case r >= x86asm.RAX && r <= x86asm.R15:
		return int(r - x86asm.RAX), false, true
	case r >= x86asm.X0 && r <= x86asm.X31:
		return 16 + int(r-x86asm.X0), false, true
	case r >= x86asm.Y0 && r <= x86asm.Y31:
		return 16 + int(r-x86asm.Y0), false, true
	case r >= x86asm.Z0 && r <= x86asm.Z31:
		return 16 + int(r-x86asm.Z0), false, true
	}
	return 0, false, false
}
