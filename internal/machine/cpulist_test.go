package machine

import (
	"slices"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  bool
	}{
		{"", []int{}, false},
		{"\n", []int{}, false},
		{"0", []int{0}, false},
		{"0-3,8-11\n", []int{0, 1, 2, 3, 8, 9, 10, 11}, false},
		{"2-3,18-19", []int{2, 3, 18, 19}, false},
		{"0-7:2", []int{0, 2, 4, 6}, false},
		{"3,1,1,2", []int{1, 2, 3}, false},
		{"0-65535:65535", []int{0, 65535}, false},
		{"a", nil, true},
		{"1-", nil, true},
		{"-1", nil, true},
		{"3-1", nil, true},
		{"1,,2", nil, true},
		{"0-3:0", nil, true},
		{"+1", nil, true},
		{"01", nil, true},
		{"0-4000000000", nil, true},
		{"0 1", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseCPUList(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParseCPUList(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !tt.err && !slices.Equal(got, tt.want) {
			t.Errorf("ParseCPUList(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	tests := []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{0, 1}, "0-1"},
		{[]int{11, 10, 9, 8, 0, 1, 2, 3}, "0-3,8-11"},
		{[]int{0, 2, 4}, "0,2,4"},
		{[]int{5, 5, 6}, "5-6"},
	}
	for _, tt := range tests {
		if got := FormatCPUList(tt.in); got != tt.want {
			t.Errorf("FormatCPUList(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzParseCPUList: no panic; what parses formats back to a list that
// parses to the same CPUs.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"", "0-3,8-11", "0-7:2", "1,,2", "3-1", "0-65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := ParseCPUList(s)
		if err != nil {
			return
		}
		again, err := ParseCPUList(FormatCPUList(cpus))
		if err != nil || !slices.Equal(cpus, again) {
			t.Fatalf("%q: %v formats to %q which parses to %v, %v", s, cpus, FormatCPUList(cpus), again, err)
		}
	})
}
