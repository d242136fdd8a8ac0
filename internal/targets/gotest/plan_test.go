package gotest

import (
	"slices"
	"testing"
)

// A -bench pattern is split as package testing splits it: alternatives
// at '|', levels at '/', neither inside brackets or parentheses nor
// escaped.
func TestBenchAlternatives(t *testing.T) {
	cases := []struct {
		in   string
		want [][]string
	}{
		{".", [][]string{{"."}}},
		{"A/b", [][]string{{"A", "b"}}},
		{"Sum64/4KB|Sum64String", [][]string{{"Sum64", "4KB"}, {"Sum64String"}}},
		{"(A|B)/x", [][]string{{"(A|B)", "x"}}},
		{"A[/|]B", [][]string{{"A[/|]B"}}},
		{`A\/B|C`, [][]string{{`A\/B`}, {"C"}}},
		{"A]/B", [][]string{{"A]", "B"}}},
		{"A|", [][]string{{"A"}, {""}}},
	}
	for _, c := range cases {
		got := benchAlternatives(c.in)
		if !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("benchAlternatives(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The pattern a top-level benchmark's process is given runs that
// benchmark alone: with "Sum64/4KB|Sum64String", Sum64String's process
// was given the whole pattern, and its second alternative ran Sum64String
// in Sum64's process too, so every Sum64String sub-benchmark was measured
// twice.
func TestBenchFor(t *testing.T) {
	cases := []struct{ text, top, want string }{
		{".", "Sum64", "^Sum64$"},
		{"Sum64/4KB|Sum64String", "Sum64", "^Sum64$/4KB"},
		{"Sum64/4KB|Sum64String", "Sum64String", "^Sum64String$/4KB|^Sum64String$"},
		{"Sum64/4KB|Sum64String", "Digest", ""},
		{"^Sum64$", "Sum64String", ""},
		{"(Quote|Unquote)/x", "Quote", "^Quote$/x"},
		{"A.B", "A.B", `^A\.B$`},
	}
	for _, c := range cases {
		got, err := benchFor(c.text, c.top)
		if err != nil || got != c.want {
			t.Errorf("benchFor(%q, %q) = %q, %v; want %q", c.text, c.top, got, err, c.want)
		}
	}
	if _, err := benchFor("(", "A"); err == nil {
		t.Error("an invalid first level is no error")
	}
}
