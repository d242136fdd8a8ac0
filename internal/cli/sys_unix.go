//go:build unix

package cli

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether w is a terminal: progress is drawn only there,
// so scripts and CI logs stay clean.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}

// terminalWidth is the number of columns of the terminal w is, 0 when w
// is not a terminal (then text is laid out for 80).
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// sigName is the name of s: SIGKILL.
func sigName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}
