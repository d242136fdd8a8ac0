package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func mkfifo(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "p")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	return fifo
}

// hungUp reports whether a writer has opened and closed the FIFO that fd
// reads since fd was opened without blocking: Linux reports POLLHUP only
// after it has seen a writer.
func hungUp(t *testing.T, fd int) bool {
	t.Helper()
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(p, 0); err != nil {
		t.Fatal(err)
	}
	return p[0].Revents&unix.POLLHUP != 0
}

// TestCheckDoesNotOpenTheFIFO: opening a FIFO and closing it would end its
// reader's input (a waiting "cat p" would see end of file), so Check only
// asks whether it may write.
func TestCheckDoesNotOpenTheFIFO(t *testing.T) {
	fifo := mkfifo(t)
	r, err := unix.Open(fifo, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(r)
	mustCheck(t, fifo, Options{})
	if hungUp(t, r) {
		t.Fatal("Check opened the FIFO for writing and closed it")
	}
	// The test itself: opening and closing does show.
	w, err := unix.Open(fifo, unix.O_WRONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(w)
	if !hungUp(t, r) {
		t.Fatal("POLLHUP does not show a writer that came and went")
	}
}

// TestFIFOWithoutAReader: Check accepts it (a reader may come while
// measuring), Write fails at once with one clear line instead of waiting
// forever in open(2), and the FIFO is still a FIFO.
func TestFIFOWithoutAReader(t *testing.T) {
	fifo := mkfifo(t)
	d := mustCheck(t, fifo, Options{})
	err := d.Write(writeString("x"))
	wantOneLine(t, err, "could not write "+fifo, "no reader on the pipe")
	if !errors.Is(err, syscall.ENXIO) {
		t.Errorf("error %v is not ENXIO", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}
	wantNames(t, filepath.Dir(fifo), "p")
}

// TestFIFOWithAReader: more than a pipe holds goes through, which needs
// the descriptor to be blocking again after the non-blocking open.
func TestFIFOWithAReader(t *testing.T) {
	fifo := mkfifo(t)
	// O_RDWR: a reader that exists before Write looks (Linux allows it).
	r, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := mustCheck(t, fifo, Options{})
	data := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB, beyond the pipe's buffer
	done := make(chan error, 1)
	go func() {
		done <- d.Write(func(w io.Writer) error {
			if err := wantBlocking(w); err != nil {
				return err
			}
			_, err := io.WriteString(w, data)
			return err
		})
	}()
	got := make([]byte, len(data))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if string(got) != data {
		t.Errorf("the reader got other bytes")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}
}

// wantBlocking fails unless w is a file whose descriptor is blocking.
func wantBlocking(w io.Writer) error {
	f, ok := w.(*os.File)
	if !ok {
		return errors.New("not a file")
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var flags int
	rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err == nil && flags&unix.O_NONBLOCK != 0 {
		err = errors.New("the descriptor is still non-blocking")
	}
	return err
}
