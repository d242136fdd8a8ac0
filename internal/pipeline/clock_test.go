package pipeline

import (
	"strings"
	"testing"
)

func TestEffectiveClock(t *testing.T) {
	tests := []struct {
		name          string
		before, after clockReading
		maxHz         float64
		wantB, wantA  float64
		wantSourceHas string
	}{
		{"cpufreq under load", clockReading{3.6e9, 3_400_000}, clockReading{3.5e9, 3_000_000}, 4.7e9, 3.4e9, 3.0e9, "scaling_cur_freq"},
		{"cpufreq bounded by max", clockReading{3.6e9, 5_000_000}, clockReading{3.6e9, 4_000_000}, 4.7e9, 4.7e9, 4.0e9, "scaling_cur_freq"},
		{"no cpufreq: add chain", clockReading{3.69e9, 0}, clockReading{3.6e9, 0}, 0, 3.69e9, 3.6e9, "dependent-add chain"},
		{"cpufreq only before: add chain", clockReading{3.69e9, 3_000_000}, clockReading{3.6e9, 0}, 0, 3.69e9, 3.6e9, "dependent-add chain"},
		{"nothing", clockReading{}, clockReading{}, 0, 0, 0, "unknown: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := effectiveClock(tt.before, tt.after, tt.maxHz)
			if c.BeforeHz != tt.wantB || c.AfterHz != tt.wantA || !strings.Contains(c.Source, tt.wantSourceHas) {
				t.Errorf("got %+v, want %v/%v from %q", c, tt.wantB, tt.wantA, tt.wantSourceHas)
			}
		})
	}
}
