package cli

import (
	"errors"
	"testing"
)

// An error of several lines is several errors: oneLine keeps them apart
// with "; " on the one line of a complaint.
func TestOneLineKeepsErrorsApart(t *testing.T) {
	err := errors.Join(errors.New("store a: refused"), errors.New("store b: no such file"))
	if got, want := oneLine(err.Error()), "store a: refused; store b: no such file"; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}
