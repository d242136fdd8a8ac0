// Package go118 is a module whose go.mod declares Go 1.18 (generics, but
// no range over an integer): benchy gotest must build it as go test does.
package go118

// Max returns the largest of xs, or the zero value for none.
func Max[T int | float64](xs []T) T {
	var m T
	for i, x := range xs {
		if i == 0 || x > m {
			m = x
		}
	}
	return m
}
