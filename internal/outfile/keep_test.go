package outfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// useCache points os.UserCacheDir at a new temporary directory and returns
// where WriteOrKeep will keep results in it.
func useCache(t *testing.T) string {
	t.Helper()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // Unix
	t.Setenv("HOME", cache)           // macOS: $HOME/Library/Caches
	t.Setenv("LocalAppData", cache)   // Windows
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skip(err)
	}
	return filepath.Join(dir, "benchy")
}

// wantKept checks a WriteOrKeep that could not write path but kept data.
func wantKept(t *testing.T, path, kept string, err error, data string) {
	t.Helper()
	if kept == "" {
		t.Fatalf("nothing kept; error %v", err)
	}
	wantOneLine(t, err, "could not write "+path, "; the result is in "+kept)
	var e *Error
	if !errors.As(err, &e) || e.Kept != kept {
		t.Errorf("error %#v does not carry the kept path %s", err, kept)
	}
	if got := readFile(t, kept); got != data {
		t.Errorf("kept %d bytes, want %d", len(got), len(data))
	}
}

// TestKeepWhenTheDirectoryIsRemoved: the directory goes while measuring;
// the result goes to the cache directory, and nothing else is left.
func TestKeepWhenTheDirectoryIsRemoved(t *testing.T) {
	cache := useCache(t)
	dir := filepath.Join(t.TempDir(), "results")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "r.json")
	d := mustCheck(t, path, Options{})
	os.RemoveAll(dir)

	kept, err := d.WriteOrKeep(writeString("result"))
	wantKept(t, path, kept, err, "result")
	if filepath.Dir(kept) != cache {
		t.Errorf("kept in %s, want %s", kept, cache)
	}
	wantNames(t, cache, filepath.Base(kept))
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was made again", dir)
	}
}

// TestKeepBesideTheTarget: the file became read-only while measuring, so
// it is not replaced; the result goes beside it, where the user looks.
func TestKeepBesideTheTarget(t *testing.T) {
	cache := useCache(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	d := mustCheck(t, path, Options{})
	os.Chmod(path, 0o444)

	kept, err := d.WriteOrKeep(writeString("result"))
	wantKept(t, path, kept, err, "result")
	beside := fmt.Sprintf("r.json.benchy-%d", os.Getpid())
	if kept != filepath.Join(dir, beside) {
		t.Errorf("kept in %s, want beside the target", kept)
	}
	wantNames(t, dir, "r.json", beside)
	if got := readFile(t, path); got != "old" {
		t.Errorf("target holds %q, want the old content", got)
	}
	if _, err := os.Stat(cache); err == nil {
		t.Errorf("also kept in the cache")
	}

	// A second failure does not overwrite the first kept result.
	kept2, err := d.WriteOrKeep(writeString("second"))
	wantKept(t, path, kept2, err, "second")
	if kept2 == kept {
		t.Errorf("the second result overwrote the first")
	}
}

// TestKeepFailsToo: with nowhere to keep the bytes, the message says so.
func TestKeepFailsToo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("LocalAppData", "")
	if _, err := os.UserCacheDir(); err == nil {
		t.Skip("a cache directory is still found")
	}
	dir := filepath.Join(t.TempDir(), "results")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "r.json")
	d := mustCheck(t, path, Options{})
	os.RemoveAll(dir)
	kept, err := d.WriteOrKeep(writeString("result"))
	if kept != "" {
		t.Errorf("kept in %s", kept)
	}
	wantOneLine(t, err, "could not write "+path, "could not be kept elsewhere")
}

// TestRenderErrorKeepsNothing: if the output cannot even be rendered, there
// is nothing to keep, and the target is left alone.
func TestRenderErrorKeepsNothing(t *testing.T) {
	cache := useCache(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	d := mustCheck(t, path, Options{})
	bad := errors.New("cannot render")
	kept, err := d.WriteOrKeep(func(w io.Writer) error {
		io.WriteString(w, "half")
		return bad
	})
	if kept != "" || !errors.Is(err, bad) {
		t.Errorf("WriteOrKeep = %q, %v; want nothing kept and the render error", kept, err)
	}
	wantNames(t, dir, "r.json")
	if _, err := os.Stat(cache); err == nil {
		t.Errorf("something was kept in the cache")
	}
}

func TestWriteOrKeepWrites(t *testing.T) {
	useCache(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	kept, err := mustCheck(t, path, Options{}).WriteOrKeep(writeString(strings.Repeat("x", 1<<16)))
	if kept != "" || err != nil {
		t.Fatalf("WriteOrKeep = %q, %v", kept, err)
	}
	if got := readFile(t, path); len(got) != 1<<16 {
		t.Errorf("wrote %d bytes", len(got))
	}
	wantNames(t, dir, "r.json")
}
