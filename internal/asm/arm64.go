package asm

import (
	"strconv"
	"strings"

	"golang.org/x/arch/arm64/arm64asm"
)

// arm64 instructions are always 4 bytes.
const arm64InstLen = 4

func decodeARM64(code []byte, pc uint64, sym symbolizer) (Inst, error) {
	ai, err := arm64asm.Decode(code)
	if err != nil {
		return Inst{}, err
	}
	op := ai.Op.String()
	in := Inst{
		Len:  arm64InstLen,
		Op:   op,
		Text: arm64asm.GoSyntax(ai, pc, sym, nil),
	}
	switch ai.Op {
	case arm64asm.BL, arm64asm.BLR:
		in.Call = true
	case arm64asm.B, arm64asm.BR, arm64asm.CBZ, arm64asm.CBNZ, arm64asm.TBZ, arm64asm.TBNZ:
		in.Branch = true
	}
	for _, a := range ai.Args {
		if rel, ok := a.(arm64asm.PCRel); ok && (in.Call || in.Branch) {
			in.Target = uint64(int64(pc) + int64(rel))
		}
	}
	arm64Memory(&in, ai)
	in.Arith = arm64Arith(ai)
	in.Move = arm64Move(ai)
	arm64Regs(&in, ai)
	return in, nil
}

// arm64Move reports a move from one register to another (MOV, a
// conditional select): see x86Move.
func arm64Move(ai arm64asm.Inst) bool {
	switch ai.Op {
	case arm64asm.MOV, arm64asm.CSEL, arm64asm.FMOV:
	default:
		return false
	}
	a, okA := ai.Args[0].(arm64asm.Reg)
	b, okB := ai.Args[1].(arm64asm.Reg)
	return okA && okB && a != b
}

// arm64Memory marks loads and stores: on arm64 only load and store
// instructions touch memory, and their mnemonics say which.
func arm64Memory(in *Inst, ai arm64asm.Inst) {
	op := in.Op
	load := strings.HasPrefix(op, "LD")
	store := strings.HasPrefix(op, "ST")
	if !load && !store {
		return
	}
	stack := false
	for _, a := range ai.Args {
		switch m := a.(type) {
		case arm64asm.MemImmediate:
			stack = arm64asm.Reg(m.Base) == arm64asm.SP
		case arm64asm.MemExtend:
			stack = arm64asm.Reg(m.Base) == arm64asm.SP
		}
	}
	in.MemBytes = arm64MemBytes(op, ai.Args[0])
	if load {
		in.Load, in.StackLoad = !stack, stack
	}
	if store {
		in.Store, in.StackStore = !stack, stack
	}
}

// arm64MemBytes is the size of a load or store, from the mnemonic's size
// suffix or else the width of the first register; pairs move two.
func arm64MemBytes(op string, first arm64asm.Arg) int {
	n := 0
	switch {
	case strings.HasSuffix(op, "B"):
		n = 1
	case strings.HasSuffix(op, "H"):
		n = 2
	case strings.HasSuffix(op, "SW"):
		n = 4
	default:
		if r, ok := first.(arm64asm.Reg); ok {
			n = arm64RegBytes(r)
		}
	}
	if strings.HasPrefix(op, "LDP") || strings.HasPrefix(op, "STP") {
		n *= 2
	}
	return n
}

func arm64RegBytes(r arm64asm.Reg) int {
	switch {
	case r <= arm64asm.WZR:
		return 4
	case r <= arm64asm.XZR:
		return 8
	case r < arm64asm.H0:
		return 1
	case r < arm64asm.S0:
		return 2
	case r < arm64asm.D0:
		return 4
	case r < arm64asm.Q0:
		return 8
	default:
		return 16
	}
}

// arm64Arith names the arithmetic of an instruction. Adding or subtracting
// an immediate is loop counting, and SUBS/ADDS against the zero register
// are comparisons.
func arm64Arith(ai arm64asm.Inst) string {
	switch ai.Op {
	case arm64asm.ADD, arm64asm.SUB, arm64asm.ADDS, arm64asm.SUBS:
		for _, a := range ai.Args {
			if _, ok := a.(arm64asm.ImmShift); ok {
				return ""
			}
		}
	case arm64asm.CMP, arm64asm.CMN, arm64asm.TST:
		return ""
	case arm64asm.ORR:
		// ORR Rd, ZR, #imm is how the compiler loads a constant (MOVD
		// $12, Rd): a move, not bit logic.
		if len(ai.Args) > 1 {
			if r, ok := ai.Args[1].(arm64asm.Reg); ok && (r == arm64asm.XZR || r == arm64asm.WZR) {
				return ""
			}
		}
	}
	return arithKind(ai.Op.String())
}

// arm64Regs records the registers an instruction reads and writes, and
// whether it counts or always jumps, for changing. The decoder hides the
// register of a shifted or arranged operand, so registers are read from
// each operand's text. The destination is the first operand, written
// without being read, except where the instruction keeps part of it
// (MOVK, bit-field inserts, multiply-accumulate, the "2" forms); a store
// reads all its registers; a load writes its first one (two for a pair);
// an address that is written back writes its base.
func arm64Regs(in *Inst, ai arm64asm.Inst) {
	op := in.Op
	args := operands(ai.Args[:])
	if in.StackLoad {
		in.uses.add(regStack)
	}
	if in.StackStore {
		in.defs.add(regStack)
	}
	// A conditional branch (B.cond, BEQ in Go's syntax) reads the flags;
	// the decoder gives it B's op with the condition as an operand.
	condBranch := ai.Op == arm64asm.B && len(args) > 0 && isCond(args[0])
	if arm64ReadsFlags(op) || condBranch {
		in.uses.add(regFlags)
	}
	if arm64SetsFlags(op) {
		in.defs.add(regFlags)
	}
	for i, a := range args {
		switch m := a.(type) {
		case arm64asm.MemImmediate:
			in.uses = in.uses.union(arm64RegsOf(a))
			if m.Mode == arm64asm.AddrPreIndex || m.Mode == arm64asm.AddrPostIndex || m.Mode == arm64asm.AddrPostReg {
				in.defs = in.defs.union(arm64RegsOf(arm64asm.RegSP(m.Base)))
			}
		case arm64asm.MemExtend:
			in.uses = in.uses.union(arm64RegsOf(a))
		default:
			arm64RegOperand(in, i, arm64RegsOf(a))
		}
	}
	in.jump = ai.Op == arm64asm.B && !condBranch || ai.Op == arm64asm.BR
	in.count = arm64Counts(ai.Op, args)
}

// arm64RegsOf are the registers named in an operand's text.
func arm64RegsOf(a arm64asm.Arg) (rs regSet) {
	for _, f := range strings.FieldsFunc(a.String(), func(c rune) bool {
		return !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.')
	}) {
		if r, ok := arm64Reg(f); ok {
			rs.add(r)
		}
	}
	return rs
}

// arm64RegOperand records the registers rs of the i-th operand, which is
// not a memory address: read or written according to the kind of
// instruction and the operand's place.
func arm64RegOperand(in *Inst, i int, rs regSet) {
	op := in.Op
	switch {
	case in.Branch || in.Call:
		in.uses = in.uses.union(rs)
	case in.Load && in.Store || in.StackLoad && in.StackStore:
		in.uses = in.uses.union(rs) // atomics: every register both
		in.defs = in.defs.union(rs)
	case in.Store || in.StackStore:
		in.uses = in.uses.union(rs)
		if i == 0 && arm64StoreExclusive(op) {
			in.defs = in.defs.union(rs) // the status register
		}
	case in.Load || in.StackLoad:
		if arm64LoadWrites(op, i) {
			in.defs = in.defs.union(rs)
		} else {
			in.uses = in.uses.union(rs)
		}
	case i == 0 && !arm64Compares(op):
		in.defs = in.defs.union(rs)
		if arm64Keeps(op) {
			in.uses = in.uses.union(rs)
		}
	default:
		in.uses = in.uses.union(rs)
	}
}

// arm64StoreExclusive reports the store-exclusives, whose first operand
// is the status they write.
func arm64StoreExclusive(op string) bool {
	return strings.HasPrefix(op, "STX") || strings.HasPrefix(op, "STLX")
}

// arm64LoadWrites reports whether the i-th operand of a load is one it
// writes: the first, the second of a pair, any of a non-temporal pair.
func arm64LoadWrites(op string, i int) bool {
	return i == 0 || i == 1 && strings.HasPrefix(op, "LDP") || strings.HasPrefix(op, "LDNP")
}

// arm64Counts reports an addition or subtraction of an immediate to a
// register into the same register: how a loop counts.
func arm64Counts(op arm64asm.Op, args []arm64asm.Arg) bool {
	switch op {
	case arm64asm.ADD, arm64asm.SUB, arm64asm.ADDS, arm64asm.SUBS:
		_, imm := args[len(args)-1].(arm64asm.ImmShift)
		return imm && len(args) == 3 && arm64RegsOf(args[0]) == arm64RegsOf(args[1]) && !arm64RegsOf(args[0]).empty()
	}
	return false
}

func isCond(a arm64asm.Arg) bool {
	_, ok := a.(arm64asm.Cond)
	return ok
}

// arm64Reg numbers a register named in an operand's text, for changing:
// R0-R30 as 0-30 (W or X), SP as 31, the vector and floating-point
// registers (B, H, S, D, Q, V) as 32-63; the zero register is none.
func arm64Reg(name string) (int, bool) {
	name, _, _ = strings.Cut(name, ".") // V1.B16
	if name == "SP" || name == "WSP" {
		return 31, true
	}
	if len(name) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	if err != nil || n < 0 || n > 31 {
		return 0, false
	}
	switch name[0] {
	case 'W', 'X':
		return n, n < 31
	case 'B', 'H', 'S', 'D', 'Q', 'V':
		return 32 + n, true
	}
	return 0, false
}

// arm64Compares reports the instructions that only set the flags.
func arm64Compares(op string) bool {
	switch op {
	case "CMP", "CMN", "TST", "FCMP", "FCMPE", "CCMP", "CCMN", "FCCMP", "FCCMPE":
		return true
	}
	return false
}

// arm64SetsFlags reports the instructions that write the flags: the
// compares and the S forms of arithmetic.
func arm64SetsFlags(op string) bool {
	switch op {
	case "ADDS", "SUBS", "ANDS", "BICS", "ADCS", "SBCS", "NEGS", "NGCS":
		return true
	}
	return arm64Compares(op)
}

// arm64ReadsFlags reports the instructions that read the flags: the
// conditional selects and compares, and arithmetic with the carry.
func arm64ReadsFlags(op string) bool {
	switch op {
	case "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM", "CINC", "CINV", "CNEG", "FCSEL",
		"ADC", "ADCS", "SBC", "SBCS", "NGC", "NGCS", "CCMP", "CCMN", "FCCMP", "FCCMPE":
		return true
	}
	return false
}

// arm64Keeps reports the instructions that keep part of their
// destination, so read it: MOVK, the bit-field inserts, the accumulating
// multiplies and selects, element inserts, and the "2" forms that write
// the upper half of a vector.
func arm64Keeps(op string) bool {
	switch op {
	case "MOVK", "BFI", "BFXIL", "BFM", "BIF", "BIT", "BSL", "INS", "TBX", "FMLA", "FMLS", "MLA", "MLS":
		return true
	}
	return strings.HasSuffix(op, "2")
}
