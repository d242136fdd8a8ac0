package gotest

import (
	"errors"
	"os"
	"strconv"

	"github.com/benchy-dev/benchy/internal/callgrind"
)

// CountCommand runs the benchmark once at exactly n iterations
// (-test.benchtime=Nx), the helper marking each call of the benchmark's
// function (envCount) on one thread: the count is the last call's, at n,
// and what a call costs once (its setup) is a constant that the slope over
// N cancels. testing calls a b.N benchmark at N=1 first, then at n; a
// b.Loop benchmark once, which runs the n iterations inside it.
func (t *Target) CountCommand(n int64) (callgrind.Command, error) {
	if t.Fail != "" {
		return callgrind.Command{}, errors.New(t.Fail)
	}
	fn := t.fn
	if fn == "" && len(t.Calibration) > 0 {
		fn = t.Calibration[len(t.Calibration)-1].Func
	}
	if fn == "" {
		return callgrind.Command{}, errors.New(t.Bench + ": the benchmark's function is not known (no call of it was recorded)")
	}
	args := []string{t.Bin.Path, "-test.run=^$", "-test.bench=" + BenchRegexp(t.Bench),
		"-test.benchtime=" + strconv.FormatInt(n, 10) + "x", "-test.count=1", "-test.timeout=0"}
	env := append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(t.opts.GOMAXPROCS), envCount+"="+t.Bench)
	dumps := 2 // testing's first call at N=1, then the call at n
	if n == 1 || loops(t.Calibration) {
		dumps = 1
	}
	return callgrind.Command{Argv: args, Dir: t.Bin.Package.Dir, Env: env, Symbol: fn,
		MarkStart: "*.benchyCountStart", MarkEnd: "*.benchyCountEnd", Dumps: dumps}, nil
}
