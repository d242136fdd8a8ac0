package sysread_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/machinetest"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// TestJSONRoundTrip: a snapshot written and read back writes the same JSON,
// and unknown facts are "unknown: <reason>" strings.
func TestJSONRoundTrip(t *testing.T) {
	for _, m := range []string{"vm", "laptop-hybrid", "arm-biglittle"} {
		s := machinetest.Read(t, m, nil)
		b1, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back machine.Snapshot
		if err := json.Unmarshal(b1, &back); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		b2, _ := json.Marshal(&back)
		if !bytes.Equal(b1, b2) {
			t.Errorf("%s: JSON changes on a round trip:\n%s\n%s", m, b1, b2)
		}
	}
	s := machinetest.Read(t, "vm", nil)
	b, _ := json.Marshal(s.CPUs[0])
	if !strings.Contains(string(b), `"scaling_governor":"unknown: no cpufreq in /sys: virtual machine, the host sets the frequency"`) {
		t.Errorf("unknown governor in JSON: %s", b)
	}
}

// The probe's own CPU time is taken out of each CPU's busy, as benchy's
// own work: vm's cpu0 is 9% busy over 100 ticks with 3% steal, and 50 ms
// of probe is 5% of the window less the steal's share, 4.85%.
func TestProbeNotCountedBusy(t *testing.T) {
	s, err := sysread.Read(context.Background(), machinetest.Dir("vm"), sysread.ReadOptions{Window: time.Second, Runtime: machinetest.Runtime,
		Probe: (&machinetest.Probe{NS: map[int]float64{0: 1, 1: 1}, Own: 50 * time.Millisecond}).Speeds})
	if err != nil {
		t.Fatal(err)
	}
	b, ok := s.BusyOf(0)
	if !ok || math.Abs(b.Own-4.85) > 1e-9 || math.Abs(b.Busy.Value-4.15) > 1e-9 || s.BusyOwn != 100*time.Millisecond {
		t.Errorf("cpu0 busy %v, own %.2f%%, BusyOwn %v; want 4.15%%, 4.85%%, 100ms", b.Busy, b.Own, s.BusyOwn)
	}
}

// A snapshot written before MemTotal was recorded reads it as unknown,
// not as a machine with no memory; the vm fixture's meminfo is read.
func TestMemTotal(t *testing.T) {
	if got := machinetest.Read(t, "vm", nil).MemTotal; got.String() != "8326705152" {
		t.Errorf("vm MemTotal %v, want 8326705152", got)
	}
	var old machine.Snapshot
	if err := json.Unmarshal([]byte(`{"cpu_model": "AMD EPYC"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.MemTotal.Known() || !strings.Contains(old.MemTotal.String(), "not recorded") {
		t.Errorf("old snapshot MemTotal %v, want unknown: not recorded", old.MemTotal)
	}
	// The brand too: a brand of "" would read as a CPU without a name.
	if old.CPUBrand.Reason != machine.NotRecorded {
		t.Errorf("old snapshot CPUBrand %v, want unknown: %s", old.CPUBrand, machine.NotRecorded)
	}
}
