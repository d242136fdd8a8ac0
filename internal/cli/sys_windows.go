package cli

import (
	"io"
	"os"
	"syscall"
)

// isTerminal reports whether w is a console: progress is drawn only there.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminalWidth is not read on Windows: text is laid out for 80 columns.
func terminalWidth(w io.Writer) int { return 0 }

// childAttr has nothing to set on Windows.
func childAttr() *syscall.SysProcAttr { return nil }

func sigName(s syscall.Signal) string { return s.String() }
