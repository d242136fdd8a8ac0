package sqlstore

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// A Machine is the identity of the machine a result was measured on: the
// facts chosen because they stay put while the machine does and differ
// between machines that would measure differently, and the hash of them.
// No measured value takes part (a clock, a calibration, the load): a
// measured value varies from run to run and would split one machine into
// many. The hostname takes no part either: CI runners of one type have a
// new name on every job, and should share one history.
type Machine struct {
	ID    string `json:"id"`
	Facts []Fact `json:"facts"`
}

// Fact is one field of a machine identity.
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// identityVersion starts the hashed text: a change of the chosen fields
// makes new identities rather than colliding with the old ones.
const identityVersion = "benchy-machine-1"

// Identify is the identity of the machine r was measured on, from its
// snapshot before the run (after it, when there is none). Each fact that
// cannot be read is "unknown" without its reason: the wording of a reason
// changes between benchy versions, the machine does not.
func Identify(r *result.Result) Machine {
	s := r.Before
	if s == nil {
		s = r.After
	}
	cpu := measuredCPU(s, r.CPU)
	facts := []Fact{
		{"goos", orUnknown(r.GOOS)},
		{"goarch", orUnknown(r.GOARCH)},
		{"cpu_model", orUnknown(firstKnown(fact(s, func(s *machine.Snapshot) machine.Fact[string] { return s.CPUModel }), r.CPUModel))},
		{"online_cpus", cpuCount(s)},
		{"smt_active", fact(s, func(s *machine.Snapshot) machine.Fact[bool] { return s.SMTActive })},
		{"hypervisor", fact(s, func(s *machine.Snapshot) machine.Fact[bool] { return s.Hypervisor })},
		{"kernel_release", fact(s, func(s *machine.Snapshot) machine.Fact[string] { return s.Kernel })},
		{"turbo", fact(s, func(s *machine.Snapshot) machine.Fact[bool] { return s.Turbo.On })},
		{"scaling_driver", cpuFact(cpu, func(c machine.CPU) machine.Fact[string] { return c.Driver })},
		{"scaling_governor", orUnknown(firstKnown(cpuFact(cpu, func(c machine.CPU) machine.Fact[string] { return c.Governor }), r.Governor))},
		{"cpuinfo_max_freq_khz", cpuFact(cpu, func(c machine.CPU) machine.Fact[int64] { return c.CPUInfoMaxKHz })},
		{"core_type", cpuFact(cpu, func(c machine.CPU) machine.Fact[string] { return c.CoreType })},
		{"memory_gib", memory(s)},
	}
	var b strings.Builder
	b.WriteString(identityVersion + "\n")
	for _, f := range facts {
		b.WriteString(f.Name + "=" + f.Value + "\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return Machine{ID: hex.EncodeToString(sum[:6]), Facts: facts}
}

const unknown = "unknown"

func orUnknown(s string) string {
	if s == "" || strings.HasPrefix(s, "unknown") {
		return unknown
	}
	return s
}

func firstKnown(a, b string) string {
	if a != unknown && a != "" {
		return a
	}
	return b
}

// fact is a snapshot fact as identity text: its value, or "unknown".
func fact[T any](s *machine.Snapshot, get func(*machine.Snapshot) machine.Fact[T]) string {
	if s == nil {
		return unknown
	}
	return factText(get(s))
}

func cpuFact[T any](c *machine.CPU, get func(machine.CPU) machine.Fact[T]) string {
	if c == nil {
		return unknown
	}
	return factText(get(*c))
}

func factText[T any](f machine.Fact[T]) string {
	v, ok := f.Get()
	if !ok {
		return unknown
	}
	return strings.TrimSpace(strings.ReplaceAll(fmtValue(v), "\n", " "))
}

func fmtValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return unknown
}

// measuredCPU is the snapshot's record of the CPU the samples were
// pinned to; nil when the snapshot has none.
func measuredCPU(s *machine.Snapshot, cpu int) *machine.CPU {
	if s == nil {
		return nil
	}
	for i := range s.CPUs {
		if s.CPUs[i].CPU == cpu {
			return &s.CPUs[i]
		}
	}
	return nil
}

// cpuCount is the number of online CPUs.
func cpuCount(s *machine.Snapshot) string {
	if s == nil {
		return unknown
	}
	if l, ok := s.Online.Get(); ok && len(l) > 0 {
		return strconv.Itoa(len(l))
	}
	if s.NumCPU > 0 {
		return strconv.Itoa(s.NumCPU)
	}
	return unknown
}

// memory is the machine's RAM rounded to GiB: MemTotal moves by a few
// MiB between kernels and firmware settings, the machine does not.
func memory(s *machine.Snapshot) string {
	if s == nil {
		return unknown
	}
	b, ok := s.MemTotal.Get()
	if !ok || b <= 0 {
		return unknown
	}
	return strconv.FormatInt((b+1<<29)>>30, 10)
}
