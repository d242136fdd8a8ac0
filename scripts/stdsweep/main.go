// Command stdsweep builds, as benchy gotest builds them (the test files
// rewritten, the helper added through -overlay, and with -profile the
// profiler's files too), the test binary of every standard-library package
// that has a benchmark, and prints those that do not build. go test builds
// them all: so must benchy.
//
//	go run ./scripts/stdsweep            # every package of std
//	go run ./scripts/stdsweep -profile crypto/... strconv
//
// With -accused it also runs benchy gotest's machine-code checks on every
// benchmark function of each binary (gotest.Binary.Accusations) and prints
// each accusation, "ACCUSED package function code severity: message", for
// a person to review against the source of the loop:
//
//	go run ./scripts/stdsweep -accused
//
// Without -ramps it builds; it measures nothing. On a 2-vCPU machine with
// a warm build cache it takes a few minutes.
//
// With -ramps it also calibrates every benchmark as benchy gotest does
// (testing's ramp to -sample-time, on one CPU, at GOMAXPROCS 1) and
// prints what the ramp shows: "RAMP package benchmark first steady ratio",
// the N=1 call's time against what the later calls give for one
// iteration (the evidence of input-consumed), for every benchmark whose
// ramp tells, and as ACCUSED lines the ramp's findings that blame the
// benchmark (setup-in-timer, input-consumed). It runs every benchmark:
// name a few packages.
//
//	go run ./scripts/stdsweep -ramps sort slices bytes strings
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

func main() {
	profile := flag.Bool("profile", false, "add --profile's files too")
	accused := flag.Bool("accused", false, "print the benchmarks the machine-code checks accuse")
	ramps := flag.Bool("ramps", false, "calibrate every benchmark and print what testing's ramp shows")
	sampleTime := flag.Duration("sample-time", 100*time.Millisecond, "the sample time of -ramps' calibration")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"std"}
	}
	var calibrate *gotest.Options
	if *ramps {
		cpu, err := aCPU()
		if err != nil {
			fmt.Fprintln(os.Stderr, "stdsweep:", err)
			os.Exit(1)
		}
		calibrate = &gotest.Options{BenchText: ".", SampleTime: *sampleTime, PerProcess: 1, CPU: cpu, GOMAXPROCS: 1}
	}
	if err := sweep(patterns, *profile, *accused, calibrate); err != nil {
		fmt.Fprintln(os.Stderr, "stdsweep:", err)
		os.Exit(1)
	}
}

func sweep(patterns []string, profile, accused bool, calibrate *gotest.Options) error {
	ch := gotest.NewChildren(context.Background())
	pkgs, err := gotest.List(ch, ".", patterns, nil)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "stdsweep")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	built, none, accusations := 0, 0, 0
	var failed []string
	for _, p := range pkgs {
		bin, err := gotest.BuildWith(ch, p, filepath.Join(dir, fmt.Sprint(built+len(failed)+none)), nil, gotest.BuildOptions{Profile: profile})
		var ue *gotest.UsageError
		switch {
		case err == nil:
			built++
			if accused {
				n, err := printAccusations(bin)
				if err != nil {
					return fmt.Errorf("%s: %w", p.ImportPath, err)
				}
				accusations += n
			}
			if calibrate != nil {
				n, err := printRamps(bin, *calibrate)
				if err != nil {
					return fmt.Errorf("%s: %w", p.ImportPath, err)
				}
				accusations += n
			}
			os.RemoveAll(filepath.Dir(bin.Path)) // a binary read is not needed again
		case errors.As(err, &ue) && strings.Contains(ue.Msg, "has no benchmarks"):
			none++
		default:
			failed = append(failed, p.ImportPath)
			msg := err.Error()
			var be *gotest.BuildError
			if errors.As(err, &be) {
				msg += "\n" + string(be.Output)
			}
			fmt.Printf("FAIL %s: %s\n", p.ImportPath, strings.TrimSpace(msg))
		}
	}
	fmt.Printf("%d packages with benchmarks built, %d failed, %d without benchmarks (%s)\n",
		built, len(failed), none, time.Since(start).Round(time.Second))
	if accused || calibrate != nil {
		fmt.Printf("%d accusations\n", accusations)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d packages do not build: %s", len(failed), strings.Join(failed, " "))
	}
	return nil
}

// printAccusations prints what the machine-code checks accuse in bin, and
// how many.
func printAccusations(bin *gotest.Binary) (int, error) {
	acc, err := bin.Accusations()
	if err != nil {
		return 0, err
	}
	for _, a := range acc {
		fmt.Printf("ACCUSED %s %s %s %s: %s\n", bin.Package.ImportPath, a.Func, a.Finding.Code, a.Finding.Severity, a.Finding.Message)
	}
	return len(acc), nil
}

// rampCodes are the findings of testing's ramp that blame the benchmark.
var rampCodes = []string{result.CodeSetupInTimer, result.CodeInputConsumed}

// printRamps calibrates every benchmark of bin and prints what its ramp
// shows, and the ramp's accusations, and how many.
func printRamps(bin *gotest.Binary, o gotest.Options) (int, error) {
	ts, err := gotest.Calibrate(context.Background(), bin, o)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range ts {
		if t.Fail != "" {
			fmt.Printf("FAILED %s %s: %s\n", bin.Package.ImportPath, t.Bench, t.Fail)
			continue
		}
		if fi, ok := t.FirstIteration(); ok {
			fmt.Printf("RAMP %s %s %.0f %.0f %.2f\n", bin.Package.ImportPath, t.Bench, fi.FirstNs, fi.SteadyNs(), fi.Ratio())
		}
		for _, f := range t.RampFindings() {
			if slices.Contains(rampCodes, f.Code) {
				fmt.Printf("ACCUSED %s %s %s %s: %s\n", bin.Package.ImportPath, t.Bench, f.Code, f.Severity, f.Message)
				n++
			}
		}
	}
	return n, nil
}

// aCPU is the last CPU this process may run on: benchy's measured CPU
// is one the process may use.
func aCPU() (int, error) {
	cpus := sysread.AllowedCPUs()
	if cpus.Reason != "" || len(cpus.Value) == 0 {
		return 0, fmt.Errorf("no CPU to measure on: %s", cpus.Reason)
	}
	return cpus.Value[len(cpus.Value)-1], nil
}
