// Package typed has calls of Run that are not testing's, and a file that
// imports testing with a dot: the rewrite goes by types, not by names.
package typed

import "testing"

type runner struct{}

func (runner) Run(n, m int) int { return n * m }

var sink int

func BenchmarkNamed(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += product()
	}
}

// product calls a Run that is not testing's on a variable named b.
func product() int {
	b := runner{}
	return b.Run(3, 4)
}
