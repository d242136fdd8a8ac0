package resultdiff

import "testing"

func TestFmtHz(t *testing.T) {
	for _, tt := range []struct {
		hz   float64
		want string
	}{{2.95e9, "2.95 GHz"}, {8e8, "800 MHz"}} {
		if got := fmtHz(tt.hz); got != tt.want {
			t.Errorf("fmtHz(%v) = %q, want %q", tt.hz, got, tt.want)
		}
	}
}
