package asm_test

import (
	"runtime"
	"strings"
	"testing"

	. "github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/workload"
)

// TestFileAgreesWithInspect reads the functions of this test binary
// both ways, running (Inspect) and as a file (openAndInspect of
// /proc/self/exe): the instructions, lines, loops and summaries must be the
// same.
func TestFileAgreesWithInspect(t *testing.T) {
	needPlainCode(t)
	if !supported() || runtime.GOOS != "linux" {
		t.Skipf("benchy reads its own executable on linux/amd64 and linux/arm64, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	loops := []any{fibLoop}
	for _, w := range workload.All() {
		loops = append(loops, w.Loop)
	}
	for _, fn := range loops { // none generic: File.Inspect wants the full name
		mem, err := Inspect(fn)
		if err != nil {
			t.Fatal(err)
		}
		file, err := openAndInspect("/proc/self/exe", mem.Func.Name)
		if err != nil {
			t.Fatal(err)
		}
		bias := mem.Func.Entry - file.Func.Entry // not 0 if position-independent
		if mem.Bounds != file.Bounds {
			t.Errorf("%s: bounds from %s and from %s", mem.Func.Name, mem.Bounds, file.Bounds)
		}
		sameCode(t, mem.Func.Name, mem, file, bias)
		t.Logf("%s: %d instructions, %d loops, callees %v", mem.Func.Name, len(mem.Func.Insts), len(mem.Func.Loops), names(mem.Callees))
		if bias == 0 && forPrint(mem.Summary().Line) != forPrint(file.Summary().Line) {
			t.Errorf("%s: summary\n  running: %s\n  file:    %s", mem.Func.Name, mem.Summary().Line, file.Summary().Line)
		}
	}
}

// sameCode compares two listings of the same function, the second bias
// bytes lower in memory than the first: same instructions, lines, loops and
// callees. When the second is of a stripped file, the texts that name
// symbols may differ: it has no names for data, and its data may lie
// elsewhere (the build flags, which differ, are stored in the binary).
func sameCode(t *testing.T, name string, a, b *Listing, bias uint64) {
	t.Helper()
	fa, fb := append([]Func{a.Func}, a.Callees...), append([]Func{b.Func}, b.Callees...)
	if len(fa) != len(fb) {
		t.Errorf("%s: callees %v and %v", name, names(a.Callees), names(b.Callees))
	}
	for i := range min(len(fa), len(fb)) {
		f, g := fa[i], fb[i]
		if f.Entry-g.Entry != bias || f.End-g.End != bias || len(f.Insts) != len(g.Insts) ||
			forPrint(f.Name) != forPrint(g.Name) || f.File != g.File || f.Line != g.Line {
			t.Errorf("%s: %s %#x-%#x, %d instructions at %s:%d; and %s %#x-%#x, %d at %s:%d", name,
				f.Name, f.Entry, f.End, len(f.Insts), f.File, f.Line, g.Name, g.Entry, g.End, len(g.Insts), g.File, g.Line)
			continue
		}
		for j, x := range f.Insts {
			y := g.Insts[j]
			text := forPrint(x.Text) == forPrint(y.Text) || bias != 0 ||
				a.Bounds != b.Bounds && strings.Contains(x.Text, "(SB)")
			if x.PC-y.PC != bias || x.Op != y.Op || x.Len != y.Len || !text || x.File != y.File || x.Line != y.Line ||
				forPrint(x.Callee) != forPrint(y.Callee) {
				t.Errorf("%s: %#x %s (%s:%d), and %#x %s (%s:%d)", f.Name, x.PC, x.Text, x.File, x.Line, y.PC, y.Text, y.File, y.Line)
			}
		}
		if len(f.Loops) != len(g.Loops) {
			t.Errorf("%s: %d loops and %d", f.Name, len(f.Loops), len(g.Loops))
			continue
		}
		for j, x := range f.Loops {
			y := g.Loops[j]
			if x.Head-y.Head != bias || x.End-y.End != bias || x.Depth != y.Depth ||
				x.Body.Insts != y.Body.Insts || x.Body.Loads != y.Body.Loads || x.Body.Arith != y.Body.Arith {
				t.Errorf("%s: loop %+v and %+v", f.Name, x, y)
			}
		}
	}
}

// forPrint writes names as the runtime does. A file's symbol table spells
// out the type arguments of a generic function (so does .gopclntab), which
// the runtime writes "[...]"; and it marks the assembly functions that
// follow the stack-based calling convention ("runtime.morestack.abi0"),
// which .gopclntab and the runtime do not.
func forPrint(s string) string {
	s = strings.ReplaceAll(s, ".abi0", "")
	i, j := strings.Index(s, "["), strings.LastIndex(s, "]")
	if i < 0 || j < i {
		return s
	}
	return s[:i] + "[...]" + s[j+1:]
}
