package gotest

import (
	_ "embed"
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

// helper returns the helper file for package pkg.
func helper(pkg string) []byte {
	return []byte(strings.Replace(helperSource, "\npackage helper\n", "\npackage "+pkg+"\n", 1))
}
