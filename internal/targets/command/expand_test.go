package command

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		low, high, step string
		want            []string
		err             string
	}{
		{low: "1", high: "3", want: []string{"1", "2", "3"}},
		{low: "0", high: "10", step: "5", want: []string{"0", "5", "10"}},
		{low: "0", high: "9", step: "4", want: []string{"0", "4", "8"}},
		{low: "-2", high: "1", want: []string{"-2", "-1", "0", "1"}},
		{low: "5", high: "5", want: []string{"5"}},
		{low: "0.1", high: "0.3", step: "0.1", want: []string{"0.1", "0.2", "0.3"}},
		{low: "0", high: "1", step: "0.25", want: []string{"0", "0.25", "0.5", "0.75", "1"}},
		{low: "-0.5", high: "0.5", step: ".5", want: []string{"-0.5", "0", "0.5"}},
		{low: "1.", high: "+2", want: []string{"1", "2"}},
		{low: "007", high: "8", want: []string{"7", "8"}},

		{low: "3", high: "1", err: "above high"},
		{low: "1", high: "3", step: "0", err: "not positive"},
		{low: "1", high: "3", step: "-1", err: "not positive"},
		{low: "a", high: "3", err: "not a number"},
		{low: "1", high: "1e3", err: "not a number"},
		{low: "1", high: "3", step: "x", err: "not a number"},
		{low: ".", high: "3", err: "not a number"},
		{low: "--1", high: "3", err: "not a number"},
		{low: "", high: "3", err: "not a number"},
		{low: "inf", high: "3", err: "not a number"},
		{low: "1", high: "100000000000000000000", err: "too many digits"},
		{low: "0", high: "1", step: "0.00001", err: "more than"},
	} {
		s, err := ParseRange("n", tc.low, tc.high, tc.step)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseRange(%q, %q, %q) = %q, %v; want an error with %q", tc.low, tc.high, tc.step, s.Values, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(s.Values, tc.want) || s.Name != "n"):
			t.Errorf("ParseRange(%q, %q, %q) = %+v, %v; want %q", tc.low, tc.high, tc.step, s, err, tc.want)
		}
	}
	if _, err := ParseRange("1x", "1", "2", ""); err == nil {
		t.Error("a name starting with a digit was accepted")
	}
}

func TestParseList(t *testing.T) {
	s, err := ParseList("opt", ",-O2,-O3")
	if err != nil || !slices.Equal(s.Values, []string{"", "-O2", "-O3"}) {
		t.Errorf("ParseList = %+v, %v", s, err)
	}
	for _, bad := range [][2]string{{"opt", ""}, {"opt", "a,b,a"}, {"o-p", "a"}, {"", "a"}} {
		if _, err := ParseList(bad[0], bad[1]); err == nil {
			t.Errorf("ParseList(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestExpand(t *testing.T) {
	n := Scan{Name: "n", Values: []string{"1", "2"}}
	m := Scan{Name: "m", Values: []string{"a", "b"}}
	names := func(es []Expanded) []string {
		var s []string
		for _, e := range es {
			s = append(s, e.Name)
		}
		return s
	}
	for _, tc := range []struct {
		name     string
		commands []string
		scans    []Scan
		want     []string
		err      string
	}{
		{name: "no scans", commands: []string{"sleep 0.01", "awk '{print $1}' {} x{"}, want: []string{"sleep 0.01", "awk '{print $1}' {} x{"}},
		{name: "one scan", commands: []string{"sleep 0.0{n}"}, scans: []Scan{n}, want: []string{"sleep 0.01", "sleep 0.02"}},
		{name: "product, first scan slowest", commands: []string{"c {n}{m}", "d {m}"}, scans: []Scan{n, m},
			want: []string{"c 1a", "c 1b", "c 2a", "c 2b", "d a (n=1, m=a)", "d b (n=1, m=b)", "d a (n=2, m=a)", "d b (n=2, m=b)"}},
		{name: "twice in a line", commands: []string{"{n}+{n}"}, scans: []Scan{n}, want: []string{"1+1", "2+2"}},
		{name: "unused: names carry the values", commands: []string{"true"}, scans: []Scan{n}, want: []string{"true (n=1)", "true (n=2)"}},
		{name: "unknown", commands: []string{"c {x}"}, scans: []Scan{n}, err: "unknown parameter {x}: the parameters are {n}"},
		{name: "unknown without scans", commands: []string{"c {x}"}, err: "no parameter is defined"},
		{name: "scanned twice", commands: []string{"c {n}"}, scans: []Scan{n, n}, err: "twice"},
		{name: "no values", commands: []string{"c"}, scans: []Scan{{Name: "n"}}, err: "no values"},
	} {
		got, err := Expand(tc.commands, tc.scans)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: Expand = %q, %v; want an error with %q", tc.name, names(got), err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(names(got), tc.want)):
			t.Errorf("%s: Expand = %q, %v; want %q", tc.name, names(got), err, tc.want)
		}
	}
	got, _ := Expand([]string{"a {n}", "b {n}"}, []Scan{n})
	want := Expanded{Name: "b 2", Command: "b 2", Params: []Param{{"n", "2"}}, Index: 1}
	if !reflect.DeepEqual(got[3], want) {
		t.Errorf("Expand()[3] = %+v, want %+v", got[3], want)
	}
}

func TestSubstitute(t *testing.T) {
	ps := []Param{{"n", "1"}, {"file", "a b"}}
	for _, tc := range []struct{ in, want, err string }{
		{in: "make -j{n}", want: "make -j1"},
		{in: "cat '{file}'", want: "cat 'a b'"},
		{in: "{{n}}", want: "{1}"},
		{in: "{ n } {} {1} {n", want: "{ n } {} {1} {n"},
		{in: "rm -f {out}", err: "unknown parameter {out}"},
	} {
		got, err := Substitute(tc.in, ps)
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) || tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("Substitute(%q) = %q, %v; want %q or an error with %q", tc.in, got, err, tc.want, tc.err)
		}
	}
}
