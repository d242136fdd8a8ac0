package inproc

import (
	"errors"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/result"
)

// Code that cannot be read is said so; a loop that reads no memory for
// work that does is the work removed.
func TestCodeFindings(t *testing.T) {
	fs := codeFindings(asm.Summary{}, errors.New("no symbol"), true)
	if len(fs) != 1 || fs[0].Code != result.CodeAsmUnknown || !strings.Contains(fs[0].Message, "no symbol") {
		t.Errorf("unreadable code: %v", fs)
	}
	fs = codeFindings(asm.Summary{Line: "a loop", LoopLoads: false}, nil, true)
	if len(fs) != 2 || fs[0].Code != result.CodeAsm || fs[1].Code != result.CodeNoLoadInLoop {
		t.Errorf("no load in a loop that should read memory: %v", fs)
	}
	if fs := codeFindings(asm.Summary{Line: "a loop", LoopLoads: false}, nil, false); len(fs) != 1 {
		t.Errorf("registers only, as declared: %v", fs)
	}
}
