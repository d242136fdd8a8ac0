// Package go111 is a module whose go.mod declares Go 1.11, as many of the
// most used modules still do: benchy gotest must build it as go test does.
package go111

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
