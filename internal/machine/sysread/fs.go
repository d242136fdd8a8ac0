package sysread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// maxFileSize caps every read: /proc and /sys report sizes of 0 or 4096
// whatever they hold, so reads go to EOF, but never without a limit.
const maxFileSize = 1 << 20

// FS is the root directory /proc and /sys are read under: "/" for this
// machine, or a fixture tree such as testdata/machines/vm.
type FS string

// Path joins parts under the root.
func (r FS) Path(parts ...string) string {
	return filepath.Join(append([]string{string(r)}, parts...)...)
}

// read returns the content of a file under the root, at most maxFileSize
// bytes. Only a regular file is read: /proc and /sys hold nothing else, and
// a FIFO or a device in a tree would hang the read (the open itself is
// non-blocking, so a FIFO without a writer cannot hang it either).
func (r FS) read(name string) ([]byte, error) {
	f, err := os.OpenFile(r.Path(name), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", name, fi.Mode().Type())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxFileSize)
	}
	return b, nil
}

// exists reports whether name exists under the root.
func (r FS) exists(name string) bool {
	_, err := os.Stat(r.Path(name))
	return err == nil
}

// ValidateRoot returns an error when root holds neither proc/stat nor
// sys/devices/system/cpu: then it is not the /proc and /sys of a machine
// (a fixture tree or "/"), and every fact read there would be unknown.
// A tree with only one of them is accepted: its other facts are unknown
// with their reasons.
func ValidateRoot(root string) error {
	r := FS(root)
	if r.exists("proc/stat") || r.exists(cpuDir) {
		return nil
	}
	return fmt.Errorf("%s is not the /proc and /sys of a machine: it has neither proc/stat nor %s", root, cpuDir)
}

// readString reads a one-value file and trims the newline.
func (r FS) readString(name string) (string, error) {
	b, err := r.read(name)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// why turns a read error into the reason of an unknown fact. An absent file
// gets the given explanation (or "no <name>"), other errors their text.
func why(name string, err error, absent string) string {
	if errors.Is(err, fs.ErrNotExist) {
		if absent != "" {
			return absent
		}
		return "no " + name
	}
	return err.Error()
}

// stringFact reads a one-line file as a Fact.
func (r FS) stringFact(name, absent string) machine.Fact[string] {
	s, err := r.readString(name)
	if err != nil {
		return machine.Unknown[string]("%s", why(name, err, absent))
	}
	return machine.Known(s)
}

// intFact reads a file holding one integer.
func (r FS) intFact(name, absent string) machine.Fact[int64] {
	s, err := r.readString(name)
	if err != nil {
		return machine.Unknown[int64]("%s", why(name, err, absent))
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return machine.Unknown[int64]("%s: not an integer: %q", name, units.Clip(s))
	}
	return machine.Known(v)
}

// listFact reads a file holding a CPU list ("0-3,8-11"; empty is no CPUs).
func (r FS) listFact(name, absent string) machine.Fact[machine.CPUList] {
	s, err := r.readString(name)
	if err != nil {
		return machine.Unknown[machine.CPUList]("%s", why(name, err, absent))
	}
	l, err := machine.ParseCPUList(s)
	if err != nil {
		return machine.Unknown[machine.CPUList]("%s: %v", name, err)
	}
	return machine.Known(machine.CPUList(l))
}
