//go:build unix

package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

// CheckDir makes a missing directory, follows one's own link, and refuses
// what is not a directory or cannot be made, with one line.
func TestCheckDir(t *testing.T) {
	base := t.TempDir()
	made := filepath.Join(base, "a", "b")
	if got, err := CheckDir("--profile", made); err != nil || got != made {
		t.Errorf("CheckDir(missing) = %q, %v; want it made", got, err)
	}
	link := filepath.Join(base, "link")
	os.Symlink("a", link)
	if got, err := CheckDir("--profile", link); err != nil || got != filepath.Join(base, "a") {
		t.Errorf("CheckDir(own link) = %q, %v; want the directory it names", got, err)
	}
	file := filepath.Join(base, "f")
	os.WriteFile(file, nil, 0o644)
	_, err := CheckDir("--profile", file)
	wantOneLine(t, err, "--profile "+file, "not a directory")
	_, err = CheckDir("--profile", filepath.Join(file, "sub"))
	wantOneLine(t, err, "--profile "+filepath.Join(file, "sub"), "not a directory")
}

// A directory named through a link another user planted in a shared
// sticky directory is not followed, as no link there would be.
func TestCheckDirPlantedLink(t *testing.T) {
	needRoot(t)
	dir := stickyDir(t, 0)
	victim := filepath.Join(t.TempDir(), "victim")
	os.Mkdir(victim, 0o700)
	link := filepath.Join(dir, "prof")
	os.Symlink(victim, link)
	if err := os.Lchown(link, planter, planter); err != nil {
		t.Fatal(err)
	}
	_, err := CheckDir("--profile", link)
	wantOneLine(t, err, "--profile "+link, "protected_symlinks")
	if left, _ := os.ReadDir(victim); len(left) != 0 {
		t.Errorf("written into the victim: %v", left)
	}
}
