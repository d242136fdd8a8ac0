package outfile

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"
)

// TestRemovePending is what a second Ctrl-C does while a result is being
// written: the temporary file goes, and the old file stays as it was.
func TestRemovePending(t *testing.T) {
	defer resetPending()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	d := mustCheck(t, path, Options{})
	err := d.Write(func(w io.Writer) error {
		if len(names(t, dir)) != 1 {
			t.Errorf("no temporary file while writing: %q", names(t, dir))
		}
		io.WriteString(w, "half")
		RemovePending()
		wantNames(t, dir)
		return nil
	})
	if err == nil {
		t.Error("the write succeeded after its file was removed")
	}
	wantNames(t, dir)
	// The process is exiting: no new temporary file may appear.
	if err := d.Write(writeString("x")); !errors.Is(err, errExiting) {
		t.Errorf("Write after RemovePending = %v, want %v", err, errExiting)
	}
	wantNames(t, dir)
}

// TestRemovePendingConcurrently races RemovePending against writers; run
// with -race to check the bookkeeping. Whatever the interleaving, no
// temporary file may be left once both are done.
func TestRemovePendingConcurrently(t *testing.T) {
	defer resetPending()
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 8 {
		d := mustCheck(t, filepath.Join(dir, fmt.Sprint(i, ".json")), Options{})
		wg.Go(func() { d.Write(writeString("x")) })
	}
	wg.Go(RemovePending)
	wg.Wait()
	for _, n := range names(t, dir) {
		if filepath.Ext(n) != ".json" {
			t.Errorf("left behind: %s", n)
		}
	}
}
