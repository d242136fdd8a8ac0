package cli

import (
	"io"
	"os"
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

// canWrite has nothing to ask on Windows: a path that is not a regular
// file is a device, opened when the result is written.
func canWrite(path string) error { return nil }
