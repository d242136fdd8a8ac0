package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	d := mustCheck(t, path, Options{})
	wantNames(t, dir, "r.json") // the probe is gone
	if err := d.Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Errorf("content %q, want new", got)
	}
	wantNames(t, dir, "r.json")
}

func TestWriteKeepsTheOldFileOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	err := mustCheck(t, path, Options{}).Write(func(w io.Writer) error {
		io.WriteString(w, "half")
		return io.ErrShortWrite
	})
	if !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if got := readFile(t, path); got != "old" {
		t.Errorf("content %q after a failed write, want the old file", got)
	}
	wantNames(t, dir, "r.json")
}

func TestWriteKeepsPermissions(t *testing.T) {
	for _, perm := range []fs.FileMode{0o600, 0o640, 0o755, 0o444} {
		t.Run(perm.String(), func(t *testing.T) {
			if runtime.GOOS == "windows" && perm != 0o444 {
				t.Skip("Windows has only a read-only attribute")
			}
			path := filepath.Join(t.TempDir(), "r.json")
			os.WriteFile(path, []byte("old"), perm)
			os.Chmod(path, perm) // whatever the umask
			d := mustCheck(t, path, Options{Replace: true})
			if err := d.Write(writeString("new")); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != perm {
				t.Errorf("mode %v after replacing a %v file", fi.Mode().Perm(), perm)
			}
		})
	}
}

func TestNewFileGetsWhatOSCreateGives(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := mustCheck(t, path, Options{}).Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "made-by-os-create"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, _ := os.Stat(f.Name())
	if fi, err := os.Stat(path); err != nil || fi.Mode() != want.Mode() {
		t.Errorf("new file has mode %v, os.Create gives %v", fi.Mode(), want.Mode())
	}
}

func TestReadOnlyFileNeedsReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o444)
	_, err := Check("--out", path, Options{})
	wantOneLine(t, err, "--out "+path, "is read-only; use --force to replace it")

	d := mustCheck(t, path, Options{Replace: true})
	if err := d.Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new" {
		t.Errorf("content %q, want new", got)
	}
	wantNames(t, dir, "r.json")
}

func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	links := map[string]string{
		"todir":   dir,
		"a":       filepath.Join(dir, "b"), // a -> b -> a
		"b":       filepath.Join(dir, "a"),
		"self":    "self",
		"loopy":   "loopy/x",
		"nowhere": filepath.Join(dir, "missing", "x.json"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skip(err)
		}
	}
	for _, c := range []struct{ name, path, want string }{
		{"empty", "", "no file named"},
		{"directory", dir, "is a directory"},
		{"link to a directory", filepath.Join(dir, "todir"), "is a symbolic link to a directory"},
		{"link loop", filepath.Join(dir, "a"), "loop"},
		{"link to itself", filepath.Join(dir, "self"), "loop"},
		{"loop in a parent", filepath.Join(dir, "loopy", "x"), "loop"},
		{"missing directory", filepath.Join(dir, "missing", "x.json"), "cannot write there"},
		{"dangling link into a missing directory", filepath.Join(dir, "nowhere"), "cannot write there"},
		{"file as a directory", filepath.Join(file, "x.json"), "not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && c.name == "file as a directory" {
				t.Skip("Windows words it differently")
			}
			_, err := Check("--out", c.path, Options{})
			wantOneLine(t, err, c.path, c.want)
		})
	}
	for name := range links {
		if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("link %s was replaced", name)
		}
	}
	wantNames(t, dir, "a", "b", "file", "loopy", "nowhere", "self", "todir")
}

func TestLinksAreFollowed(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	real := filepath.Join(dir, "real.json")
	for _, c := range []struct{ name, link, target string }{
		{"absolute", filepath.Join(dir, "abs.json"), real},
		{"relative, from another directory", filepath.Join(sub, "rel.json"), filepath.Join("..", "real.json")},
		{"a chain", filepath.Join(dir, "chain.json"), filepath.Join(dir, "abs.json")},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(real, []byte("old"), 0o600)
			if err := os.Symlink(c.target, c.link); err != nil {
				t.Skip(err)
			}
			if err := mustCheck(t, c.link, Options{}).Write(writeString(c.name)); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(c.link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link was replaced")
			}
			if got := readFile(t, real); got != c.name {
				t.Errorf("linked file holds %q, want %q", got, c.name)
			}
		})
	}
	wantNames(t, dir, "abs.json", "chain.json", "real.json", "sub")
	wantNames(t, sub, "rel.json")
}

func TestDanglingLinkCreatesTheFileItNames(t *testing.T) {
	dir := t.TempDir()
	link, target := filepath.Join(dir, "link.json"), filepath.Join(dir, "new.json")
	if err := os.Symlink("new.json", link); err != nil {
		t.Skip(err)
	}
	if err := mustCheck(t, link, Options{}).Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != "new" {
		t.Errorf("%s holds %q, want new", target, got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	wantNames(t, dir, "link.json", "new.json")
}

func TestUnwritableDirectory(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("root (or Windows) may write a read-only directory")
	}
	for _, c := range []struct {
		name string
		perm fs.FileMode
	}{{"not writable", 0o555}, {"not searchable", 0o666}} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			os.Mkdir(dir, 0o755)
			os.Chmod(dir, c.perm)
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			path := filepath.Join(dir, "r.json")
			_, err := Check("--out", path, Options{})
			wantOneLine(t, err, path, "permission denied")
		})
	}
}

// TestWriteLooksAgain: what the path names may change while measuring.
func TestWriteLooksAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	d := mustCheck(t, path, Options{})
	os.Mkdir(path, 0o755)
	err := d.Write(writeString("new"))
	wantOneLine(t, err, "could not write "+path, "is a directory")
	wantNames(t, dir, "r.json")
}
