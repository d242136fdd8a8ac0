package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/workload"
)

// Every experiment's listing is written with its function's TEXT line, one
// line per instruction, and the summary last; its JSON holds the summary.
func TestAsmListing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector rewrites the loops")
	}
	for _, w := range workload.All() {
		l, err := asm.Inspect(w.Loop)
		if errors.Is(err, asm.ErrUnsupportedArch) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		var text, js bytes.Buffer
		rep := AsmReport{Experiment: w.Name, Title: w.Name + ": " + w.Description, Summary: l.Summary(), Listing: l}
		if err := WriteAsm(&text, "text", rep); err != nil {
			t.Fatal(err)
		}
		out := text.String()
		if !strings.HasPrefix(out, rep.Title+"\n\nTEXT "+l.Func.Name) || !strings.HasSuffix(out, "summary: "+rep.Summary.Line+"\n") ||
			strings.Count(out, "\n  0x") < len(l.Func.Insts) {
			t.Errorf("%s: text output lacks the title, the function, an instruction or the summary:\n%s", w.Name, out)
		}
		if err := WriteAsm(&js, "json", rep); err != nil || !strings.Contains(js.String(), `"experiment": "`+w.Name+`"`) || strings.Contains(js.String(), rep.Title) {
			t.Errorf("%s: JSON %v:\n%s", w.Name, err, js.String())
		}
	}
}
