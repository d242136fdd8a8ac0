package gotest

import (
	_ "embed"
	"strconv"
	"strings"
)

// Environment of a test binary run by benchy: the descriptor the helper
// writes its records to, and the CPU it pins the benchmarks' threads to.
// Without them the helper does nothing and the binary is an ordinary test
// binary.
const (
	envRecords = "BENCHY_GOTEST_RECORDS_FD"
	envCPU     = "BENCHY_GOTEST_CPU"
	// envCount names the benchmark whose calls the helper marks for
	// callgrind (--measure instructions).
	envCount = "BENCHY_GOTEST_COUNT"
	// envUnpinned has the helper record the calls without pinning them,
	// as go test runs them.
	envUnpinned = "BENCHY_GOTEST_UNPINNED"
)

// helperFile is the name of the file added to the package under test.
const helperFile = "zz_benchy_helper_test.go"

// helperSource is the file added (through -overlay) to every test package
// with benchmarks, in that package: helper/helper.go, a package of its own
// so that benchy's build compiles, vets and tests it. benchyRun runs each
// call of a benchmark function on a thread pinned to the measured CPU and
// writes a record of it: a start record before the call, and after it the
// end record, written however the call ends (a panic, b.FailNow), with
// the benchmark's name (b.Name()), b.N, what testing timed, the CPU the
// call ended on, whether the pin held, the counters, the wall time of the
// whole call, testing's allocation counts and metrics, and the function's
// symbol (for the machine-code checks).
//
//go:embed helper/helper.go
var helperSource string

// helper returns the helper file for package pkg of p's test build. Only
// the copy in p's own package exports its profiler hook (the external
// test package sets it through p's import path, see profilers); in any
// other package the hook is unexported, since an external test package
// that dot-imports p would otherwise see p's exported hook beside its
// own and fail to build (crypto/subtle's tests do that).
func helper(p Package, pkg string) []byte {
	src := strings.Replace(helperSource, "\npackage helper\n", "\npackage "+pkg+"\n", 1)
	return []byte(strings.ReplaceAll(src, exportedHook, hookName(p, pkg)))
}

// exportedHook is the name of the helper's profiler hook in its source.
const exportedHook = "BenchyProfiler"

// hookName is the name of the profiler hook in package pkg of p's test
// build: exported in p's own package only (see helper).
func hookName(p Package, pkg string) string {
	if pkg == p.Name {
		return exportedHook
	}
	return "benchyProfiler"
}

// Environment of a sample run with --profile: the directory of the
// profiles and the b.N of the calls to profile.
const (
	envProfile  = "BENCHY_GOTEST_PROFILE"
	envProfileN = "BENCHY_GOTEST_PROFILE_N"
)

// profilerSource is the file added with --profile (helper/profiler.go):
// it sets the helper's BenchyProfiler to a function that profiles one
// call with runtime/pprof.
//
//go:embed helper/profiler.go
var profilerSource string

// profilerSet is the line of profilerSource that sets the helper's hook.
const profilerSet = "\t" + exportedHook + " = benchyProfile\n"

// profilers are the files added with --profile to p's test build, by the
// package each is in: one per package with a helper (names), except that
// the hook of p's own package (not main, which cannot be imported) is set
// from p's external test package, through p's import path, since a
// package runtime/pprof depends on (strconv, sort, bufio) would otherwise
// import itself; that file sets the external package's own hook too when
// it has a helper.
func profilers(p Package, names map[string]bool) map[string][]byte {
	lines := map[string][]string{}
	bridged := false
	for pkg := range names {
		if pkg == p.Name && p.Name != "main" {
			bridged = true
			lines[p.Name+"_test"] = append(lines[p.Name+"_test"], "\tbenchyp."+exportedHook+" = benchyProfile\n")
			continue
		}
		lines[pkg] = append(lines[pkg], "\t"+hookName(p, pkg)+" = benchyProfile\n")
	}
	out := map[string][]byte{}
	for pkg, ls := range lines {
		src := strings.Replace(profilerSource, "\npackage helper\n", "\npackage "+pkg+"\n", 1)
		if bridged && pkg == p.Name+"_test" {
			src = strings.Replace(src, "\t\"runtime/pprof\"\n", "\t\"runtime/pprof\"\n\n\tbenchyp "+strconv.Quote(p.ImportPath)+"\n", 1)
		}
		out[pkg] = []byte(strings.Replace(src, profilerSet, strings.Join(ls, ""), 1))
	}
	return out
}
