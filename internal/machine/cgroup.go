package machine

// Cgroup is what the control group of this process allows: which CPUs
// (cpuset) and how much CPU time (quota).
type Cgroup struct {
	Version Fact[int64]   `json:"version"` // 1 or 2
	Path    Fact[string]  `json:"path"`    // from proc/self/cgroup
	Cpuset  Fact[CPUList] `json:"cpuset"`  // effective cpuset
	Quota   Fact[Quota]   `json:"cpu_quota"`
}

// Quota is a CFS bandwidth limit: the group may run QuotaUs of CPU time per
// PeriodUs, CPUs = QuotaUs/PeriodUs. The tightest limit of the group and its
// ancestors is kept, since each of them applies.
type Quota struct {
	Limited  bool    `json:"limited"`
	CPUs     float64 `json:"cpus,omitempty"`
	QuotaUs  int64   `json:"quota_us,omitempty"`
	PeriodUs int64   `json:"period_us,omitempty"`
	From     string  `json:"from"` // the file the limit (or "no limit") was read from
}
