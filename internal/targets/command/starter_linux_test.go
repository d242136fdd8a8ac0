package command

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The starter's image is an executable the ELF reader accepts: one
// read-and-execute segment holding the whole file, entered at its code,
// and a stack that is not executable.
func TestStarterImage(t *testing.T) {
	code := []byte{0xf4, 0xf4, 0xf4}
	img := starterImage(elf.EM_X86_64, code)
	f, err := elf.NewFile(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	if f.Type != elf.ET_EXEC || f.Machine != elf.EM_X86_64 || len(f.Progs) != 2 {
		t.Fatalf("type %v, machine %v, %d program headers", f.Type, f.Machine, len(f.Progs))
	}
	load, stack := f.Progs[0], f.Progs[1]
	if load.Type != elf.PT_LOAD || load.Flags != elf.PF_R|elf.PF_X || load.Off != 0 || load.Filesz != uint64(len(img)) {
		t.Errorf("load segment %+v, want the whole %d-byte file, read and execute", load.ProgHeader, len(img))
	}
	if off := f.Entry - load.Vaddr; off != uint64(len(img)-len(code)) || !bytes.Equal(img[off:], code) {
		t.Errorf("entry at offset %d of %d bytes, want the code's", off, len(img))
	}
	if stack.Type != elf.PT_GNU_STACK || stack.Flags&elf.PF_X != 0 {
		t.Errorf("stack header %+v, want a non-executable stack", stack.ProgHeader)
	}
}

func TestParseStart(t *testing.T) {
	words := func(vs ...int32) []byte {
		var b bytes.Buffer
		binary.Write(&b, binary.LittleEndian, vs)
		return b.Bytes()
	}
	for _, tc := range []struct {
		name    string
		in      []byte
		pid     int
		errno   unix.Errno // 0: no errno
		starter bool       // the error wraps errStarter
	}{
		{"started", words(4242), 4242, 0, false},
		{"execve failed", words(-int32(unix.ENOENT), 4242), 4242, unix.ENOENT, false},
		{"clone failed", words(-int32(unix.EAGAIN)), 0, unix.EAGAIN, false},
		{"nothing: the starter died", nil, 0, 0, true},
		{"a torn word", []byte{1, 2, 3}, 0, 0, true},
		{"a zero", words(0), 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pid, err := parseStart(tc.in)
			if pid != tc.pid || (tc.errno != 0) != errors.Is(err, tc.errno) || tc.starter != errors.Is(err, errStarter) ||
				(err == nil) != (tc.errno == 0 && !tc.starter) {
				t.Errorf("parseStart = %d, %v; want pid %d, errno %v, errStarter %v", pid, err, tc.pid, tc.errno, tc.starter)
			}
		})
	}
}

// A run whose execve fails through the starter is an error that says
// why, and leaves no child of this process behind, started or not; the
// session's next run works.
func TestStarterExecFailure(t *testing.T) {
	if starterCode == nil {
		t.Skip("no starter for " + runtime.GOARCH)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sess := newSession(1, 2)
	defer sess.close()
	if sess.starter == nil {
		t.Fatalf("no starter: %s", sess.report.Notes[CounterRSSFloor])
	}
	plain := filepath.Join(t.TempDir(), "plain")
	os.WriteFile(plain, []byte("not a program\n"), 0o644)
	_, err := sess.run(context.Background(), Job{Line: plain, Path: plain, Args: []string{plain}})
	if !errors.Is(err, unix.EACCES) || errors.Is(err, errStarter) {
		t.Errorf("run of a file that is not executable: %v, want EACCES from its execve", err)
	}
	if pid, err := unix.Wait4(-1, nil, unix.WNOHANG, nil); pid > 0 {
		t.Errorf("a child (%d) was left to reap: %v", pid, err)
	}
	tr := "/bin/true"
	r, err := sess.run(context.Background(), Job{Line: tr, Path: tr, Args: []string{tr}})
	if err != nil || !r.Status.OK() || r.Counters[CounterMaxRSS] <= 0 {
		t.Errorf("the next run: %+v, %v", r, err)
	}
}

// Without /dev/null the starter cannot be tried: the session goes
// without it and says why, not "did not work: <nil>".
func TestStarterUntriedWithoutDevNull(t *testing.T) {
	if starterCode == nil {
		t.Skip("no starter for " + runtime.GOARCH)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := &session{env: os.Environ()} // devnull nil: it did not open
	why := s.useStarter()
	if s.starter != nil || strings.Contains(why, "<nil>") || !strings.Contains(why, os.DevNull) {
		if s.starter != nil {
			s.starter.close()
		}
		t.Errorf("useStarter without %s: starter %v, why %q; want none, and why naming %s", os.DevNull, s.starter != nil, why, os.DevNull)
	}
}
