package gotest

import "strings"

// Environment of a test binary run by benchy: where the helper writes its
// records, and the CPU it pins the benchmarks' threads to. Without them the
// helper does nothing and the binary is an ordinary test binary.
const (
	envRecords = "BENCHY_GOTEST_RECORDS"
	envCPU     = "BENCHY_GOTEST_CPU"
)

// helperFile is the name of the file added to the package under test.
const helperFile = "zz_benchy_helper_test.go"

// helperSource is the file added (through -overlay) to every test package
// with benchmarks, in that package. It uses the standard library only, so
// it builds in any module, and names everything benchy..., so it meets no
// name of the package's. benchyRun runs one call of a benchmark function
// on its goroutine's thread, locked and pinned to the measured CPU, after
// taking that CPU away from every other thread of the process (Go's GC
// workers, sysmon, the goroutines of testing), exactly as benchy pins its
// own measured thread; it reads the thread's counters around the call,
// resets testing's timer after the pinning so the pinning is not timed,
// and writes one line per call: the benchmark's name, b.N, what testing
// timed (b.Elapsed, which honours ResetTimer and StopTimer), the CPU the
// call ended on, whether the pin held, the counters, the wall time of the
// whole call (more than testing timed when it stopped or reset its timer),
// and the function's symbol (for the machine-code checks).
const helperSource = `// Code added by benchy gotest: it pins each benchmark to one CPU.

package PACKAGE

import (
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// benchyGetcpu is getcpu(2)'s number, which package syscall does not
// name on every architecture.
var benchyGetcpu = map[string]uintptr{"amd64": 309, "arm64": 168, "riscv64": 168, "loong64": 168,
	"386": 318, "arm": 345, "ppc64le": 302, "ppc64": 302, "s390x": 311}

var (
	benchyOnce sync.Once
	benchyCPU  = -1
	benchyOut  *os.File
	benchyMu   sync.Mutex
	benchyPar  = map[string]bool{}
)

// benchyParallel marks a benchmark that runs b.RunParallel: its
// goroutines run on threads of their own, which cannot be pinned.
func benchyParallel(b *testing.B, f func(*testing.PB)) func(*testing.PB) {
	benchyMu.Lock()
	benchyPar[b.Name()] = true
	benchyMu.Unlock()
	return f
}

func benchyInit() {
	cpu, err := strconv.Atoi(os.Getenv("BENCHY_GOTEST_CPU"))
	path := os.Getenv("BENCHY_GOTEST_RECORDS")
	if err != nil || path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	benchyCPU, benchyOut = cpu, f
}

type benchyMask [16]uint64

func benchyAffinity(get bool, tid int, m *benchyMask) error {
	nr := uintptr(syscall.SYS_SCHED_SETAFFINITY)
	if get {
		nr = syscall.SYS_SCHED_GETAFFINITY
	}
	if _, _, e := syscall.RawSyscall(nr, uintptr(tid), unsafe.Sizeof(*m), uintptr(unsafe.Pointer(m))); e != 0 {
		return e
	}
	return nil
}

func (m *benchyMask) has(c int) bool { return m[c/64]&(1<<(uint(c)%64)) != 0 }

func (m *benchyMask) count() int {
	n := 0
	for _, w := range m {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// benchyIsolate takes cpu away from every other thread of the process,
// pass after pass until one changes nothing (a thread made meanwhile may
// have copied an old mask); a thread that may run nowhere else keeps it.
func benchyIsolate(cpu int) {
	self := syscall.Gettid()
	for range 5 {
		changed := false
		entries, _ := os.ReadDir("/proc/self/task")
		for _, e := range entries {
			tid, err := strconv.Atoi(e.Name())
			if err != nil || tid == self {
				continue
			}
			var m benchyMask
			if benchyAffinity(true, tid, &m) != nil || !m.has(cpu) || m.count() == 1 {
				continue
			}
			m[cpu/64] &^= 1 << (uint(cpu) % 64)
			if benchyAffinity(false, tid, &m) == nil {
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}

func benchyCounters(c map[string]int64, sign int64) {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) == nil { // RUSAGE_THREAD
		c["voluntary-cs"] += sign * ru.Nvcsw
		c["involuntary-cs"] += sign * ru.Nivcsw
		c["minor-faults"] += sign * ru.Minflt
	}
	if d, ok := benchyRunDelay(); ok {
		c["run-delay-ns"] += sign * d
	}
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); e == 0 { // CLOCK_THREAD_CPUTIME_ID
		c["thread-cpu-ns"] += sign * ts.Nano()
	}
}

// benchyHeap counts the heap allocations (runtime.ReadMemStats stops the
// world: it is read outside the counters and the wall time).
func benchyHeap(c map[string]int64, sign int64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	c["heap-allocs"] += sign * int64(m.Mallocs)
	c["heap-alloc-bytes"] += sign * int64(m.TotalAlloc)
}

// benchyQuote is s as a JSON string.
func benchyQuote(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			b = append(b, '\\', ch)
		case ch < 0x20:
			b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[ch>>4], "0123456789abcdef"[ch&15])
		default:
			b = append(b, ch)
		}
	}
	return string(append(b, '"'))
}

// benchyRunDelay is the time the thread waited for a CPU, runnable
// (/proc/thread-self/schedstat's second field), read without allocating.
func benchyRunDelay() (int64, bool) {
	fd, err := syscall.Open("/proc/thread-self/schedstat", syscall.O_RDONLY, 0)
	if err != nil {
		return 0, false
	}
	var buf [96]byte
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return 0, false
	}
	field, v, digits := 0, int64(0), 0
	for _, ch := range buf[:n] {
		switch {
		case ch >= '0' && ch <= '9' && field == 1:
			v, digits = v*10+int64(ch-'0'), digits+1
		case ch == ' ':
			field++
		}
	}
	return v, digits > 0
}

func benchyWrap(f func(*testing.B)) func(*testing.B) {
	return func(b *testing.B) { benchyRun(b, f) }
}

func benchyRun(b *testing.B, f func(*testing.B)) {
	benchyOnce.Do(benchyInit)
	if benchyOut == nil {
		f(b)
		return
	}
	runtime.LockOSThread()
	var old benchyMask
	pinned := benchyAffinity(true, 0, &old) == nil
	if pinned {
		benchyIsolate(benchyCPU)
		var m benchyMask
		m[benchyCPU/64] = 1 << (uint(benchyCPU) % 64)
		pinned = benchyAffinity(false, 0, &m) == nil
		runtime.Gosched() // the kernel moves the thread at the next scheduling point
	}
	c := map[string]int64{}
	benchyHeap(c, -1)
	benchyCounters(c, -1)
	start := time.Now()
	b.ResetTimer()
	f(b)
	ns := b.Elapsed().Nanoseconds()
	wall := time.Since(start).Nanoseconds()
	benchyCounters(c, 1)
	// testing's ramp reads its timer when the call returns: stopped here,
	// it does not count the heap read below (it stops the world, which
	// waits for every thread) nor the record, in the time it sizes b.N by
	// or in its B/op.
	b.StopTimer()
	benchyHeap(c, 1)
	cpu := int32(-1)
	if nr, ok := benchyGetcpu[runtime.GOARCH]; ok {
		syscall.RawSyscall(nr, uintptr(unsafe.Pointer(&cpu)), 0, 0)
	}
	if pinned {
		benchyAffinity(false, 0, &old)
	}
	runtime.UnlockOSThread()
	benchyMu.Lock()
	defer benchyMu.Unlock()
	line := "{\"name\":" + benchyQuote(b.Name()) + ",\"n\":" + strconv.Itoa(b.N) + ",\"ns\":" + strconv.FormatInt(ns, 10) +
		",\"wall\":" + strconv.FormatInt(wall, 10) + ",\"cpu\":" + strconv.Itoa(int(cpu)) +
		",\"pinned\":" + strconv.FormatBool(pinned) + ",\"parallel\":" + strconv.FormatBool(benchyPar[b.Name()]) +
		",\"func\":" + benchyQuote(runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()) + ",\"counters\":{"
	first := true
	for k, v := range c {
		if !first {
			line += ","
		}
		line += benchyQuote(k) + ":" + strconv.FormatInt(v, 10)
		first = false
	}
	line += "}}"
	benchyOut.WriteString(line + "\n")
}
`

// helper returns the helper file for package pkg.
func helper(pkg string) []byte {
	return []byte(strings.Replace(helperSource, "package PACKAGE", "package "+pkg, 1))
}
