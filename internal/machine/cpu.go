package machine

// Core types.
const (
	CorePerformance = "performance"
	CoreEfficiency  = "efficiency"
)

// CPU is what the kernel says about one online CPU.
type CPU struct {
	CPU int `json:"cpu"`

	// cpufreq (sys/devices/system/cpu/cpuN/cpufreq/*), frequencies in kHz.
	Driver        Fact[string]  `json:"scaling_driver"`
	Governor      Fact[string]  `json:"scaling_governor"`
	CurFreqKHz    Fact[int64]   `json:"scaling_cur_freq_khz"`
	MinFreqKHz    Fact[int64]   `json:"scaling_min_freq_khz"`
	MaxFreqKHz    Fact[int64]   `json:"scaling_max_freq_khz"`
	CPUInfoMaxKHz Fact[int64]   `json:"cpuinfo_max_freq_khz"`
	EPP           Fact[string]  `json:"energy_performance_preference"`
	Boost         Fact[bool]    `json:"boost"` // per-policy boost (amd-pstate, kernel 6.11+)
	CoreType      Fact[string]  `json:"core_type"`
	CoreTypeFrom  string        `json:"core_type_from,omitempty"`
	Capacity      Fact[int64]   `json:"cpu_capacity"`
	Package       Fact[int64]   `json:"package"`
	Siblings      Fact[CPUList] `json:"smt_siblings"` // other hardware threads of this core
	CoreThrottles Fact[int64]   `json:"core_throttle_count"`
	PkgThrottles  Fact[int64]   `json:"package_throttle_count"`
}
