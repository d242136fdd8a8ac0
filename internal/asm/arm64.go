package asm

import (
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
