package asm

import (
	"encoding/hex"
	"testing"
)

// TestDecode checks the classification of instructions the loops of Go
// programs are made of, on both architectures (the decoders are pure Go, so
// both run everywhere).
func TestDecode(t *testing.T) {
	tests := []struct {
		arch, hex, text string
		want            Inst
	}{
		{"amd64", "48033cf2", "ADDQ 0(DX)(SI*8), DI", Inst{Load: true, MemBytes: 8, Arith: "add"}},
		{"amd64", "48893c24", "MOVQ DI, 0(SP)", Inst{StackStore: true, MemBytes: 8}},
		{"amd64", "31c9", "XORL CX, CX", Inst{}},
		{"amd64", "48ffc1", "INCQ CX", Inst{}},
		{"amd64", "480fafda", "IMULQ DX, BX", Inst{Arith: "multiply"}},
		{"amd64", "4883c408", "ADDQ $0x8, SP", Inst{}},
		{"amd64", "488d5808", "LEAQ 0x8(AX), BX", Inst{}},
		{"amd64", "480103", "ADDQ AX, 0(BX)", Inst{Load: true, Store: true, MemBytes: 8, Arith: "add"}},
		{"amd64", "483b18", "CMPQ BX, 0(AX)", Inst{Load: true, MemBytes: 8}},
		{"amd64", "c5fdd400", "VPADDQ 0(AX), Y0, Y0", Inst{Load: true, MemBytes: 32, Arith: "add"}},
		{"amd64", "ebfe", "JMP 0x1000", Inst{Branch: true, Target: 0x1000}},
		{"amd64", "7ffe", "JG 0x1000", Inst{Branch: true, Target: 0x1000}},
		{"amd64", "e800000000", "CALL 0x1005", Inst{Call: true, Target: 0x1005}},
		{"arm64", "4100038b", "ADD R3, R2, R1", Inst{Arith: "add"}},
		{"arm64", "00040091", "ADD $1, R0, R0", Inst{}},
		{"arm64", "207c029b", "MUL R2, R1, R0", Inst{Arith: "multiply"}},
		{"arm64", "200040f9", "MOVD (R1), R0", Inst{Load: true, MemBytes: 8}},
		{"arm64", "e00700f9", "MOVD R0, 8(RSP)", Inst{StackStore: true, MemBytes: 8}},
		{"arm64", "0004c1ac", "FLDPQ.P 32(R0), (F0, F1)", Inst{Load: true, MemBytes: 32}},
		{"arm64", "e1ffff54", "BNE -1(PC)", Inst{Branch: true, Target: 0xffc}},
		{"arm64", "00000094", "", Inst{Call: true, Target: 0x1000}},
	}
	for _, tt := range tests {
		t.Run(tt.arch+"/"+tt.hex, func(t *testing.T) {
			code, _ := hex.DecodeString(tt.hex)
			got, err := newDecoders[tt.arch](symbolize)(code, 0x1000)
			if err != nil {
				t.Fatal(err)
			}
			if tt.text != "" && got.Text != tt.text {
				t.Errorf("text = %q, want %q", got.Text, tt.text)
			}
			if got.Len != len(code) {
				t.Errorf("len = %d, want %d", got.Len, len(code))
			}
			got.Text, got.Op, got.Len = "", "", 0
			got.uses, got.defs, got.count, got.jump = regSet{}, regSet{}, false, false // TestChanging
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// A hand-made function: two backward branches to one head (one loop), then
// INT3 padding.
//
//	0x1000 XORL CX, CX
//	0x1002 ADDQ 0(DX)(SI*8), DI   <- loop head
//	0x1006 INCQ SI
//	0x1009 JG 0x1002
//	0x100b INCQ CX
//	0x100e JG 0x1002
//	0x1010 RET
//	0x1011 INT3; INT3
const loopsHex = "31c9" + "48033cf2" + "48ffc6" + "7ff7" + "48ffc1" + "7ff2" + "c3" + "cc" + "cc"

func TestFindLoopsAndPadding(t *testing.T) {
	code, _ := hex.DecodeString(loopsHex)
	f := decodeFrom(process{}, newDecoders["amd64"](symbolize), "test", 0x1000, code)
	if f.End != 0x1011 || len(f.Insts) != 7 {
		t.Fatalf("padding not trimmed: end %#x, %d insts", f.End, len(f.Insts))
	}
	if len(f.Loops) != 1 {
		t.Fatalf("loops = %+v, want one (two back edges to one head)", f.Loops)
	}
	lp := f.Loops[0]
	if lp.Head != 0x1002 || lp.End != 0x1010 || !lp.Inner || lp.Body.Loads != 1 || lp.Body.Arith != 1 {
		t.Errorf("loop = %+v", lp)
	}
	l := &Listing{Arch: "amd64", Bounds: "test", Func: *f}
	if s := l.Summary(); s.Line != "the loop at 0x1002 loads 8 bytes per iteration and adds" || !s.LoopLoads {
		t.Errorf("summary = %+v", s)
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		b    Body
		want string
	}{
		{Body{}, "has no memory load: the input is not read (it only counts)"},
		{Body{Stores: 1}, "has no memory load: the input is not read; it stores a value computed before the loop (or while compiling)"},
		{Body{Arith: 2, Kinds: []string{"multiply", "xor"}}, "has no memory load; it multiplies and xors"},
		{Body{Arith: 1, Kinds: []string{"add"}, Moves: 2}, "has no memory load; it adds and moves values between registers"},
		{Body{Moves: 1}, "has no memory load; it moves values between registers"},
		{Body{Stores: 1, Changing: 2}, "has no memory load; it stores"},
		{Body{Loads: 1, LoadBytes: 8, Moves: 3, Arith: 1, Kinds: []string{"add"}}, "loads 8 bytes per iteration and adds"},
		{Body{Loads: 1, LoadBytes: 8, Arith: 1, Kinds: []string{"add"}}, "loads 8 bytes per iteration and adds"},
		{Body{Loads: 2, Calls: []string{"github.com/a/b.f", "runtime.memmove"}}, "loads memory 2 times per iteration and calls b.f, runtime.memmove"},
		{Body{Calls: []string{"time.Now"}}, "calls time.Now"},
	}
	for _, tt := range tests {
		if got := tt.b.Describe("iteration"); got != tt.want {
			t.Errorf("describe(%+v) = %q, want %q", tt.b, got, tt.want)
		}
	}
}

func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/benchy-dev/benchy/internal/workload.sumSinkLoop": "workload.sumSinkLoop",
		"slices.pdqsortOrdered[...]":                                 "slices.pdqsortOrdered[...]",
		"runtime.memmove":                                            "runtime.memmove",
		"example.com/a.F[go.shape.struct { x/y.T }]":                 "a.F[go.shape.struct { x/y.T }]",
	} {
		if got := ShortName(in); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecode feeds arbitrary bytes to both decoders and the loop finder:
// they must never panic, and every instruction must lie inside the code.
func FuzzDecode(f *testing.F) {
	seed, _ := hex.DecodeString(loopsHex)
	f.Add(seed)
	f.Add([]byte{0x0f})
	f.Add([]byte{0xe1, 0xff, 0xff, 0x54, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, code []byte) {
		for arch, newDec := range newDecoders {
			fn := decodeFrom(process{}, newDec(symbolize), "fuzz", 0x10000, code)
			end := uint64(0x10000)
			for _, in := range fn.Insts {
				if in.PC != end || in.Len <= 0 {
					t.Fatalf("%s: instruction at %#x len %d, expected at %#x", arch, in.PC, in.Len, end)
				}
				end += uint64(in.Len)
			}
			if end > 0x10000+uint64(len(code)) {
				t.Fatalf("%s: decoded past the end", arch)
			}
			_ = (&Listing{Arch: arch, Func: *fn}).Summary()
		}
	})
}
