package machine

// Codes of the environment findings, stable for scripts;
// docs/findings.md gives each its threshold and why.
const (
	CodeNoCPUFreq      = "no-cpufreq"
	CodeGovernor       = "governor"
	CodeTurbo          = "turbo"
	CodeFreqRange      = "freq-range"
	CodeCPUBusy        = "cpu-busy"
	CodeSiblingBusy    = "sibling-busy"
	CodeBusyUnknown    = "busy-unknown"
	CodeLoad           = "load"
	CodeEfficiencyCore = "efficiency-core"
	CodeNotIsolated    = "not-isolated"
	CodeCPU0           = "cpu0"
	CodeSteal          = "steal"
	CodeVirtualMachine = "virtual-machine"
	CodeThrottled      = "throttled"
	CodeCgroupQuota    = "cgroup-quota"
	CodeSlowCPU        = "slow-cpu-chosen"
)

// Codes lists every code fit.Check may return, in the order it checks them.
var Codes = []string{
	CodeNoCPUFreq, CodeGovernor, CodeTurbo, CodeFreqRange, CodeCPUBusy, CodeSiblingBusy, CodeBusyUnknown,
	CodeLoad, CodeEfficiencyCore, CodeNotIsolated, CodeCPU0, CodeSteal, CodeVirtualMachine, CodeThrottled,
	CodeCgroupQuota, CodeSlowCPU,
}

// AnySteal reports whether a CPU whose busy can be judged had steal time.
func AnySteal(busy []CPUBusy) bool {
	for _, b := range busy {
		if b.Judged() && b.Steal.Value > 0 {
			return true
		}
	}
	return false
}
