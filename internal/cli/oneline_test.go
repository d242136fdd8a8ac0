package cli

import (
	"errors"
	"testing"
)

// An error of several lines is several errors: oneLine keeps them apart
// with "; " on the one line of a complaint.
func TestOneLineKeepsErrorsApart(t *testing.T) {
	err := errors.Join(errors.New("store a: refused"), errors.New("store b: no such file"))
	for _, msg := range []string{err.Error(), err.Error() + "\n", "\n" + err.Error() + "\n\n"} {
		if got, want := OneLine(msg), "store a: refused; store b: no such file"; got != want {
			t.Errorf("oneLine(%q) = %q, want %q", msg, got, want)
		}
	}
}
