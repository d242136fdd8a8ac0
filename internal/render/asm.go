package render

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/benchy-dev/benchy/internal/asm"
)

// asmListing writes the listing as a person reads it: each function with its
// bounds, then one instruction per line with address, source file:line, a
// gutter that marks the loops ("+" at a loop head, "|" inside), and the Go
// assembler text; then the summary.
func asmListing(w io.Writer, l *asm.Listing) error {
	var b strings.Builder
	writeAsmFunc(&b, &l.Func, l.Arch, l.Bounds)
	for i := range l.Callees {
		b.WriteString("\ncalled from the loop:\n")
		writeAsmFunc(&b, &l.Callees[i], l.Arch, l.Bounds)
	}
	fmt.Fprintf(&b, "\nsummary: %s\n", l.Summary().Line)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeAsmFunc(b *strings.Builder, f *asm.Func, arch, bounds string) {
	fmt.Fprintf(b, "TEXT %s  %s:%d\n", f.Name, filepath.Base(f.File), f.Line)
	fmt.Fprintf(b, "  %#x-%#x, %d bytes, %s, size from %s, %d loop(s)\n", f.Entry, f.End, f.End-f.Entry, arch, bounds, len(f.Loops))
	depth := 0
	for _, lp := range f.Loops {
		depth = max(depth, lp.Depth)
	}
	for _, in := range f.Insts {
		src := ""
		if in.File != "" {
			src = fmt.Sprintf("%s:%d", filepath.Base(in.File), in.Line)
		}
		gutter := []byte(strings.Repeat(" ", depth))
		note := ""
		for _, lp := range f.Loops {
			if in.PC < lp.Head || in.PC >= lp.End {
				continue
			}
			c := byte('|')
			if in.PC == lp.Head {
				c = '+'
			}
			gutter[lp.Depth-1] = c
			if in.Branch && in.Target == lp.Head && in.PC+uint64(in.Len) == lp.End {
				note = fmt.Sprintf("   <- loop back to %#x", lp.Head)
			}
		}
		fmt.Fprintf(b, "  %#x  %-18s %s %s%s\n", in.PC, src, gutter, in.Text, note)
	}
	for _, lp := range f.Loops {
		kind := "loop (inner loops counted once)"
		if lp.Inner {
			kind = "innermost loop"
		}
		fmt.Fprintf(b, "  %s %#x-%#x: %s\n", kind, lp.Head, lp.End, lp.Body.Describe("iteration"))
	}
}

// AsmReport is what `benchy asm` says of a loop: the listing of the
// function that runs it, its summary, and whose it is. Its JSON is the
// command's --format json (Title is the text's first line only).
type AsmReport struct {
	Experiment string       `json:"experiment"`
	Title      string       `json:"-"`
	Summary    asm.Summary  `json:"summary"`
	Listing    *asm.Listing `json:"listing"`
}

// WriteAsm writes rep as its title and listing (AsmListing), or as JSON
// for format "json".
func WriteAsm(w io.Writer, format string, rep AsmReport) error {
	if format == "json" {
		return writeJSON(w, rep)
	}
	if _, err := fmt.Fprintf(w, "%s\n\n", rep.Title); err != nil {
		return err
	}
	return asmListing(w, rep.Listing)
}
