package asm

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// loopAt decodes hand-made code at 0x1000 whose last instruction jumps
// back to the first, and returns its one loop.
func loopAt(t *testing.T, arch string, code string) Loop {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(code, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	f := decodeFrom(process{}, newDecoders[arch](symbolize), "test", 0x1000, b)
	if len(f.Loops) != 1 {
		t.Fatalf("%d loops in %s", len(f.Loops), code)
	}
	return f.Loops[0]
}

// jlBack is an amd64 JL from the end of n bytes of code back to its start.
func jlBack(n int) string { return fmt.Sprintf("7c%02x", byte(-(n + 2))) }

// A loop computes something only where a value changes from one iteration
// to the next: from the counter, or carried from the last iteration,
// whatever the instruction (the SQRTSD of math's SqrtLatency, the BSWAP of
// math/bits' ReverseBytes); the counting, a constant stored again and
// again, and arithmetic on constants change nothing.
func TestChanging(t *testing.T) {
	const (
		incCX      = "48ffc1"         // INCQ CX
		cmpBN      = "483b8810020000" // CMPQ CX, 0x210(AX): i < b.N
		cmpCXAX    = "4839c1"         // CMPQ CX, AX
		sqrtX0     = "f20f51c0"       // SQRTSD X0, X0
		movDX61    = "ba61000000"     // MOVL $0x61, DX
		movzxDLDX  = "0fb6d2"         // MOVZX DL, DX
		storeDX    = "48891500010000" // MOVQ DX, 0x100(IP)
		movCXDX    = "4889ca"         // MOVQ CX, DX
		bswapDX    = "480fca"         // BSWAPQ DX
		addDXBX    = "4801d3"         // ADDQ DX, BX
		imulDXDX   = "480fafd2"       // IMULQ DX, DX
		movBXDX    = "4889da"         // MOVQ BX, DX
		movSIBX    = "4889f3"         // MOVQ SI, BX
		movDXSI    = "4889d6"         // MOVQ DX, SI
		movDX1     = "ba01000000"     // MOVL $1, DX
		cmpCX5     = "4883f905"       // CMPQ CX, $5
		storeDXTo  = "48891500010000" // MOVQ DX, 0x100(IP)
		xorDXDX    = "31d2"           // XORL DX, DX
		addConstBX = "4883c303"       // ADDQ $3, BX
		jmpAX      = "ffe0"           // JMP AX
	)
	loop := func(insts ...string) string {
		code := strings.Join(insts, "")
		return code + jlBack(len(code)/2)
	}
	tests := []struct {
		name string
		code string
		want int
	}{
		{"only counts", loop(incCX, cmpBN), 0},
		{"x = Sqrt(x)", loop(incCX, sqrtX0, cmpBN), 1},
		{"a constant stored", loop(movDX61, movzxDLDX, storeDX, incCX, cmpCXAX), 0},
		{"s += ReverseBytes(i)", loop(movCXDX, bswapDX, addDXBX, incCX, cmpCXAX), 3},
		{"a constant squared", loop(movDX1, imulDXDX, incCX, cmpCXAX), 0},
		{"a zeroed register stored", loop(xorDXDX, storeDXTo, incCX, cmpCXAX), 0},
		{"a, b = b, a", loop(movBXDX, movSIBX, movDXSI, incCX, cmpCXAX), 3},
		// A value carried from the last iteration that only grows by a
		// constant is counting, as i++ is.
		{"s += 3", loop(addConstBX, incCX, cmpCXAX), 0},
		// DX is the counter on one path and a constant on the other: the
		// store after the join stores a changing value, though the
		// constant comes last in the code.
		{"a value from either branch", loop(incCX, cmpCX5, "7c05", movCXDX, "eb05", movDX1, storeDX, cmpCXAX), 2},
		// Where an indirect jump goes is not known: every instruction
		// that writes a value or stores counts, the counting aside.
		{"an indirect jump", loop(movDX61, storeDX, incCX, cmpCX5, "7c02", jmpAX, cmpCXAX), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := loopAt(t, "amd64", tt.code).Body.Changing; got != tt.want {
				t.Errorf("changing = %d, want %d", got, tt.want)
			}
		})
	}
}

// The same on arm64: a loop-carried FSQRTD is work, the counting alone is
// not.
func TestChangingARM64(t *testing.T) {
	const (
		add1  = "00040091" // ADD $1, R0, R0
		fsqrt = "00c0611e" // FSQRTD F0, F0
		cmp   = "1f0001eb" // CMP R1, R0
		blt3  = "abffff54" // BLT -3(PC)
		blt2  = "cbffff54" // BLT -2(PC)
	)
	if got := loopAt(t, "arm64", add1+fsqrt+cmp+blt3).Body; got.Changing != 1 || !slices.Contains(got.Kinds, "square root") {
		t.Errorf("x = Sqrt(x): %+v", got)
	}
	if got := loopAt(t, "arm64", add1+cmp+blt2).Body.Changing; got != 0 {
		t.Errorf("counting: changing = %d, want 0", got)
	}
}
