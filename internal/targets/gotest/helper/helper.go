//go:build linux

// Code added by benchy gotest: it pins each benchmark to one CPU and
// records every call of a benchmark function.

// Package helper is the file benchy gotest adds (through -overlay) to
// every test package with benchmarks, with its package clause changed to
// that package's. It is a package of its own here so that it is compiled,
// vetted and tested with benchy; gotest embeds its source.
//
// It uses the standard library only (and only what package testing
// depends on), so it builds in any module and meets no import cycle, and
// names everything benchy..., so it meets no name of the package's.
package helper

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	benchyCPU = -1
	// benchyOut is the descriptor benchy passed for the records: only
	// the helper writes to it, so nothing the benchmark prints can pass
	// for a record.
	benchyOut *os.File
	benchyMu  sync.Mutex
	// benchyPar is set when the running call starts b.RunParallel.
	benchyPar atomic.Bool
	// benchyProfDir and benchyProfN, when benchy asks for profiles
	// (--profile), are where to write them and the b.N of the calls
	// to profile: the measured calls, not testing's N=1 probe.
	benchyProfDir string
	benchyProfN   = -1
	benchyProfSeq int
	// benchyUnpinned records the calls without pinning them, as go test
	// runs them: benchy measures a benchmark so when its figure may
	// depend on the pin.
	benchyUnpinned bool
)

// BenchyProfiler, set by the file benchy adds with --profile, starts
// (begin) and ends the profiles of one call, written to files named
// prefix.cpu, prefix.heap0 and prefix.heap1. It is exported because the
// file that sets it may be in the package's external test package: a
// package that runtime/pprof depends on (strconv, sort) cannot import it.
var BenchyProfiler func(begin bool, prefix string) error

// The environment benchy sets: the descriptor of the records and the CPU
// to pin to. Without them the helper does nothing and the binary is an
// ordinary test binary.
func init() {
	cpu, err := strconv.Atoi(os.Getenv("BENCHY_GOTEST_CPU"))
	fd, err2 := strconv.Atoi(os.Getenv("BENCHY_GOTEST_RECORDS_FD"))
	if err != nil || err2 != nil || cpu < 0 || cpu >= 64*len(benchyMask{}) || fd < 3 {
		return
	}
	// Not passed on to the programs a benchmark starts.
	syscall.CloseOnExec(fd)
	benchyCPU, benchyOut = cpu, os.NewFile(uintptr(fd), "benchy-records")
	benchyUnpinned = os.Getenv("BENCHY_GOTEST_UNPINNED") != ""
	if n, err := strconv.Atoi(os.Getenv("BENCHY_GOTEST_PROFILE_N")); err == nil && os.Getenv("BENCHY_GOTEST_PROFILE") != "" {
		benchyProfDir, benchyProfN = os.Getenv("BENCHY_GOTEST_PROFILE"), n
	}
}

// benchyParallel marks the running call as one that runs b.RunParallel:
// its goroutines run on threads of their own, which cannot be pinned.
//
//lint:ignore U1000 the test files Rewrite changes call it.
func benchyParallel(f func(*testing.PB)) func(*testing.PB) {
	benchyPar.Store(true)
	return f
}

// benchyWrap is the function given to b.Run, wrapped.
//
//lint:ignore U1000 the test files Rewrite changes call it.
func benchyWrap(f func(*testing.B)) func(*testing.B) {
	return func(b *testing.B) { benchyRun(b, f) }
}

// benchyRun runs one call of a benchmark function (see benchyMeasure) and
// records it: a start record before, and an end record however it ends,
// returned, ended by b.FailNow or b.SkipNow (runtime.Goexit), or in a
// panic, which is recorded with where it was raised and then goes on. A
// call whose process ends during it (os.Exit, a timeout, a signal) has no
// end record: benchy reads that from the start record.
func benchyRun(b *testing.B, f func(*testing.B)) {
	if benchyOut == nil {
		if benchyCountName != "" && b.Name() == benchyCountName {
			benchyCounted(b, f)
			return
		}
		f(b)
		return
	}
	name := b.Name()
	benchyWrite(`{"event":"start","name":` + benchyQuote(name) + `,"n":` + strconv.Itoa(b.N) + "}")
	benchyPar.Store(false)
	var m benchyCall
	defer func() {
		p := recover()
		benchyWrite(benchyEnd(b, name, &m, p))
		if p != nil {
			panic(p)
		}
	}()
	benchyMeasure(b, f, &m)
	m.returned = true
}

// benchyCountName is the benchmark benchy counts under callgrind
// (--measure instructions): its calls are marked, nothing is recorded.
var benchyCountName = os.Getenv("BENCHY_GOTEST_COUNT")

// benchyCounted runs one call between the two marks callgrind starts and
// ends its count at (--zero-before, --dump-before), on one thread, since
// callgrind counts per thread.
func benchyCounted(b *testing.B, f func(*testing.B)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	benchyCountStart()
	f(b)
	benchyCountEnd()
}

// benchyCountStart and benchyCountEnd are the marks: functions that are
// called, never inlined. callgrind toggles at their entry, so they need no
// body.
//
//go:noinline
func benchyCountStart() {}

//go:noinline
func benchyCountEnd() {}

// benchyCall is what benchyMeasure saw of one call.
type benchyCall struct {
	returned, pinned bool
	ns, wall         int64
	cpu              int
	counters         map[string]int64
	fn               string
	profile          string // the prefix of the call's profiles
}

// benchyMeasure runs f on its goroutine's thread, locked and pinned to the
// measured CPU, after taking that CPU away from every other thread of the
// process (Go's GC workers, sysmon, the goroutines of testing), exactly
// as benchy pins its own measured thread; it reads the thread's counters
// around the call and resets testing's timer after the pinning, so the
// pinning is not timed. It stops testing's timer when f returns (testing
// would, a moment later), so that what testing timed, b.Elapsed (which
// honours ResetTimer and StopTimer), and its allocation counts are final.
func benchyMeasure(b *testing.B, f func(*testing.B), m *benchyCall) {
	runtime.LockOSThread()
	var old benchyMask
	m.pinned = !benchyUnpinned && benchyAffinity(true, 0, &old) == nil
	if m.pinned {
		benchyIsolate(benchyCPU)
		var mask benchyMask
		mask[benchyCPU/64] = 1 << (uint(benchyCPU) % 64)
		m.pinned = benchyAffinity(false, 0, &mask) == nil
		runtime.Gosched() // the kernel moves the thread at the next scheduling point
	}
	c := map[string]int64{}
	prefix := ""
	if BenchyProfiler != nil && benchyProfDir != "" && b.N == benchyProfN {
		// Outside the counters and testing's timer: the profiles'
		// own work (a collection, writing the heap profile) is not
		// the call's.
		benchyProfSeq++
		prefix = benchyProfDir + "/" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(benchyProfSeq)
		if BenchyProfiler(true, prefix) != nil {
			prefix = ""
		}
	}
	benchyHeap(c, -1)
	benchyCounters(c, -1)
	start := time.Now()
	b.ResetTimer()
	f(b)
	m.wall = time.Since(start).Nanoseconds()
	b.StopTimer()
	m.ns = b.Elapsed().Nanoseconds()
	benchyCounters(c, 1)
	benchyHeap(c, 1)
	if prefix != "" && BenchyProfiler(false, prefix) == nil {
		m.profile = prefix
	}
	cpu := int32(-1)
	if nr, ok := benchyGetcpu[runtime.GOARCH]; ok {
		syscall.RawSyscall(nr, uintptr(unsafe.Pointer(&cpu)), 0, 0)
	}
	if m.pinned {
		benchyAffinity(false, 0, &old)
	}
	runtime.UnlockOSThread()
	m.cpu, m.counters = int(cpu), c
	m.fn = runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// benchyEnd is the end record of a call: how it ended (p is what it
// panicked with), testing's own state of b, and, for a call that
// returned, what was measured.
func benchyEnd(b *testing.B, name string, m *benchyCall, p interface{}) string {
	var s strings.Builder
	s.WriteString(`{"event":"end","name":` + benchyQuote(name) + `,"n":` + strconv.Itoa(b.N) +
		`,"returned":` + strconv.FormatBool(m.returned) + `,"failed":` + strconv.FormatBool(b.Failed()) +
		`,"skipped":` + strconv.FormatBool(b.Skipped()))
	if sub, ok := benchyField(b, "hasSub"); ok && sub.Kind() == reflect.Struct {
		// testing's own mark of a benchmark that ran b.Run (an atomic.Bool).
		if v := sub.FieldByName("v"); v.IsValid() && v.Kind() == reflect.Uint32 {
			s.WriteString(`,"subs":` + strconv.FormatBool(v.Uint() != 0))
		}
	}
	if p != nil {
		msg := fmt.Sprint(p)
		if len(msg) > 4096 {
			msg = msg[:4096] + "..."
		}
		s.WriteString(`,"panic":` + benchyQuote(msg) + `,"panic_at":` + benchyQuote(benchyPanicSite()))
	}
	if m.returned {
		s.WriteString(`,"ns":` + strconv.FormatInt(m.ns, 10) + `,"wall":` + strconv.FormatInt(m.wall, 10) +
			`,"cpu":` + strconv.Itoa(m.cpu) + `,"pinned":` + strconv.FormatBool(m.pinned) +
			`,"parallel":` + strconv.FormatBool(benchyPar.Load()) + `,"func":` + benchyQuote(m.fn) +
			`,"counters":` + benchyInts(m.counters))
		if m.profile != "" {
			s.WriteString(`,"profile":` + benchyQuote(m.profile))
		}
		benchyTestingCounts(&s, b)
	}
	s.WriteString("}")
	return s.String()
}

// benchyTestingCounts adds what testing counted over its timer (the
// allocations, b.SetBytes, b.ReportMetric's values), read from b's fields
// after the timer stopped: testing has no method that returns them, and
// they are what go test prints as B/op, allocs/op, MB/s and the units of
// ReportMetric. A field this Go's testing does not have is left out.
func benchyTestingCounts(s *strings.Builder, b *testing.B) {
	allocs, ok1 := benchyField(b, "netAllocs")
	bytes, ok2 := benchyField(b, "netBytes")
	if ok1 && ok2 && allocs.Kind() == reflect.Uint64 && bytes.Kind() == reflect.Uint64 {
		s.WriteString(`,"mem":true,"allocs":` + strconv.FormatUint(allocs.Uint(), 10) + `,"bytes":` + strconv.FormatUint(bytes.Uint(), 10))
	}
	if set, ok := benchyField(b, "bytes"); ok && set.Kind() == reflect.Int64 {
		s.WriteString(`,"set_bytes":` + strconv.FormatInt(set.Int(), 10))
	}
	if extra, ok := benchyField(b, "extra"); ok && extra.Kind() == reflect.Map && extra.Len() > 0 &&
		extra.Type().Key().Kind() == reflect.String && extra.Type().Elem().Kind() == reflect.Float64 {
		s.WriteString(`,"metrics":{`)
		sep := ""
		for it := extra.MapRange(); it.Next(); {
			if v := it.Value().Float(); v-v == 0 { // JSON has no NaN or infinity
				s.WriteString(sep + benchyQuote(it.Key().String()) + ":" + strconv.FormatFloat(v, 'g', -1, 64))
				sep = ","
			}
		}
		s.WriteString("}")
	}
}

// benchyField is the field of testing.B (or of the common part it
// embeds) named name, readable though not exported.
func benchyField(b *testing.B, name string) (reflect.Value, bool) {
	v := reflect.ValueOf(b).Elem().FieldByName(name)
	return v, v.IsValid()
}

// benchyPanicSite is where the panic being recovered was raised: the first
// frame of the panicking goroutine outside the runtime, the standard
// library and this file, as "file.go:line"; else the first outside the
// runtime and this file.
func benchyPanicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(0, pcs)])
	goroot := ""
	var first string
	for {
		fr, more := frames.Next()
		if fr.Function == "runtime.Callers" {
			// GOROOT/src/runtime/extern.go: where the standard library is.
			goroot = strings.TrimSuffix(fr.File, "runtime/"+benchyBase(fr.File))
		}
		own := strings.Contains(fr.File, "zz_benchy_helper") || strings.HasSuffix(fr.Function, ".benchyPanicSite") ||
			strings.Contains(fr.Function, ".benchyRun")
		if !own && !strings.HasPrefix(fr.Function, "runtime.") && fr.File != "" {
			site := benchyBase(fr.File) + ":" + strconv.Itoa(fr.Line)
			if goroot == "" || !strings.HasPrefix(fr.File, goroot) {
				return site
			}
			if first == "" {
				first = site
			}
		}
		if !more {
			return first
		}
	}
}

func benchyBase(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// benchyWrite writes one record, whole.
func benchyWrite(line string) {
	benchyMu.Lock()
	defer benchyMu.Unlock()
	benchyOut.WriteString(line + "\n")
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
	for pass := 0; pass < 5; pass++ {
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

// benchyHeap counts the heap allocations and the collections completed
// (runtime.ReadMemStats stops the world: it is read outside the counters
// and the wall time).
func benchyHeap(c map[string]int64, sign int64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	c["heap-allocs"] += sign * int64(m.Mallocs)
	c["heap-alloc-bytes"] += sign * int64(m.TotalAlloc)
	c["gc-cycles"] += sign * int64(m.NumGC)
}

// benchyQuote is s as a JSON string (bytes that are not UTF-8 are kept as
// they are; a JSON reader makes them U+FFFD).
func benchyQuote(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			b = append(b, '\\', ch)
		case ch < 0x20 || ch == 0x7f:
			b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[ch>>4], "0123456789abcdef"[ch&15])
		default:
			b = append(b, ch)
		}
	}
	return string(append(b, '"'))
}

// benchyInts is the counters as a JSON object.
func benchyInts(c map[string]int64) string {
	s := "{"
	for k, v := range c {
		if len(s) > 1 {
			s += ","
		}
		s += benchyQuote(k) + ":" + strconv.FormatInt(v, 10)
	}
	return s + "}"
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
