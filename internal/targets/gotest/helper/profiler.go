//go:build linux

// Code added by benchy gotest --profile: it profiles the measured calls
// of each benchmark.

package helper

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// The file benchy adds with --profile, in the package of the helper it
// serves, or in the external test package when that package is one
// runtime/pprof depends on (the line below then sets the helper's
// BenchyProfiler through the package's import path).
func init() {
	BenchyProfiler = benchyProfile
}

// benchyProfFile is the CPU profile being written.
var benchyProfFile *os.File

// benchyProfile starts (begin) or ends the profiles of one call: the CPU
// profile over the call, and the allocation profile before and after it.
func benchyProfile(begin bool, prefix string) error {
	if !begin {
		pprof.StopCPUProfile()
		err := benchyProfFile.Close()
		if err2 := benchyHeapProfile(prefix + ".heap1"); err == nil {
			err = err2
		}
		return err
	}
	if err := benchyHeapProfile(prefix + ".heap0"); err != nil {
		return err
	}
	f, err := os.Create(prefix + ".cpu")
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	benchyProfFile = f
	return nil
}

// benchyHeapProfile writes the allocation profile after a collection,
// which publishes every allocation made before it.
func benchyHeapProfile(path string) error {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
