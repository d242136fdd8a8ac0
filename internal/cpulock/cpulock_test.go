package cpulock

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// useDirs points the lock directory at fresh temporary directories: no
// runtime directory, and a temporary directory of the test's own, whose
// lock directory is returned (not made yet).
func useDirs(t *testing.T) string {
	t.Helper()
	oldRuntime, oldTemp := RuntimeDir, TempDir
	t.Cleanup(func() { RuntimeDir, TempDir = oldRuntime, oldTemp })
	RuntimeDir, TempDir = "", t.TempDir()
	return filepath.Join(TempDir, "benchy-"+strconv.Itoa(os.Getuid()))
}

// tryLock is TryLock with a deadline: a lock that blocks fails the test
// instead of hanging it.
func tryLock(t *testing.T, cpu int) (*Lock, bool, error) {
	t.Helper()
	type got struct {
		l    *Lock
		held bool
		err  error
	}
	c := make(chan got, 1)
	go func() {
		l, held, err := TryLock(cpu)
		c <- got{l, held, err}
	}()
	select {
	case g := <-c:
		return g.l, g.held, g.err
	case <-time.After(time.Minute):
		t.Fatalf("TryLock(%d) blocked", cpu)
		return nil, false, nil
	}
}

// wantRefused checks that the lock was not taken and that TryLock said
// why, naming what: never a lock silently missing.
func wantRefused(t *testing.T, cpu int, what string) {
	t.Helper()
	l, held, err := tryLock(t, cpu)
	if l != nil || held || err == nil || !strings.Contains(err.Error(), what) {
		l.Release()
		t.Errorf("TryLock(%d) = %v, %v, %v; want refused, naming %q", cpu, l != nil, held, err, what)
	}
}

// The lock files are in a directory of the user's own, made 0700.
func TestLockDirectory(t *testing.T) {
	dir := useDirs(t)
	l, held, err := tryLock(t, 0)
	if l == nil || held || err != nil {
		t.Fatalf("TryLock(0) = %v, %v, %v; want the lock", l, held, err)
	}
	l.Release()
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("lock directory %s: %v, %v; want a directory of mode 0700", dir, fi.Mode(), err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "cpu0.lock")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("lock file: %v", err)
	}

	// A directory of ours open to others is closed, and used.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l, _, err = tryLock(t, 0)
	if l == nil || err != nil {
		t.Fatalf("TryLock(0) with the directory 0755 = %v, %v", l != nil, err)
	}
	l.Release()
	if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("lock directory left %v, want 0700", fi.Mode().Perm())
	}
}

// $XDG_RUNTIME_DIR, when it is the user's own, holds the lock directory;
// one that is not (open to others, relative) is passed over for the
// temporary directory.
func TestRuntimeDirectory(t *testing.T) {
	tempLocks := useDirs(t)
	RuntimeDir = privateDir(t)
	l, _, err := tryLock(t, 2)
	if l == nil || err != nil {
		t.Fatalf("TryLock(2) = %v, %v", l != nil, err)
	}
	l.Release()
	if _, err := os.Lstat(filepath.Join(RuntimeDir, "benchy", "cpu2.lock")); err != nil {
		t.Errorf("no lock file in the runtime directory: %v", err)
	}
	if _, err := os.Lstat(tempLocks); err == nil {
		t.Errorf("%s made although the runtime directory was usable", tempLocks)
	}

	for _, bad := range []string{"open to others", "relative"} {
		t.Run(bad, func(t *testing.T) {
			tempLocks := useDirs(t)
			RuntimeDir = privateDir(t)
			if bad == "relative" {
				RuntimeDir = "run/user"
			} else if err := os.Chmod(RuntimeDir, 0o777); err != nil {
				t.Fatal(err)
			}
			l, _, err := tryLock(t, 2)
			if l == nil || err != nil {
				t.Fatalf("TryLock(2) = %v, %v", l != nil, err)
			}
			l.Release()
			if _, err := os.Lstat(filepath.Join(tempLocks, "cpu2.lock")); err != nil {
				t.Errorf("the lock is not in the temporary directory: %v", err)
			}
		})
	}
}

// What another user (or a mistake) can leave where a lock file or the lock
// directory goes never hangs benchy and never turns the lock off without a
// word: TryLock refuses it and says why.
func TestPlantedLocks(t *testing.T) {
	t.Run("FIFO", func(t *testing.T) {
		dir := useDirs(t)
		os.Mkdir(dir, 0o700)
		if err := mkfifo(filepath.Join(dir, "cpu0.lock")); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		wantRefused(t, 0, "not a regular file")
	})
	t.Run("link as the lock file", func(t *testing.T) {
		dir := useDirs(t)
		os.Mkdir(dir, 0o700)
		target := filepath.Join(t.TempDir(), "elsewhere")
		if err := os.Symlink(target, filepath.Join(dir, "cpu0.lock")); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, 0, "cpu0.lock is a link")
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("the link was followed: %s made", target)
		}
	})
	t.Run("directory as the lock file", func(t *testing.T) {
		dir := useDirs(t)
		if err := os.MkdirAll(filepath.Join(dir, "cpu0.lock"), 0o700); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, 0, "cpu0.lock")
	})
	t.Run("link as the lock directory", func(t *testing.T) {
		dir := useDirs(t)
		target := t.TempDir()
		if err := os.Symlink(target, dir); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, 0, "is a link or not a directory")
		if entries, _ := os.ReadDir(target); len(entries) != 0 {
			t.Errorf("the link was followed: %v in its target", entries)
		}
	})
	t.Run("file as the lock directory", func(t *testing.T) {
		dir := useDirs(t)
		if err := os.WriteFile(dir, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, 0, "is a link or not a directory")
	})
	t.Run("mode-000 lock file", func(t *testing.T) {
		dir := useDirs(t)
		os.Mkdir(dir, 0o700)
		if err := os.WriteFile(filepath.Join(dir, "cpu0.lock"), nil, 0); err != nil {
			t.Fatal(err)
		}
		// root opens it all the same, and the lock works; another user
		// cannot open it, and is told so.
		l, held, err := tryLock(t, 0)
		defer l.Release()
		if os.Getuid() == 0 {
			if l == nil || err != nil {
				t.Errorf("TryLock(0) as root = %v, %v, %v; want the lock", l != nil, held, err)
			}
		} else if l != nil || held || err == nil {
			t.Errorf("TryLock(0) = %v, %v, %v; want refused", l != nil, held, err)
		}
	})
	// Another user's file or directory (root can make one for the test).
	t.Run("lock file of another user", func(t *testing.T) {
		dir := useDirs(t)
		os.Mkdir(dir, 0o700)
		chownOrSkip(t, writeFile(t, filepath.Join(dir, "cpu0.lock")))
		wantRefused(t, 0, "is owned by uid")
	})
	t.Run("lock directory of another user", func(t *testing.T) {
		dir := useDirs(t)
		os.Mkdir(dir, 0o700)
		chownOrSkip(t, dir)
		wantRefused(t, 0, "is owned by uid")
	})
}

// privateDir is a new directory of mode 0700, as $XDG_RUNTIME_DIR is.
func privateDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeFile(t *testing.T, path string) string {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	return path
}

// chownOrSkip gives path to another user, which only root can.
func chownOrSkip(t *testing.T, path string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
}

// A lock held by another process is seen; one released is free again.
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv("CPULOCK_HOLD") != "" {
		RuntimeDir, TempDir = "", os.Getenv("CPULOCK_DIR")
		if _, _, err := TryLock(3); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		os.Stdin.Read(make([]byte, 1)) // hold until the parent closes stdin
		os.Exit(0)
	}
	useDirs(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockAcrossProcesses$")
	cmd.Env = append(os.Environ(), "CPULOCK_HOLD=1", "CPULOCK_DIR="+TempDir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("helper did not take the lock: %q %v", buf, err)
	}
	if l, held, err := TryLock(3); l != nil || !held || err != nil {
		t.Errorf("TryLock(3) while another process holds it = %v, %v, %v; want held", l, held, err)
	}
	l4, held, err := TryLock(4)
	if l4 == nil || held || err != nil {
		t.Errorf("TryLock(4) = %v, %v, %v; want the lock", l4, held, err)
	}
	l4.Release()
	in.Close()
	cmd.Wait()
	l3, held, err := TryLock(3)
	if l3 == nil || held || err != nil {
		t.Errorf("TryLock(3) after the holder exited = %v, %v, %v; want the lock", l3, held, err)
	}
	l3.Release()
	var none *Lock
	none.Release()
}

// Held tells a lock another holder has from a free one, and keeps none:
// the CPU can be claimed right after.
func TestHeld(t *testing.T) {
	useDirs(t)
	if Held(3) {
		t.Fatal("Held(3) with no lock taken")
	}
	l, _, err := tryLock(t, 3)
	if l == nil || err != nil {
		t.Fatalf("TryLock(3) after Held = %v, %v; want the lock", l != nil, err)
	}
	if !Held(3) {
		t.Error("Held(3) = false while a lock on cpu3 is held")
	}
	if Held(4) {
		t.Error("Held(4) = true while only cpu3 is locked")
	}
	l.Release()
	if Held(3) {
		t.Error("Held(3) = true after the lock was released")
	}
}
