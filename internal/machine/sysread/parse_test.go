package sysread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

func TestParseLoadavg(t *testing.T) {
	l, err := parseLoadavg([]byte("3.20 2.87 2.41 3/1642 48213\n"))
	if err != nil || l != (machine.LoadAvg{Load1: 3.20, Load5: 2.87, Load15: 2.41, Runnable: 3, Tasks: 1642}) {
		t.Errorf("parseLoadavg = %+v, %v", l, err)
	}
	for _, bad := range []string{"", "1 2 3", "a 2 3 1/2 3", "1 2 3 1-2 3", "1 2 3 5/2 3", "1 2 3 1/2 x",
		"NaN 1 1 1/2 3", "-1 1 1 1/2 3", "1 2 3 1/2 3 4"} {
		if _, err := parseLoadavg([]byte(bad)); err == nil {
			t.Errorf("parseLoadavg(%q) = nil error, want one", bad)
		}
	}
}

func TestParsePressure(t *testing.T) {
	v, err := parsePressureSomeAvg10([]byte("some avg10=4.51 avg60=1.87 avg300=0.96 total=918237645\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"))
	if err != nil || v != 4.51 {
		t.Errorf("parsePressureSomeAvg10 = %v, %v", v, err)
	}
	for _, bad := range []string{"", "full avg10=1", "some avg60=1", "some avg10=x", "some avg10=NaN", "some avg10=101"} {
		if _, err := parsePressureSomeAvg10([]byte(bad)); err == nil {
			t.Errorf("parsePressureSomeAvg10(%q) = nil error, want one", bad)
		}
	}
}

func TestParseCPUInfo(t *testing.T) {
	read := func(machine string) cpuInfo {
		t.Helper()
		b, err := os.ReadFile("../../../testdata/machines/" + machine + "/proc/cpuinfo")
		if err != nil {
			t.Fatal(err)
		}
		ci, err := parseCPUInfo(b)
		if err != nil {
			t.Fatal(err)
		}
		return ci
	}
	tests := []struct {
		machine, model string
		cpus           int
		hypervisor     string
	}{
		{"vm", "AMD EPYC", 2, "true"},
		{"laptop-hybrid", "12th Gen Intel(R) Core(TM) i7-1260P", 16, "false"},
		{"arm-biglittle", "Arm Cortex-A53 (part 0xd03) on 0-3; Arm Cortex-A72 (part 0xd08) on 4-5", 6, "unknown: no x86 flags line in /proc/cpuinfo to look for the hypervisor flag"},
	}
	for _, tt := range tests {
		ci := read(tt.machine)
		if m, _ := ci.models(); m != tt.model || len(ci.Procs) != tt.cpus || ci.hypervisor().String() != tt.hypervisor {
			t.Errorf("%s: model %q, %d CPUs, hypervisor %s; want %q, %d, %s", tt.machine, m, len(ci.Procs), ci.hypervisor(), tt.model, tt.cpus, tt.hypervisor)
		}
	}
	// 32-bit ARM: Hardware in a block of its own.
	ci, err := parseCPUInfo([]byte("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xc07\n\nHardware\t: BCM2835\nRevision\t: a01041\n"))
	if m, _ := ci.models(); err != nil || m != "implementer 0x41 part 0xc07; hardware BCM2835" {
		t.Errorf("arm32: %q, %v", m, err)
	}
	for _, bad := range []string{"", "processor: 0\nno colon here\n", "processor: x\n", "processor: 0\n\nprocessor: 0\n", ": value\n", "Hardware: x\n"} {
		if _, err := parseCPUInfo([]byte(bad)); err == nil {
			t.Errorf("parseCPUInfo(%q) = nil error, want one", bad)
		}
	}
}

func TestParseCgroupFile(t *testing.T) {
	p, err := parseCgroupFile([]byte("12:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/abc\n0::/user.slice\n"))
	if err != nil || p["cpu"] != "/docker/abc" || p["cpuacct"] != "/docker/abc" || p[""] != "/user.slice" || p["cpuset"] != "/docker/abc" {
		t.Errorf("parseCgroupFile = %v, %v", p, err)
	}
	for _, bad := range []string{"x", "1:cpu", "a:cpu:/", "1:cpu:relative"} {
		if _, err := parseCgroupFile([]byte(bad)); err == nil {
			t.Errorf("parseCgroupFile(%q) = nil error, want one", bad)
		}
	}
}

func TestParseCPUMax(t *testing.T) {
	tests := []struct {
		in        string
		q, period int64
		err       bool
	}{
		{"max 100000\n", -1, 100000, false},
		{"-1 100000", -1, 100000, false},
		{"50000 100000", 50000, 100000, false},
		{"50000", 0, 0, true},
		{"0 100000", 0, 0, true},
		{"50000 0", 0, 0, true},
		{"x 100000", 0, 0, true},
	}
	for _, tt := range tests {
		q, p, err := parseCPUMax([]byte(tt.in))
		if (err != nil) != tt.err || (!tt.err && (q != tt.q || p != tt.period)) {
			t.Errorf("parseCPUMax(%q) = %d, %d, %v", tt.in, q, p, err)
		}
	}
}

func FuzzParseLoadavg(f *testing.F) {
	f.Add("3.20 2.87 2.41 3/1642 48213\n")
	f.Add("1 2 3 5/2 3")
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parseLoadavg([]byte(s))
		if err == nil && (l.Load1 < 0 || l.Runnable > l.Tasks) {
			t.Fatalf("%q: accepted %+v", s, l)
		}
	})
}

func FuzzParseCPUInfo(f *testing.F) {
	for _, m := range []string{"vm", "arm-biglittle"} {
		b, err := os.ReadFile("../../../testdata/machines/" + m + "/proc/cpuinfo")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("processor: 0\n\nHardware: x\n")
	f.Fuzz(func(t *testing.T, s string) {
		ci, err := parseCPUInfo([]byte(s))
		if err != nil {
			return
		}
		if len(ci.Procs) == 0 {
			t.Fatalf("%q: accepted with no processor", s)
		}
		m, _ := ci.models()
		_ = ci.hypervisor()
		if strings.Contains(m, "\n") {
			t.Fatalf("model with newline: %q", m)
		}
	})
}

func FuzzParsePressure(f *testing.F) {
	f.Add("some avg10=4.51 avg60=1.87 avg300=0.96 total=918237645\n")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parsePressureSomeAvg10([]byte(s))
		if err == nil && !(v >= 0 && v <= 100) {
			t.Fatalf("%q: accepted %v", s, v)
		}
	})
}

func TestMemoryBudget(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/meminfo", "MemTotal:       24000000 kB\nMemFree:  1 kB\n")
	write("proc/self/cgroup", "4:memory:/ci/job\n0::/\n")
	write("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n")
	if b, from, err := MemoryBudget(dir); err != nil || b != 24000000<<10 || from != "proc/meminfo MemTotal" {
		t.Errorf("no limit: %d from %q, %v; want MemTotal", b, from, err)
	}
	write("sys/fs/cgroup/memory/ci/memory.limit_in_bytes", "1073741824\n")
	write("sys/fs/cgroup/memory/ci/job/memory.limit_in_bytes", "536870912\n")
	if b, from, err := MemoryBudget(dir); err != nil || b != 512<<20 || !strings.HasSuffix(from, "ci/job/memory.limit_in_bytes") {
		t.Errorf("v1 limit: %d from %q, %v; want the job's 512 MiB", b, from, err)
	}
	write("sys/fs/cgroup/cgroup.controllers", "cpu memory\n")
	write("proc/self/cgroup", "0::/box\n")
	write("sys/fs/cgroup/box/memory.max", "max\n")
	write("sys/fs/cgroup/memory.max", "268435456\n")
	if b, _, err := MemoryBudget(dir); err != nil || b != 256<<20 {
		t.Errorf("v2 limit on an ancestor: %d, %v; want 256 MiB", b, err)
	}
	if _, _, err := MemoryBudget(t.TempDir()); err == nil {
		t.Error("an empty tree has a memory budget")
	}
}
