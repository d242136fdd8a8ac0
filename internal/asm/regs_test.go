package asm

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// regNames lists the registers of s by name, in register order, for the
// messages and tables of TestRegs.
func regNames(arch string, s regSet) string {
	x86 := []string{"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI"}
	var names []string
	s.each(func(r int) {
		switch {
		case r == regStack:
			names = append(names, "stack")
		case r == regFlags:
			names = append(names, "flags")
		case arch == "amd64" && r < len(x86):
			names = append(names, x86[r])
		case arch == "amd64" && r < 16:
			names = append(names, fmt.Sprintf("R%d", r))
		case arch == "amd64":
			names = append(names, fmt.Sprintf("X%d", r-16))
		case r == 31:
			names = append(names, "SP")
		case r < 31:
			names = append(names, fmt.Sprintf("R%d", r))
		default:
			names = append(names, fmt.Sprintf("F%d", r-32))
		}
	})
	return strings.Join(names, " ")
}

// TestRegs checks what changing is told of each kind of instruction: the
// registers it reads and writes (with the ones the decoder does not name:
// a one-operand multiply's AX and DX, a string instruction's), whether it
// counts (adds a constant to a register into itself) and whether it always
// jumps.
func TestRegs(t *testing.T) {
	tests := []struct {
		arch, hex, text string
		uses, defs      string
		count, jump     bool
	}{
		// Branches and calls: nothing read but a register target.
		{"amd64", "ebfe", "JMP 0x1000", "", "", false, true},
		{"amd64", "7ffe", "JG 0x1000", "", "", false, false},
		{"amd64", "e800000000", "CALL 0x1005", "", "", false, false},
		{"amd64", "90", "NOPL", "", "", false, false},
		{"amd64", "0f1808", "PREFETCHT0 0(AX)", "", "", false, false},
		// Compares read every operand and write only the flags.
		{"amd64", "4839c1", "CMPQ CX, AX", "AX CX", "flags", false, false},
		{"amd64", "4885db", "TESTQ BX, BX", "BX", "flags", false, false},
		{"amd64", "480fa3ca", "BTQ CX, DX", "CX DX", "flags", false, false},
		{"amd64", "660f2ec1", "UCOMISD X1, X0", "X0 X1", "flags", false, false},
		// One-operand multiply and divide: AX and DX implied.
		{"amd64", "48f7e3", "MULQ BX", "AX DX BX", "AX DX flags", false, false},
		{"amd64", "48f7f9", "IDIVQ CX", "AX CX DX", "AX DX", false, false},
		// Sign extension into DX reads AX and writes DX, though the decoder
		// lists no operands.
		{"amd64", "4899", "CQO", "AX", "DX", false, false},
		{"amd64", "99", "CDQ", "AX", "DX", false, false},
		{"amd64", "6699", "CWD", "AX", "DX", false, false},
		// Sign extension within AX (Go's MOVLQSX AX, AX is CDQE) reads and
		// writes AX, with no operands listed either.
		{"amd64", "4898", "CDQE", "AX", "AX", false, false},
		{"amd64", "98", "CWDE", "AX", "AX", false, false},
		{"amd64", "6698", "CBW", "AX", "AX", false, false},
		// A string instruction: AX, CX, SI and DI both ways.
		{"amd64", "f348a5", "REP; MOVSQ DS:0(SI), ES:0(DI)", "AX CX SI DI", "AX CX SI DI", false, false},
		// Exchanges write every register operand (CMPXCHG's source too: a
		// write too many is the safe side); XADD and CMPXCHG also AX.
		{"amd64", "4887cb", "XCHGQ CX, BX", "CX BX", "CX BX", false, false},
		{"amd64", "480fc119", "XADDQ BX, 0(CX)", "AX CX BX", "AX BX flags", false, false},
		{"amd64", "480fb113", "CMPXCHGQ DX, 0(BX)", "AX DX BX", "AX DX flags", false, false},
		// Zeroing idioms read nothing.
		{"amd64", "31c9", "XORL CX, CX", "", "CX flags", false, false},
		{"amd64", "660fefd2", "PXOR X2, X2", "", "X2", false, false},
		{"amd64", "c5e5efdb", "VPXOR Y3, Y3, Y3", "", "X3", false, false},
		// Two operands: the source read, the destination written, and
		// read too unless the instruction writes it whole.
		{"amd64", "4801d3", "ADDQ DX, BX", "DX BX", "BX flags", false, false},
		{"amd64", "4889ca", "MOVQ CX, DX", "CX", "DX", false, false},
		{"amd64", "88ca", "MOVL CL, DL", "CX DX", "DX", false, false},
		{"amd64", "48894308", "MOVQ AX, 0x8(BX)", "AX BX", "", false, false},
		{"amd64", "488b442408", "MOVQ 0x8(SP), AX", "SP stack", "AX", false, false},
		{"amd64", "4889442408", "MOVQ AX, 0x8(SP)", "AX SP", "stack", false, false},
		{"amd64", "486bc203", "IMULQ $0x3, DX, AX", "DX", "AX flags", false, false},
		{"amd64", "f20f51c1", "SQRTSD X1, X0", "X0 X1", "X0", false, false},
		{"amd64", "c5ed58c1", "VADDPD Y1, Y2, Y0", "X1 X2", "X0", false, false},
		{"amd64", "c4e2edb8c1", "VFMADD231PD Y1, Y2, Y0", "X0 X1 X2", "X0", false, false},
		{"amd64", "f3480fb8c2", "POPCNTQ DX, AX", "DX", "AX flags", false, false},
		// Counting: a constant added to a register into itself.
		{"amd64", "48ffc1", "INCQ CX", "CX", "CX flags", true, false},
		{"amd64", "4883c308", "ADDQ $0x8, BX", "BX", "BX flags", true, false},
		{"amd64", "488d4008", "LEAQ 0x8(AX), AX", "AX", "AX", true, false},
		{"amd64", "488d5808", "LEAQ 0x8(AX), BX", "AX", "BX", false, false},
		// Instructions that read the flags.
		{"amd64", "0f94c0", "SETE AL", "AX flags", "AX", false, false},
		{"amd64", "480f4cc2", "CMOVL DX, AX", "AX DX flags", "AX", false, false},
		{"amd64", "4811d0", "ADCQ DX, AX", "AX DX flags", "AX flags", false, false},

		// arm64: branches read their register operands, and a conditional
		// one (B.cond) the flags.
		{"arm64", "00000014", "JMP 0(PC)", "", "", false, true},
		{"arm64", "01000054", "BNE 0(PC)", "flags", "", false, false},
		{"arm64", "0b000054", "BLT 0(PC)", "flags", "", false, false},
		{"arm64", "60001fd6", "JMP (R3)", "R3", "", false, true},
		{"arm64", "00000094", "CALL 0(PC)", "", "", false, false},
		{"arm64", "000000b4", "CBZ R0, 0(PC)", "R0", "", false, false},
		// Loads write their first register (two for a pair), read the
		// address, and write the base back where the mode says so.
		{"arm64", "208440f8", "MOVD.P 8(R1), R0", "R1", "R0 R1", false, false},
		{"arm64", "208c40f8", "MOVD.W 8(R1), R0", "R1", "R0 R1", false, false},
		{"arm64", "200440f9", "MOVD 8(R1), R0", "R1", "R0", false, false},
		{"arm64", "207862f8", "MOVD (R1)(R2<<3), R0", "R1 R2", "R0", false, false},
		{"arm64", "400440a9", "LDP (R2), (R0, R1)", "R2", "R0 R1", false, false},
		{"arm64", "e00740f9", "MOVD 8(RSP), R0", "SP stack", "R0", false, false},
		// Stores read every register; a store-exclusive writes its status.
		{"arm64", "e00700f9", "MOVD R0, 8(RSP)", "R0 SP", "stack", false, false},
		{"arm64", "200000f9", "MOVD R0, (R1)", "R0 R1", "", false, false},
		{"arm64", "400400a9", "STP (R0, R1), (R2)", "R0 R1 R2", "", false, false},
		{"arm64", "207c02c8", "STXR R0, (R1), R2", "R0 R1 R2", "R2", false, false},
		// Arithmetic: the first operand written, the others read.
		{"arm64", "1f0001eb", "CMP R1, R0", "R0 R1", "flags", false, false},
		{"arm64", "2000028b", "ADD R2, R1, R0", "R1 R2", "R0", false, false},
		{"arm64", "200c029b", "MADD R2, R3, R1, R0", "R1 R2 R3", "R0", false, false},
		{"arm64", "2000a0f2", "MOVK $(1<<16), R0", "R0", "R0", false, false},
		{"arm64", "00040091", "ADD $1, R0, R0", "R0", "R0", true, false},
		{"arm64", "20040091", "ADD $1, R1, R0", "R1", "R0", false, false},
		{"arm64", "000400f1", "SUBS $1, R0, R0", "R0", "R0 flags", true, false},
		{"arm64", "2000829a", "CSEL EQ, R1, R2, R0", "R1 R2 flags", "R0", false, false},
		{"arm64", "20c0611e", "FSQRTD F1, F0", "F1", "F0", false, false},
		{"arm64", "20cc624e", "VFMLA V2.D2, V1.D2, V0.D2", "F0 F1 F2", "F0", false, false},
		{"arm64", "e00301aa", "MOVD R1, R0", "R1", "R0", false, false},
		{"arm64", "e0031faa", "MOVD ZR, R0", "", "R0", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.arch+"/"+tt.hex, func(t *testing.T) {
			code, err := hex.DecodeString(tt.hex)
			if err != nil {
				t.Fatal(err)
			}
			in, err := newDecoders[tt.arch](symbolize)(code, 0x1000)
			if err != nil {
				t.Fatal(err)
			}
			if in.Text != tt.text {
				t.Errorf("text = %q, want %q", in.Text, tt.text)
			}
			if got := regNames(tt.arch, in.uses); got != tt.uses {
				t.Errorf("%s: uses %q, want %q", in.Text, got, tt.uses)
			}
			if got := regNames(tt.arch, in.defs); got != tt.defs {
				t.Errorf("%s: defs %q, want %q", in.Text, got, tt.defs)
			}
			if in.count != tt.count || in.jump != tt.jump {
				t.Errorf("%s: count %v jump %v, want %v %v", in.Text, in.count, in.jump, tt.count, tt.jump)
			}
		})
	}
}
