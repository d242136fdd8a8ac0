// Package machine holds what benchy knows of a machine: a Snapshot of what
// it is and what it is doing (its CPUs, their clocks, busy and speed, the
// load, the cgroup) and the codes of the findings made from one. It reads
// nothing and judges nothing: internal/machine/sysread reads a snapshot
// from /proc and /sys, internal/machine/fit judges it.
//
// Every fact that cannot be read is carried as "unknown: <reason>" (see
// Fact), never as a zero that looks like a value.
package machine

import (
	"encoding/json"
	"time"
)

// Snapshot is the state of the machine at one moment, with the busy of
// every CPU over a window. Its JSON field names are stable;
// docs/json.md documents each.
type Snapshot struct {
	When time.Time `json:"when"` // UTC
	Root string    `json:"root"` // the directory /proc and /sys were read under
	Live bool      `json:"live"` // this process's own machine, not a fixture tree

	Hostname Fact[string] `json:"hostname"`
	Kernel   Fact[string] `json:"kernel_release"`
	Runtime

	CPUModel Fact[string] `json:"cpu_model"`
	// CPUBrand is the CPU's name as go test prints it in its "cpu:" line
	// (sysread reads it as go test does), which is not always the model name.
	CPUBrand   Fact[string] `json:"cpu_brand"`
	Hypervisor Fact[bool]   `json:"hypervisor"`
	// MemTotal is the machine's RAM (proc/meminfo MemTotal), in bytes.
	MemTotal Fact[int64] `json:"mem_total_bytes"`

	Online   Fact[CPUList] `json:"online"`
	Possible Fact[CPUList] `json:"possible"`
	Isolated Fact[CPUList] `json:"isolated"`
	NohzFull Fact[CPUList] `json:"nohz_full"`
	// Allowed are the CPUs this process may run on now; AllowedFrom says
	// where that came from (sched_getaffinity, or proc/self/status).
	Allowed     Fact[CPUList] `json:"allowed"`
	AllowedFrom string        `json:"allowed_from"`
	Cgroup      Cgroup        `json:"cgroup"`

	Load        Fact[LoadAvg] `json:"load"`
	CPUPressure Fact[float64] `json:"cpu_pressure_some_avg10"`

	Clocksource          Fact[string] `json:"clocksource"`
	ClocksourceAvailable Fact[string] `json:"clocksource_available"`
	SMTControl           Fact[string] `json:"smt_control"`
	SMTActive            Fact[bool]   `json:"smt_active"`
	Turbo                Turbo        `json:"turbo"`

	CPUs []CPU `json:"cpus"` // every online CPU

	// Busy is every CPU's busy over BusyWindow (the real time between the
	// two reads of /proc/stat).
	BusyWindow time.Duration   `json:"busy_window_ns"`
	Busy       Fact[[]CPUBusy] `json:"busy"`
	// BusyOwn is the CPU time of benchy's own work in the window (the
	// builds of benchy gotest), already taken out of Busy; BusyNote says
	// why a window opened during the build was read again after it.
	BusyOwn  time.Duration `json:"busy_own_ns,omitempty"`
	BusyNote string        `json:"busy_note,omitempty"`
	// Speed is how fast every available CPU ran the reference loop in the
	// window (sysread.ReadOptions.Probe); absent when it was not measured (a
	// fixture tree, benchy machine --sysroot, an older benchy).
	Speed []CPUSpeed `json:"cpu_speed,omitempty"`
}

// Runtime is the Go side of the process that reads the machine.
type Runtime struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
}

// Turbo is the global frequency boost state.
type Turbo struct {
	IntelPstateStatus Fact[string] `json:"intel_pstate_status"`
	NoTurbo           Fact[bool]   `json:"intel_pstate_no_turbo"`
	AmdPstateStatus   Fact[string] `json:"amd_pstate_status"`
	Boost             Fact[bool]   `json:"cpufreq_boost"`
	// On is whether the CPUs may run above their base frequency: from
	// no_turbo when intel_pstate has it, else cpufreq/boost, else the
	// per-policy boost of the online CPUs.
	On Fact[bool] `json:"on"`
}

// UnmarshalJSON reads a snapshot, and marks the facts that an older
// benchy did not record as unknown rather than leaving them a zero that
// reads as a value.
func (s *Snapshot) UnmarshalJSON(b []byte) error {
	type plain Snapshot
	p := plain{MemTotal: Unknown[int64]("%s", NotRecorded), CPUBrand: Unknown[string]("%s", NotRecorded)}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = Snapshot(p)
	return nil
}
