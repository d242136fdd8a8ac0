package render

import (
	"math"
	"slices"
	"testing"
)

func labels(ts []tick) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.label)
	}
	return out
}

func TestLinearTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		n      int
		want   []string
	}{
		{0, 10, 5, []string{"0", "2", "4", "6", "8", "10"}},
		{0, 7, 3, []string{"0", "2", "4", "6"}},
		{1.18, 2.13, 5, []string{"1.2", "1.4", "1.6", "1.8", "2"}},
		{0.285, 0.303, 4, []string{"0.285", "0.29", "0.295", "0.3"}},
		{-0.3, 0.3, 3, []string{"-0.2", "0", "0.2"}},
		{0, 31, 3, []string{"0", "10", "20", "30"}},
	} {
		if got := labels(linearTicks(tt.lo, tt.hi, tt.n, plainLabel)); !slices.Equal(got, tt.want) {
			t.Errorf("linearTicks(%v, %v, %d) = %q, want %q", tt.lo, tt.hi, tt.n, got, tt.want)
		}
	}
}

func TestDurationTicks(t *testing.T) {
	ts := durationTicks(1180, 2130, 4)
	if want := []string{"1.2 µs", "1.4 µs", "1.6 µs", "1.8 µs", "2 µs"}; !slices.Equal(labels(ts), want) {
		t.Errorf("durationTicks = %q, want %q", labels(ts), want)
	}
	if math.Abs(ts[0].v-1200) > 1e-6 {
		t.Errorf("the first tick is at %v ns, want 1200", ts[0].v)
	}
}

// Log-scale ticks are round values inside the range: decades, 1-2-5, or a
// linear step inside one decade; never the range's own ends.
func TestLogTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   []string
	}{
		{0.000198, 1.02, []string{"0.001", "0.01", "0.1", "1"}},
		{0.0142, 1.02, []string{"0.02", "0.05", "0.1", "0.2", "0.5", "1"}},
		{0.97, 1.03, []string{"0.98", "1", "1.02"}},
		{0.5, 3, []string{"0.5", "1", "1.5", "2", "2.5", "3"}},
		{1e-12, 1, []string{"0.000000000001", "0.0000000001", "0.00000001", "0.000001", "0.0001", "0.01", "1"}},
	} {
		got := labels(logTicks(tt.lo, tt.hi))
		if !slices.Equal(got, tt.want) {
			t.Errorf("logTicks(%v, %v) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
		if len(got) < 2 || len(got) > 13 {
			t.Errorf("logTicks(%v, %v) = %q: want 2 to 13 ticks", tt.lo, tt.hi, got)
		}
		for _, tk := range logTicks(tt.lo, tt.hi) {
			if tk.v < tt.lo || tk.v > tt.hi {
				t.Errorf("logTicks(%v, %v): tick %v outside the range", tt.lo, tt.hi, tk.v)
			}
			if m := tk.v / math.Pow(10, math.Floor(math.Log10(tk.v)+1e-9)); math.Abs(m-math.Round(m*100)/100) > 1e-9 {
				t.Errorf("logTicks(%v, %v): tick %v is not round", tt.lo, tt.hi, tk.v)
			}
		}
	}
	if ts := logTicks(0, 1); ts != nil {
		t.Errorf("logTicks(0, 1) = %v, want none", ts)
	}
}
