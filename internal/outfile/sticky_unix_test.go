//go:build unix

package outfile

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Two made-up users: root can own files as anyone, so these tests plant
// names as another user without a second account.
const (
	planter  = 12345 // another user, planting names in a shared directory
	dirOwner = 23456 // the owner of a shared sticky directory
)

// stickyDir makes a directory like /tmp (mode 1777) owned by owner.
func stickyDir(t *testing.T, owner int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, fs.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	if owner != os.Geteuid() {
		if err := os.Chown(dir, owner, owner); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("making files owned by another user needs root")
	}
}

// TestOwnLinkInStickyDirIsFollowed works as any user.
func TestOwnLinkInStickyDirIsFollowed(t *testing.T) {
	dir := stickyDir(t, os.Geteuid())
	link := filepath.Join(dir, "r.json")
	os.Symlink("real.json", link)
	if err := mustCheck(t, link, Options{}).Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "real.json")); got != "new" {
		t.Errorf("real.json holds %q", got)
	}
}

// TestStickyDirAsRoot plants links, files and FIFOs as other users in a
// /tmp-like directory and checks what Check decides, as root: the kernel's
// protections stop root too, and so do benchy's.
func TestStickyDirAsRoot(t *testing.T) {
	needRoot(t)
	for _, c := range []struct {
		name      string
		dirUID    int
		make      func(path string) error
		owner     int
		refuse    string // "" if allowed
		wantWrote bool   // the write reaches victim
	}{
		{"a link planted by another user", 0, symlinkTo("victim"), planter, "protected_symlinks", false},
		{"a link of the directory's owner", dirOwner, symlinkTo("victim"), dirOwner, "", true},
		{"a link of one's own", dirOwner, symlinkTo("victim"), 0, "", true},
		{"a file planted by another user", 0, regularFile, planter, "protected_regular", false},
		{"a file of the directory's owner", dirOwner, regularFile, dirOwner, "", false},
		{"a FIFO planted by another user", 0, fifo, planter, "protected_fifos", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := stickyDir(t, c.dirUID)
			path, victim := filepath.Join(dir, "r.json"), filepath.Join(dir, "victim")
			if err := c.make(path); err != nil {
				t.Skip(err)
			}
			if err := os.Lchown(path, c.owner, c.owner); err != nil {
				t.Fatal(err)
			}
			d, err := Check("--out", path, Options{})
			if c.refuse != "" {
				wantOneLine(t, err, "--out "+path, c.refuse)
				if _, err := os.Lstat(victim); err == nil {
					t.Errorf("%s was created", victim)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Write(writeString("new")); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(victim); (err == nil) != c.wantWrote {
				t.Errorf("victim written: %v, want %v", err == nil, c.wantWrote)
			}
		})
	}
}

func symlinkTo(target string) func(string) error {
	return func(path string) error { return os.Symlink(target, path) }
}

func regularFile(path string) error { return os.WriteFile(path, []byte("theirs"), 0o666) }

func fifo(path string) error { return syscall.Mkfifo(path, 0o666) }

// TestLinkPlantedWhileMeasuring: the name did not exist at Check; a link
// planted meanwhile by another user is still not followed, and creates
// nothing where it points. The result is not lost, either.
func TestLinkPlantedWhileMeasuring(t *testing.T) {
	needRoot(t)
	useCache(t)
	dir := stickyDir(t, 0)
	path, victim := filepath.Join(dir, "r.json"), filepath.Join(dir, "victim")
	d := mustCheck(t, path, Options{})
	os.Symlink("victim", path)
	os.Lchown(path, planter, planter)
	kept, err := d.WriteOrKeep(writeString("result"))
	wantKept(t, path, kept, err, "result")
	wantOneLine(t, err, path, "protected_symlinks")
	if _, err := os.Lstat(victim); err == nil {
		t.Errorf("%s was created through the planted link", victim)
	}
	// Kept beside it is safe even here: a new file (O_EXCL: not through
	// a link), of one's own, readable by no one else.
	if fi, err := os.Lstat(kept); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("kept in %s: %v, %v; want a new private file", kept, fi.Mode(), err)
	}
}

// TestReplacingKeepsTheOwner: "sudo benchy --out ~/r.json" leaves the user
// a file of their own, as the shell's > would.
func TestReplacingKeepsTheOwner(t *testing.T) {
	needRoot(t)
	path := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	os.Chown(path, planter, dirOwner)
	if err := mustCheck(t, path, Options{}).Write(writeString("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if uid, gid, _ := fileOwner(fi); uid != planter || gid != dirOwner {
		t.Errorf("owner %d:%d after replacing, want %d:%d", uid, gid, planter, dirOwner)
	}
}

// TestKernelAgrees compares benchy's decision with the kernel's own, where
// the kernel's protections are turned on (fs.protected_* > 0).
func TestKernelAgrees(t *testing.T) {
	needRoot(t)
	for _, c := range []struct {
		sysctl string
		make   func(string) error
		open   func(string) error
	}{
		{"protected_symlinks", symlinkTo("victim"), func(p string) error { _, err := os.ReadFile(p); return err }},
		{"protected_regular", regularFile, func(p string) error {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE, 0o644)
			if err == nil {
				f.Close()
			}
			return err
		}},
	} {
		t.Run(c.sysctl, func(t *testing.T) {
			if b, err := os.ReadFile("/proc/sys/fs/" + c.sysctl); err != nil || strings.TrimSpace(string(b)) == "0" {
				t.Skipf("fs.%s is off or unknown here", c.sysctl)
			}
			dir := stickyDir(t, 0)
			path := filepath.Join(dir, "r.json")
			os.WriteFile(filepath.Join(dir, "victim"), nil, 0o644)
			c.make(path)
			os.Lchown(path, planter, planter)
			if err := c.open(path); !errors.Is(err, fs.ErrPermission) {
				t.Fatalf("the kernel allows it (%v)", err)
			}
			if _, err := Check("--out", path, Options{}); err == nil {
				t.Errorf("benchy allows what the kernel refuses")
			}
		})
	}
}

// TestStickyRenameAsAnotherUser runs benchy (the test helper) as an
// ordinary user, nobody, against a file of root's in a /tmp-like
// directory: the rename that would replace it is not permitted, which the
// kernel confirms (mv fails), so Check refuses before measuring.
func TestStickyRenameAsAnotherUser(t *testing.T) {
	needRoot(t)
	const nobody = 65534
	top := t.TempDir()
	for p := top; p != filepath.Dir(p) && strings.HasPrefix(p, os.TempDir()+"/"); p = filepath.Dir(p) {
		os.Chmod(p, 0o755) // let nobody in: Go makes test directories 0700
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(top, "benchy")
	if b, err := os.ReadFile(self); err != nil || os.WriteFile(helper, b, 0o755) != nil {
		t.Skip("cannot copy the test binary")
	}
	dir := stickyDir(t, 0)
	os.Chmod(filepath.Dir(dir), 0o755)
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("root's"), 0o666)
	os.Chmod(path, 0o666)

	run := func(script string) (int, string) {
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "H="+helper, "BENCHY_OUTFILE_HELPER=1", "BENCHY_OUTFILE_PATH="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		out, err := cmd.CombinedOutput()
		if err != nil && cmd.ProcessState == nil {
			t.Skip(err)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run(`"$H"`); code != 2 || !strings.Contains(out, "replacing it would not be permitted") {
		t.Errorf("benchy as nobody: exit %d, %q; want 2 and the rename refused", code, out)
	}
	code, out := run(`echo x > t.$$ && mv -f t.$$ r.json; s=$?; rm -f t.$$; exit $s`)
	if code == 0 || !strings.Contains(out, "not permitted") {
		t.Errorf("mv as nobody: exit %d, %q; want the kernel to refuse the rename", code, out)
	}
	if got := readFile(t, path); got != "root's" {
		t.Errorf("r.json holds %q", got)
	}
	wantNames(t, dir, "r.json")
}
