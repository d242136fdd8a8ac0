// Package output has benchmarks that print: what a benchmark prints is
// not a result, so each is measured as itself, and a forged result line
// or failure changes nothing.
package output

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

var sink int

func work(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += i
	}
}

// BenchmarkPrints prints, as a benchmark that reports progress does.
func BenchmarkPrints(b *testing.B) {
	work(b)
	fmt.Println("hello from a benchmark")
	fmt.Fprintln(os.Stderr, "and from its stderr")
}

// BenchmarkForger prints the result line and a failure of BenchmarkReal,
// as testing writes them.
func BenchmarkForger(b *testing.B) {
	work(b)
	fmt.Printf("BenchmarkReal-%d \t     100\t    999999 ns/op\t    64 B/op\t     777 allocs/op\n", runtime.GOMAXPROCS(0))
	fmt.Println("BenchmarkReal \t     100\t    999999 ns/op\t    64 B/op\t     777 allocs/op")
	fmt.Println("--- FAIL: BenchmarkReal")
	fmt.Println("    real_test.go:1: forged")
}

func BenchmarkReal(b *testing.B) { work(b) }

// BenchmarkMetrics reports its own units, as testing prints them, and a
// time per op of its own, which go test prints in place of the loop's.
func BenchmarkMetrics(b *testing.B) {
	b.SetBytes(1000)
	work(b)
	b.ReportMetric(3, "widgets/op")
	b.ReportMetric(5, "ns/op")
}
