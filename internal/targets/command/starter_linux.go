package command

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// starter is what starts the runs where it can: a static program of a
// few hundred bytes (starterCode), held in a memfd, which a session
// executes in place of each run's program, with the run's path and argv
// as its arguments. It clones the run with CLONE_PARENT|CLONE_VM|
// CLONE_VFORK, so the run is the session's own child (wait4, waitid and
// its /proc files work as for a direct fork), but the address space the
// run shares until its execve, whose peak RSS the kernel records as the
// run's own (ru_maxrss), is the starter's few pages rather than the MiB
// of the Go process that forked it. The starter writes the run's pid on
// fd 3 and exits; the run stays in the process group named after the
// starter's pid, which the session reaps only after the run, so the
// number is not given to another process while it may be signalled.
//
// The starter costs a run one more execve, of a file of one page, and its
// exit, inside the run's wall time and task-clock: for true on a busy
// 2-vCPU VM, medians of 200 runs went from 2.9 to 3.4-3.6 ms of wall time
// and from 2.0 to 2.4 ms of task-clock; SpawnCost, a run of true, pays it
// as well.
type starter struct {
	fd   int    // a read-only descriptor of the memfd
	path string // /proc/self/fd/N: what execve opens
}

// starterName is the starter's argv[0], as ps shows it.
const starterName = "benchy-start"

// errStarter is wrapped by the error of a starter that did not report a
// run: it could not be executed, or it died (a stop kills it too).
var errStarter = errors.New("benchy's starter did not start the run")

// newStarter writes the starter into a memfd. The error says why there
// is none: an architecture without starterCode, or a kernel that does not
// give memfds (Linux 3.17) or refuses to execute one (vm.memfd_noexec=2).
func newStarter() (*starter, error) {
	if starterCode == nil {
		return nil, fmt.Errorf("no starter for %s", runtime.GOARCH)
	}
	// MFD_EXEC (Linux 6.3) says the file is meant to be executed; older
	// kernels refuse the flag and need none.
	w, err := unix.MemfdCreate(starterName, unix.MFD_CLOEXEC|unix.MFD_EXEC)
	if err == unix.EINVAL {
		w, err = unix.MemfdCreate(starterName, unix.MFD_CLOEXEC)
	}
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	defer unix.Close(w)
	img := starterImage(starterMachine, starterCode)
	if n, err := unix.Write(w, img); err != nil || n != len(img) {
		return nil, fmt.Errorf("write the starter: %d of %d bytes: %v", n, len(img), err)
	}
	// execve refuses a file that is open for writing (ETXTBSY): the
	// starter is executed through a read-only descriptor.
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(w), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("reopen the starter's memfd: %w", err)
	}
	return &starter{fd: fd, path: "/proc/self/fd/" + strconv.Itoa(fd)}, nil
}

func (st *starter) close() { unix.Close(st.fd) }

// argv is the starter's argument vector for j: its name, the program to
// execute, then the program's own argv.
func (st *starter) argv(j Job) []string {
	return append([]string{starterName, j.Path}, j.Args...)
}

// starterImage is a static ELF executable whose whole content is code,
// loaded read-only at a fixed address with a non-executable stack: the
// least the kernel runs.
func starterImage(machine elf.Machine, code []byte) []byte {
	const (
		base    = 0x400000
		headers = 64 + 2*56 // the ELF header and two program headers
	)
	var b bytes.Buffer
	h := elf.Header64{
		Type: uint16(elf.ET_EXEC), Machine: uint16(machine), Version: uint32(elf.EV_CURRENT),
		Entry: base + headers, Phoff: 64, Ehsize: 64, Phentsize: 56, Phnum: 2,
	}
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	h.Ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	h.Ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	size := uint64(headers + len(code))
	progs := []elf.Prog64{
		{Type: uint32(elf.PT_LOAD), Flags: uint32(elf.PF_R | elf.PF_X), Vaddr: base, Paddr: base, Filesz: size, Memsz: size, Align: 0x1000},
		{Type: uint32(elf.PT_GNU_STACK), Flags: uint32(elf.PF_R | elf.PF_W), Align: 16},
	}
	binary.Write(&b, binary.LittleEndian, h)
	binary.Write(&b, binary.LittleEndian, progs)
	b.Write(code)
	return b.Bytes()
}

// parseStart reads the starter's report: 32-bit little-endian words, the
// run's pid last (when it was cloned), a negative word the -errno of a
// failed clone or execve. A run whose execve failed exited (status 127)
// and is still to be reaped: pid is then > 0 with the error.
func parseStart(b []byte) (pid int, err error) {
	if len(b) == 0 || len(b)%4 != 0 {
		return 0, fmt.Errorf("%w: it reported %d bytes", errStarter, len(b))
	}
	for ; len(b) > 0; b = b[4:] {
		v := int32(binary.LittleEndian.Uint32(b))
		switch {
		case v < 0 && err == nil:
			err = unix.Errno(-v)
		case v > 0:
			pid = int(v)
		}
	}
	if pid == 0 && err == nil {
		err = fmt.Errorf("%w: it reported no pid", errStarter)
	}
	return pid, err
}
