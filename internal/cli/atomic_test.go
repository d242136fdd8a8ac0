package cli

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWriteFileAtomicReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	if err := writeFileAtomic(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q, want new", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteFileAtomicKeepsTheOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	err := writeFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return io.ErrShortWrite
	})
	if err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("content %q after a failed write, want the old file", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteFileAtomicFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := writeFileAtomic(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("linked file holds %q, want new", b)
	}
}

func TestWriteFileAtomicWritesDevicesInPlace(t *testing.T) {
	if err := writeFileAtomic(os.DevNull, writeString("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("%s is no longer a device", os.DevNull)
	}
	if err := checkWritable("--out", os.DevNull); err != nil {
		t.Errorf("checkWritable(/dev/null) = %v", err)
	}
}

func TestCheckWritableDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(dir, "missing", "x.json"), link); err != nil {
		t.Skip(err)
	}
	if err := checkWritable("--out", link); err == nil {
		t.Error("a link to nothing was accepted")
	}
}

func TestWriteFileAtomicKeepsPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte("old"), 0o600)
	if err := writeFileAtomic(path, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after replacing a 0600 file, want 0600", fi.Mode().Perm())
	}
}

func TestCheckWritableLeavesAPipesReaderAlone(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	// No reader: opening for writing would block; checking must not.
	if err := checkWritable("--out", fifo); err != nil {
		t.Errorf("checkWritable(fifo) = %v", err)
	}
}

func TestRemovePendingTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	err := writeFileAtomic(path, func(w io.Writer) error {
		removePendingTemp() // what a second Ctrl-C does while writing
		left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
		if len(left) != 0 {
			t.Errorf("temporary file still there: %v", left)
		}
		return io.ErrUnexpectedEOF
	})
	if err == nil {
		t.Error("no error")
	}
}
