package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestKeepWhenTheDiskIsFull writes more than a small tmpfs holds: the target
// is not touched, nothing is left on the full file system (not the
// temporary file, not a partial copy beside it), and the whole result is
// in the cache directory.
func TestKeepWhenTheDiskIsFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	cache := useCache(t)
	dir := t.TempDir()
	if err := syscall.Mount("none", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	d := mustCheck(t, path, Options{})

	data := strings.Repeat("measurement\n", 1<<16) // 768 KiB
	kept, err := d.WriteOrKeep(writeString(data))
	wantKept(t, path, kept, err, data)
	wantOneLine(t, err, path, "no space left on device")
	if filepath.Dir(kept) != cache {
		t.Errorf("kept in %s, want %s", kept, cache)
	}
	wantNames(t, dir, "r.json")
	if got := readFile(t, path); got != "old" {
		t.Errorf("target holds %d bytes, want the old content", len(got))
	}
}
