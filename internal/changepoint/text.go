package changepoint

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// describe names the samples of s for a Reason: "the first 9" or
// "samples 10-20" (inclusive, as a person counts them from 0).
func describe(s Segment) string {
	if s.Start == 0 {
		return fmt.Sprintf("the first %d", s.End)
	}
	return span(s)
}

func span(s Segment) string {
	if s.End-s.Start == 1 {
		return fmt.Sprintf("sample %d", s.Start)
	}
	return fmt.Sprintf("samples %d-%d", s.Start, s.End-1)
}

// pct prints |x| as a percentage, with one decimal below 10%.
func pct(x float64) string {
	p := math.Abs(x) * 100
	if p < 9.95 {
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + "%"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}
