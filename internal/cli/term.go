package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal: progress is drawn only there,
// so scripts and CI logs stay clean.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// TerminalWidth is the number of columns of the terminal w is, 0 when w
// is not a terminal (then text is laid out for 80).
func TerminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	cols, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return cols
}
