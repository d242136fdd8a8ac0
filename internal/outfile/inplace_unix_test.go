//go:build unix

package outfile

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for benchy under a real shell:
// with BENCHY_OUTFILE_HELPER set it checks and writes BENCHY_OUTFILE_PATH
// (and, if set, refuses BENCHY_OUTFILE_SAME as the same file), as the CLI
// will, and exits 2 on a Check error like benchy.
//
// Under -race the helper would sleep a second as it exits with status 0
// (the detector's atexit_sleep_ms, a grace for other goroutines' reports):
// eleven such exits made the package take 14 s, not 2. The detector still
// reports a race where it sees one.
func TestMain(m *testing.M) {
	if os.Getenv("BENCHY_OUTFILE_HELPER") == "1" {
		os.Exit(helper())
	}
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

func helper() int {
	d, err := Check("--out", os.Getenv("BENCHY_OUTFILE_PATH"), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchy:", err)
		return 2
	}
	if other := os.Getenv("BENCHY_OUTFILE_SAME"); other != "" {
		o, err := Check("--samples-file", other, Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchy:", err)
			return 2
		}
		if Same(d, o) {
			fmt.Fprintln(os.Stderr, "benchy: --out and --samples-file name the same file")
			return 2
		}
	}
	if err := d.Write(writeString("RESULT\n")); err != nil {
		fmt.Fprintln(os.Stderr, "benchy:", err)
		return 1
	}
	return 0
}

// shell runs script with sh in dir, $H being the helper writing path; it
// returns the exit code and what the helper said on stderr.
func shell(t *testing.T, dir, script, path, same string) (int, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "H="+self, "BENCHY_OUTFILE_HELPER=1",
		"BENCHY_OUTFILE_PATH="+path, "BENCHY_OUTFILE_SAME="+same)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// TestDescriptorsAreWrittenInPlace: a path naming one of benchy's own
// descriptors is written through it, so the shell's >> appends, what the
// shell wrote before and after stays, and the file is not renamed over.
func TestDescriptorsAreWrittenInPlace(t *testing.T) {
	procFD := "/proc/self/fd/1"
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		procFD = "/dev/fd/1" // no /proc here
	}
	for _, c := range []struct {
		name, path, script, before, want string
	}{
		{"/dev/stdout >> log appends", "/dev/stdout", `"$H" >> log`, "old\n", "old\nRESULT\n"},
		{"/dev/fd/1 >> log appends", "/dev/fd/1", `"$H" >> log`, "old\n", "old\nRESULT\n"},
		{"/proc/self/fd/1 >> log appends", procFD, `"$H" >> log`, "old\n", "old\nRESULT\n"},
		{"/dev/stderr 2>> log appends", "/dev/stderr", `"$H" 2>> log`, "old\n", "old\nRESULT\n"},
		{"/dev/fd/3 3>> log appends", "/dev/fd/3", `"$H" 3>> log`, "old\n", "old\nRESULT\n"},
		{"a link to /dev/stdout", "link", `ln -s /dev/stdout link && "$H" >> log`, "old\n", "old\nRESULT\n"},
		{"{ echo A; benchy; echo B; } > log keeps A and B", "/dev/stdout", `{ echo A; "$H"; echo B; } > log`, "old\n", "A\nRESULT\nB\n"},
		{"the same with /dev/fd/1", "/dev/fd/1", `{ echo A; "$H"; echo B; } > log`, "", "A\nRESULT\nB\n"},
		{"through a pipe", "/dev/stdout", `"$H" | cat > log`, "", "RESULT\n"},
		// Another process's descriptor: the inner sh's, named by its pid.
		{"/proc/PID/fd/1 >> log appends", "proc", `sh -c 'BENCHY_OUTFILE_PATH=/proc/$$/fd/1 "$H"; :' >> log`, "old\n", "old\nRESULT\n"},
		{"/proc/PID/fd/1, a pipe", "proc", `sh -c 'BENCHY_OUTFILE_PATH=/proc/$$/fd/1 "$H"; :' | cat > log`, "", "RESULT\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.path == "proc" && procFD == "/dev/fd/1" {
				t.Skip("no /proc here")
			}
			dir := t.TempDir()
			log := filepath.Join(dir, "log")
			os.WriteFile(log, []byte(c.before), 0o644)
			fi, _ := os.Stat(log)
			if code, stderr := shell(t, dir, c.script, c.path, ""); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := readFile(t, log); got != c.want {
				t.Errorf("log holds %q, want %q", got, c.want)
			}
			if now, err := os.Stat(log); err != nil || !os.SameFile(fi, now) {
				t.Errorf("log was replaced, not written in place")
			}
			for _, n := range names(t, dir) {
				if n != "log" && n != "link" {
					t.Errorf("left behind: %s", n)
				}
			}
		})
	}
}

// TestDescriptorsThatCannotBeWritten are refused by Check, exit 2.
func TestDescriptorsThatCannotBeWritten(t *testing.T) {
	for _, c := range []struct{ name, path, script, same, want string }{
		// (Not fd 1: the Go runtime opens /dev/null on a closed 0, 1 or 2.)
		{"closed", "/dev/fd/9", `"$H" 9>&-`, "", "descriptor 9 is not open"},
		{"never opened", "/dev/fd/7", `"$H"`, "", "descriptor 7 is not open"},
		{"open for reading", "/dev/fd/3", `"$H" 3< log`, "", "descriptor 3 is open only for reading"},
		{"the same file as --samples-file", "/dev/stdout", `"$H" >> log`, "log", "name the same file"},
		{"the same file through /proc", "/dev/stdout", `"$H" >> log`, "/dev/fd/1", "name the same file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "log"), []byte("old\n"), 0o644)
			code, stderr := shell(t, dir, c.script, c.path, c.same)
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line saying %q", code, stderr, c.want)
			}
			if got := readFile(t, filepath.Join(dir, "log")); got != "old\n" {
				t.Errorf("log holds %q, want it untouched", got)
			}
		})
	}
}

// TestSameDescriptor: /dev/stdout and /proc/self/fd/1 are one file.
func TestSameDescriptor(t *testing.T) {
	paths := []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", fmt.Sprintf("/proc/%d/fd/1", os.Getpid())}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		paths = paths[:2]
	}
	for _, a := range paths {
		for _, b := range paths {
			t.Run(a+" "+b, func(t *testing.T) {
				if !Same(mustCheck(t, a, Options{}), mustCheck(t, b, Options{})) {
					t.Errorf("not the same")
				}
			})
		}
	}
	if Same(mustCheck(t, "/dev/stdout", Options{}), mustCheck(t, filepath.Join(t.TempDir(), "r"), Options{})) {
		t.Errorf("/dev/stdout is the same as a new file")
	}
}

// TestDevicesAreWrittenInPlace: /dev/null is opened and written, not
// renamed over (which would replace the device with a file).
func TestDevicesAreWrittenInPlace(t *testing.T) {
	d := mustCheck(t, os.DevNull, Options{})
	if err := d.Write(writeString("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device", os.DevNull)
	}
}

func TestOwnFD(t *testing.T) {
	pid := fmt.Sprint(os.Getpid())
	for _, c := range []struct {
		path string
		fd   int
		ok   bool
	}{
		{"/dev/stdin", 0, true},
		{"/dev/stdout", 1, true},
		{"/dev/stderr", 2, true},
		{"/dev/fd/9", 9, true},
		{"/dev//fd/./12", 12, true},
		{"/proc/self/fd/1", 1, true},
		{"/proc/thread-self/fd/4", 4, true},
		{"/proc/" + pid + "/fd/5", 5, true},
		{"/proc/1/fd/1", 0, false}, // another process's
		{"/dev/fd/", 0, false},
		{"/dev/fd/+1", 0, false},
		{"/dev/fd/x", 0, false},
		{"/dev/null", 0, false},
		{"stdout", 0, false},
	} {
		t.Run(c.path, func(t *testing.T) {
			if fd, ok := ownFD(c.path); fd != c.fd || ok != c.ok {
				t.Errorf("ownFD = %d, %v; want %d, %v", fd, ok, c.fd, c.ok)
			}
		})
	}
}

// TestSocketsAndDisksAreRefused: a socket cannot be opened for writing, and
// a result written onto a disk device would destroy what is on it.
func TestSocketsAndDisksAreRefused(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	defer l.Close()
	_, err = Check("--out", sock, Options{})
	wantOneLine(t, err, sock, "is a socket")

	disks, _ := filepath.Glob("/dev/[shv]d[a-z]")
	loops, _ := filepath.Glob("/dev/loop[0-9]")
	for _, disk := range append(disks, loops...) {
		if fi, err := os.Stat(disk); err == nil && fi.Mode()&fs.ModeDevice != 0 && fi.Mode()&fs.ModeCharDevice == 0 {
			_, err := Check("--out", disk, Options{})
			wantOneLine(t, err, disk, "is a block device")
			return
		}
	}
	t.Log("no block device to try")
}
