// Package benchy measures your Go functions the way a careful performance
// engineer would by hand, and says which numbers to believe.
//
// Register one Experiment per function, then call Main from your program's
// main. Your program becomes a benchy command line over your experiments:
//
//	go run . run                  # pinned, sampled, judged: every experiment
//	go run . run --bench mine/    # the ones whose name matches
//	go run . run --compare mine/a,mine/b   # is b faster than a? interleaved
//	go run . asm mine/sum         # the machine code of the measured loop
//	go run . list                 # what is registered
//
// plus report, compare (of saved results), machine and exec, as in
// benchy's own command (see its README); gotest, bisect and history are
// benchy's own.
//
// # What your program links
//
// Only what it uses: no database driver unless it asks for a history. To
// keep results with `run --store FILE.db` (or postgres://…), import a
// store beside this package, as a database/sql driver is imported:
//
//	import _ "github.com/benchy-dev/benchy/store/sqlite"   // or store/postgres
//
// Without it, --store names the package to import and exits 2. exec works
// from your program as from benchy: this package serves exec's helper
// (your program, re-executed) in its init, before your main runs.
//
// # The contract
//
// Loop(n) must do n ops and put every result where the compiler cannot drop
// it: pass it to Keep, or store it in a package-level variable such as
// SinkU64. Its input must come from somewhere the compiler cannot see
// through (a package variable, a closure's captured slice), never a
// constant, or the work is computed while compiling. Loop may be a closure;
// benchy finds its machine code from the function value and checks that the
// loop still loads its input when ReadsMemory says it should.
//
// On Linux, Loop runs on one thread pinned to the measured CPU, at
// GOMAXPROCS 1, as taskset -c CPU go test runs a benchmark: goroutines it
// starts take turns on that CPU (run --gomaxprocs N measures at N).
//
// Units and Unit say how much work one op is (4096 adds); with FloorCycles,
// the least cycles one unit can take on the best core, they let benchy call
// a time no core could reach "not believable".
//
// A bad registration (an empty or repeated name, a name with a comma, '#',
// a space or a control character, a nil Loop, negative Units or
// FloorCycles) makes Main print one line naming the experiment and exit 2.
//
// # Where benchy can pin
//
// On Linux the measured loop runs on one thread pinned to one CPU with Go's
// other threads kept off it. On other systems (macOS, Windows) your program
// still builds and runs: the loop runs on a locked thread that is not
// pinned, every result carries a "not-pinned" warning, and the machine
// facts read from /proc and /sys are "unknown" with the reason.
package benchy

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"unicode"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/command"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// Experiment is one function to measure.
type Experiment struct {
	// Name is "family/variant", e.g. "mine/sum": what --bench matches and
	// what results are matched by.
	Name string
	// Description says in one line what the experiment shows.
	Description string
	// Units is how many units of work one op performs (4096 adds); 0 when
	// unknown, which leaves out the check against FloorCycles.
	Units float64
	// Unit names one unit of work, singular ("add", "multiply").
	Unit string
	// FloorCycles is the least time in cycles one unit can take on the
	// best core there is; a median below Units*FloorCycles cycles means the
	// work did not run. Zero means 1/16 cycle (an add of a vector lane).
	FloorCycles float64
	// ReadsMemory says the work reads its input from memory, so a measured
	// loop without a load has lost its work.
	ReadsMemory bool
	// Setup, when not nil, runs once before warm-up, outside any timing,
	// on the measured thread.
	Setup func()
	// Loop performs n ops and keeps every result (Keep, or a sink).
	Loop func(n int)
	// Call, when not nil, performs one op, under the contract of Loop:
	// `run --latency` times every call alone and reports the percentiles
	// of the calls (p50 to p99.9, the max), which a loop's time per op
	// averages away. A call must take at least 20 times what reading the
	// clock twice costs (tens of ns, so about a microsecond), or it is
	// refused: time such calls in batches, with Loop.
	Call func()
}

// init lets the program be the helper that starts `exec`'s runs: the
// helper is this program re-executed, and it must serve before the
// program's own main (or its package variables) allocate anything, since
// what it holds is the floor of every run's peak memory. A package's init
// runs before its importers' and before main, which no call from main can.
func init() { command.MaybeServe() }

var (
	mu          sync.Mutex
	experiments []inproc.Workload
	problems    []string
)

// Register adds e to the experiments Main measures. It never panics: a bad
// registration is reported by Main (exit 2).
func Register(e Experiment) {
	mu.Lock()
	defer mu.Unlock()
	if why := invalid(e); why != "" {
		problems = append(problems, why)
		return
	}
	// The same fields, in the same order: a field added to one and not
	// the other stops this from compiling.
	experiments = append(experiments, inproc.Workload(e))
}

// invalid says why e cannot be registered, or "".
func invalid(e Experiment) string {
	name := fmt.Sprintf("experiment %q", e.Name)
	switch {
	case e.Name == "":
		what := "an experiment"
		if e.Description != "" {
			what = fmt.Sprintf("the experiment described %q", e.Description)
		}
		return "register: " + what + " has an empty name"
	case strings.ContainsAny(e.Name, ",#") || strings.ContainsFunc(e.Name, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}):
		return "register: " + name + ": a name may not hold a comma, '#', a space or a control character"
	case strings.ContainsFunc(e.Description+e.Unit, unicode.IsControl):
		return "register: " + name + ": the description and the unit are one line of text: no control characters"
	case e.Loop == nil:
		return "register: " + name + ": Loop is nil"
	case e.Units < 0 || math.IsNaN(e.Units) || math.IsInf(e.Units, 0):
		return fmt.Sprintf("register: %s: Units is %v; it must be 0 or more", name, e.Units)
	case e.FloorCycles < 0 || math.IsNaN(e.FloorCycles) || math.IsInf(e.FloorCycles, 0):
		return fmt.Sprintf("register: %s: FloorCycles is %v; it must be 0 or more", name, e.FloorCycles)
	}
	for _, w := range experiments {
		if w.Name == e.Name {
			return "register: " + name + " is registered twice"
		}
	}
	return ""
}

// Main runs benchy's command line over the registered experiments, with
// os.Args, and exits with its code (see Execute).
func Main() {
	os.Exit(Execute(os.Args[1:], os.Stdout, os.Stderr))
}

// Execute runs benchy's command line with args (without the program name)
// over the registered experiments, writing to stdout and stderr, and
// returns the exit code: 0 success, 1 a failed run (or a regression), 2
// bad usage or a bad registration, 3 --strict, 4 a regression gate that
// could not judge, 130/143/129 interrupted. It is Main for tests
// and for programs that do more after measuring.
func Execute(args []string, stdout, stderr io.Writer) int {
	mu.Lock()
	exps := append([]inproc.Workload(nil), experiments...)
	bad := append([]string(nil), problems...)
	mu.Unlock()
	if len(bad) > 0 {
		fmt.Fprintf(stderr, "benchy: %s\n", strings.Join(bad, "; "))
		return cli.ExitUsage
	}
	return cli.Main(args, exps, stdout, stderr)
}

// Keep makes v observable so the compiler must compute it. It costs one
// stack store (runtime.KeepAlive, ~0.5 ns) and never allocates, unlike
// storing into an interface. Keep hides the output only: the input must come
// from a parameter, a package variable or a captured variable, not a
// constant.
func Keep[T any](v T) { sink.Keep(v) }

// Package-level sinks: a store to a package variable is a side effect the
// compiler must keep, so a result written here is computed.
var (
	SinkU64 uint64
	SinkInt int
	SinkStr string
	SinkAny any // storing a non-pointer value here allocates: prefer Keep
)
