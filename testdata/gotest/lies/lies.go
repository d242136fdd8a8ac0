// Package lies holds the functions the benchmarks of lies_test.go
// measure, honestly and not.
package lies

// Data is the input of the sums: read from memory, not a constant.
var Data = make([]int, 1000)

func init() {
	for i := range Data {
		Data[i] = i
	}
}

// Sum adds the numbers: small enough to be inlined.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Mul multiplies: inlined, and folded when its inputs are constants.
func Mul(a, b int) int { return a * b }

// Quote stands for the standard library's large functions: not inlined,
// so a call whose result is discarded still runs.
//
//go:noinline
func Quote(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	b = append(b, s...)
	return string(append(b, '"'))
}
