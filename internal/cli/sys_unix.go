//go:build unix

package cli

import (
	"io"
	"os"

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

// canWrite asks the kernel whether this process may write path, without
// opening it: opening a named pipe and closing it would end its reader.
func canWrite(path string) error { return unix.Access(path, unix.W_OK) }
