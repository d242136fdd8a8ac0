package counters

import (
	"maps"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestDelta(t *testing.T) {
	cyc, ins, cs := result.CounterCycles, result.CounterInstructions, result.CounterContextSwitches
	tests := []struct {
		name          string
		before, after map[string]int64
		want          map[string]int64
	}{
		{"difference", map[string]int64{cs: 3, cyc: 100}, map[string]int64{cs: 5, cyc: 350}, map[string]int64{cs: 2, cyc: 250}},
		{"only in one reading", map[string]int64{cs: 3, "x": 1}, map[string]int64{cs: 3, "y": 9}, map[string]int64{cs: 0}},
		{"backwards is not a count", map[string]int64{cs: 5, cyc: 10}, map[string]int64{cs: 4, cyc: 20}, map[string]int64{cyc: 10}},
		{"nil readings", nil, nil, map[string]int64{}},
		{
			"hardware on the PMU all the window",
			map[string]int64{cyc: 1000, ins: 2000, HardwareEnabled: 50, HardwareRunning: 50},
			map[string]int64{cyc: 4000, ins: 8000, HardwareEnabled: 1050, HardwareRunning: 1050},
			map[string]int64{cyc: 3000, ins: 6000, HardwareEnabled: 1000, HardwareRunning: 1000},
		},
		{
			"hardware multiplexed: counts dropped, times kept",
			map[string]int64{cyc: 1000, ins: 2000, cs: 1, HardwareEnabled: 50, HardwareRunning: 50},
			map[string]int64{cyc: 4000, ins: 8000, cs: 2, HardwareEnabled: 1050, HardwareRunning: 800},
			map[string]int64{cs: 1, HardwareEnabled: 1000, HardwareRunning: 750},
		},
		{
			"multiplexed before the window only",
			map[string]int64{cyc: 1000, HardwareEnabled: 100, HardwareRunning: 60},
			map[string]int64{cyc: 1500, HardwareEnabled: 200, HardwareRunning: 160},
			map[string]int64{cyc: 500, HardwareEnabled: 100, HardwareRunning: 100},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Delta(tt.before, tt.after); !maps.Equal(got, tt.want) {
				t.Errorf("Delta = %v, want %v", got, tt.want)
			}
		})
	}
}
