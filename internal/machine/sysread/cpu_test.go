package sysread

import (
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

func TestParseHexMask(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  bool
	}{
		{"3\n", []int{0, 1}, false},
		{"ffff", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, false},
		{"fff3fff3", []int{0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}, false},
		{"1,00000000", []int{32}, false},
		{"00000000,00000001", []int{0}, false},
		{"0", []int{}, false},
		{"", nil, true},
		{"g", nil, true},
		{"1,,1", nil, true},
		{"123456789", nil, true},
		{"-1", nil, true},
	}
	for _, tt := range tests {
		got, err := parseHexMask([]byte(tt.in))
		if (err != nil) != tt.err {
			t.Errorf("parseHexMask(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !tt.err && !slices.Equal(got, tt.want) {
			t.Errorf("parseHexMask(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseHexMask: no panic; every CPU is within the mask's width.
func FuzzParseHexMask(f *testing.F) {
	for _, s := range []string{"3", "ff,ffffffff", "fff3fff3", "", "1,,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, err := parseHexMask([]byte(s))
		if err != nil {
			return
		}
		for _, c := range cpus {
			if c < 0 || c > machine.MaxCPU {
				t.Fatalf("%q: cpu %d out of range", s, c)
			}
		}
	})
}
