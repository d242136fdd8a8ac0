package report

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
		if got := pctOver(tt.ratio, tt.limit); got != tt.want {
			t.Errorf("pctOver(%v, %v) = %q, want %q", tt.ratio, tt.limit, got, tt.want)
		}
	}
}
