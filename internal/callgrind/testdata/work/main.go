// Command work sums a slice n times in main.work, or builds n strings in
// main.build (which allocates), between two marks, for the tests of
// package callgrind: its count per op is fixed by the code.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

var data = make([]uint64, 1024)

var (
	sink uint64
	str  string
	mark int
)

//go:noinline
func work(n int) {
	for range n {
		var t uint64
		for _, x := range data {
			t += x
		}
		sink += t
	}
}

//go:noinline
func build(n int) {
	for range n {
		var b strings.Builder
		for range 200 {
			b.WriteString("a line of text\n")
		}
		str = b.String()
	}
}

//go:noinline
func countStart() { mark++ }

//go:noinline
func countEnd() { mark++ }

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	runtime.LockOSThread()
	f := work
	if len(os.Args) > 2 && os.Args[2] == "build" {
		f = build
	}
	countStart()
	f(n)
	countEnd()
}
