package sqlstore

import (
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

// The identity ignores what varies from run to run (a measured clock, the
// load, the hostname) and changes with what makes another machine (the
// CPU model, the number of CPUs, the kernel, the governor, the memory).
func TestIdentify(t *testing.T) {
	base := Identify(loadFixture(t)).ID
	same := map[string]func(*machine.Snapshot){
		"hostname": func(s *machine.Snapshot) { s.Hostname = machine.Known("ci-runner-4711") },
		"load":     func(s *machine.Snapshot) { s.Load = machine.Unknown[machine.LoadAvg]("x") },
		"cur freq": func(s *machine.Snapshot) { s.CPUs[0].CurFreqKHz = machine.Known(int64(1234567)) },
		"memory a few MiB off": func(s *machine.Snapshot) {
			s.MemTotal = machine.Known(int64(8<<30 - 100<<20))
		},
		"an unknown's reason": func(s *machine.Snapshot) { s.Kernel = machine.Unknown[string]("worded otherwise") },
	}
	other := map[string]func(*machine.Snapshot){
		"cpu model": func(s *machine.Snapshot) { s.CPUModel = machine.Known("Intel Xeon") },
		"cpus":      func(s *machine.Snapshot) { s.Online = machine.Known(machine.CPUList{0, 1, 2, 3}) },
		"kernel":    func(s *machine.Snapshot) { s.Kernel = machine.Known("6.99.0") },
		"governor":  func(s *machine.Snapshot) { s.CPUs[1].Governor = machine.Known("powersave") },
		"memory":    func(s *machine.Snapshot) { s.MemTotal = machine.Known(int64(16 << 30)) },
	}
	kernelUnknown := loadFixture(t)
	kernelUnknown.Before.Kernel = machine.Unknown[string]("a reason")
	kernelUnknown.Before.MemTotal = machine.Known(int64(8 << 30))
	unknownID := Identify(kernelUnknown).ID
	for name, change := range same {
		r := loadFixture(t)
		r.Before.MemTotal = machine.Known(int64(8 << 30))
		want := Identify(r).ID
		if name == "an unknown's reason" {
			want = unknownID
		}
		change(r.Before)
		if got := Identify(r).ID; got != want {
			t.Errorf("%s: identity changed, %s to %s", name, want, got)
		}
	}
	for name, change := range other {
		r := loadFixture(t)
		change(r.Before)
		if got := Identify(r).ID; got == base {
			t.Errorf("%s: identity unchanged %s", name, got)
		}
	}
}
