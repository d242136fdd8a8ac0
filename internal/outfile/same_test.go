package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSame: --out F --samples-file F must be refused, however F is named.
func TestSame(t *testing.T) {
	dir := t.TempDir()
	file, other := filepath.Join(dir, "r.json"), filepath.Join(dir, "other.json")
	os.WriteFile(file, []byte("x"), 0o644)
	os.WriteFile(other, []byte("x"), 0o644)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if err := os.Symlink(file, filepath.Join(dir, "link.json")); err != nil {
		t.Skip(err)
	}
	os.Symlink(sub, filepath.Join(dir, "sublink"))
	os.Symlink(filepath.Join(dir, "new.json"), filepath.Join(dir, "dangling"))
	if err := os.Link(file, filepath.Join(dir, "hard.json")); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		name string
		a, b string
		same bool
	}{
		{"the same path", file, file, true},
		{"the same path spelled differently", file, filepath.Join(dir, ".", "sub", "..", "r.json"), true},
		{"a link to it", file, filepath.Join(dir, "link.json"), true},
		{"a hard link", file, filepath.Join(dir, "hard.json"), true},
		{"two files", file, other, false},
		{"a new file twice", filepath.Join(dir, "new.json"), filepath.Join(sub, "..", "new.json"), true},
		{"a new file and a dangling link to it", filepath.Join(dir, "new.json"), filepath.Join(dir, "dangling"), true},
		{"a new file through a linked directory", filepath.Join(sub, "n.json"), filepath.Join(dir, "sublink", "n.json"), true},
		{"two new files", filepath.Join(dir, "new.json"), filepath.Join(dir, "new2.json"), false},
		{"a new file and an existing one", filepath.Join(dir, "new.json"), file, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := mustCheck(t, c.a, Options{}), mustCheck(t, c.b, Options{})
			if got := Same(a, b); got != c.same {
				t.Errorf("Same(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
			}
			if got := Same(b, a); got != c.same {
				t.Errorf("Same(%s, %s) = %v, want %v", c.b, c.a, got, c.same)
			}
		})
	}
	if Same(nil, mustCheck(t, file, Options{})) {
		t.Error("Same(nil, F) = true")
	}
}
