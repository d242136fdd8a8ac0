package units

import "testing"

func TestPctOver(t *testing.T) {
	for _, tt := range []struct {
		ratio, limit float64
		want         string
	}{
		{0.104, 0.10, "10.4%"},
		{0.35, 0.10, "35%"},
		{0.1001, 0.10, "10.01%"},
		{0.0512, 0.05, "5.1%"},
	} {
		if got := PctOver(tt.ratio, tt.limit); got != tt.want {
			t.Errorf("PctOver(%v, %v) = %q, want %q", tt.ratio, tt.limit, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		ns   float64
		want string
	}{
		{0.2749, "0.275 ns"}, {47.23, "47.2 ns"}, {999.4, "999 ns"}, {999.7, "1 µs"}, {1137, "1.14 µs"},
		{4.1e7, "41 ms"}, {2.5e9, "2.5 s"}, {3.6e12, "3600 s"}, {0, "0 ns"},
		{0.0123, "0.0123 ns"}, {0.00466, "4.66 ps"}, {4.66e-9, "0.00466 fs"}, {4.66e-6, "4.66 fs"},
	} {
		if got := Duration(tt.ns); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

func TestSigHzPluralChange(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Sig(0.1414, 2), "0.14"}, {Sig(4096, 2), "4096"}, {Sig(41.23, 3), "41.2"}, {Sig(2.0, 3), "2"},
		{Hz(3.69e9), "3.69 GHz"}, {Hz(800e6), "800 MHz"},
		{Plural("add"), "adds"}, {Plural("multiply"), "multiplies"}, {Plural("pass"), "passes"}, {Plural("day"), "days"}, {Plural("series"), "series"}, {Count(2, "time series"), "2 time series"},
		{Count(1, "sample"), "1 sample"}, {Count(uint64(3), "tick"), "3 ticks"},
		{Change(0.123), "+12.3%"}, {Change(-0.0048), "-0.48%"}, {Change(0), "+0.0%"}, {Change(-0.00001), "+0.0%"},
		{Percent(0.02), "2%"}, {Percent(0.005), "0.5%"}, {Pct(0.053), "5.3%"},
		{Rate(1000), "1000/s"}, {Rate(999.83), "999.8/s"}, {Rate(12.5), "12.5/s"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
