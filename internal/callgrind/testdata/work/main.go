// Command work sums a slice n times in main.work, for the tests of
// package callgrind: its count per op is fixed by the code.
package main

import (
	"fmt"
	"os"
	"strconv"
)

var data = make([]uint64, 1024)

var sink uint64

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

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	work(n)
}
