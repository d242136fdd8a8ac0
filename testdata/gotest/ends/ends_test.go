// Package ends has benchmarks that do not return as a benchmark should:
// each is reported failed with why, and the others are measured.
package ends

import (
	"flag"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var sink int

func BenchmarkOK(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += i
	}
}

func BenchmarkExitZero(b *testing.B) {
	os.Exit(0)
}

func BenchmarkPanics(b *testing.B) {
	panic("the table is empty")
}

func BenchmarkExits(b *testing.B) {
	os.Exit(3)
}

// BenchmarkFatal dies of a fatal error of the runtime, which no recover
// stops (as concurrent map writes or running out of memory do), here
// deterministically.
func BenchmarkFatal(b *testing.B) {
	var mu sync.Mutex
	mu.Unlock()
}

func BenchmarkSkips(b *testing.B) {
	b.Skip("not on this machine")
}

// BenchmarkSub has one sub-benchmark that fails and one that does not.
func BenchmarkSub(b *testing.B) {
	b.Run("bad", func(b *testing.B) { b.Fatal("the fixture is missing") })
	b.Run("good", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink += i
		}
	})
}

// BenchmarkHangs never returns when BENCHY_TESTDATA_HANG is set: "always",
// or "sampling" for the runs at a fixed count only (-test.benchtime=Nx).
// It first writes its process id to BENCHY_TESTDATA_PIDFILE, if set.
func BenchmarkHangs(b *testing.B) {
	hang := os.Getenv("BENCHY_TESTDATA_HANG")
	fixed := strings.HasSuffix(flag.Lookup("test.benchtime").Value.String(), "x")
	if hang == "always" || hang == "sampling" && fixed {
		writePID(os.Getpid())
		for {
			time.Sleep(time.Hour)
		}
	}
	for i := 0; i < b.N; i++ {
		sink += i
	}
}

var left bool

// BenchmarkLeaves, when BENCHY_TESTDATA_LEAVE is set, starts a program
// that outlives it (once in a process), and writes that program's process
// id to BENCHY_TESTDATA_PIDFILE.
func BenchmarkLeaves(b *testing.B) {
	if os.Getenv("BENCHY_TESTDATA_LEAVE") != "" && !left {
		left = true
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		writePID(cmd.Process.Pid)
	}
	for i := 0; i < b.N; i++ {
		sink += i
	}
}

// writePID writes pid to BENCHY_TESTDATA_PIDFILE, if set, whole.
func writePID(pid int) {
	if f := os.Getenv("BENCHY_TESTDATA_PIDFILE"); f != "" {
		os.WriteFile(f+".tmp", []byte(strconv.Itoa(pid)), 0o600)
		os.Rename(f+".tmp", f)
	}
}
