package sysread

import "github.com/benchy-dev/benchy/internal/machine"

// readLoad reads the load average and the CPU pressure.
func readLoad(s *machine.Snapshot, r FS) {
	if b, err := r.read("proc/loadavg"); err != nil {
		s.Load = machine.Unknown[machine.LoadAvg]("%s", why("proc/loadavg", err, ""))
	} else if l, err := parseLoadavg(b); err != nil {
		s.Load = machine.Unknown[machine.LoadAvg]("%v", err)
	} else {
		s.Load = machine.Known(l)
	}
	if b, err := r.read("proc/pressure/cpu"); err != nil {
		s.CPUPressure = machine.Unknown[float64]("%s", why("proc/pressure/cpu", err, "no proc/pressure/cpu: kernel without PSI (CONFIG_PSI, psi=1)"))
	} else if v, err := parsePressureSomeAvg10(b); err != nil {
		s.CPUPressure = machine.Unknown[float64]("%v", err)
	} else {
		s.CPUPressure = machine.Known(v)
	}
}

// readClockAndTurbo reads the clocksource, SMT and the global turbo state.
func readClockAndTurbo(s *machine.Snapshot, r FS) {
	const cs = "sys/devices/system/clocksource/clocksource0/"
	s.Clocksource = r.stringFact(cs+"current_clocksource", "")
	s.ClocksourceAvailable = r.stringFact(cs+"available_clocksource", "")
	s.SMTControl = r.stringFact(cpuDir+"/smt/control", "no smt/control: kernel without SMT hotplug support")
	s.SMTActive = boolFact(r.intFact(cpuDir+"/smt/active", "no smt/active: kernel without SMT hotplug support"))

	t := &s.Turbo
	t.IntelPstateStatus = r.stringFact(cpuDir+"/intel_pstate/status", "no intel_pstate driver")
	t.NoTurbo = boolFact(r.intFact(cpuDir+"/intel_pstate/no_turbo", "no intel_pstate driver"))
	t.AmdPstateStatus = r.stringFact(cpuDir+"/amd_pstate/status", "no amd_pstate driver")
	t.Boost = boolFact(r.intFact(cpuDir+"/cpufreq/boost", "no cpufreq/boost"))
	switch {
	case t.NoTurbo.Known():
		t.On = machine.Known(!t.NoTurbo.Value)
	case t.Boost.Known():
		t.On = t.Boost
	default:
		t.On = machine.Unknown[bool]("no intel_pstate/no_turbo, cpufreq/boost or per-policy boost")
		for _, c := range s.CPUs {
			if b, ok := c.Boost.Get(); ok {
				if !t.On.Known() || b {
					t.On = machine.Known(b)
				}
			}
		}
	}
}
