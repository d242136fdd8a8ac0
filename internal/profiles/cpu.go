package profiles

import (
	"bytes"
	"context"
	"errors"
	"runtime/pprof"
	"strings"
	"sync"

	"github.com/google/pprof/profile"
)

// label is the goroutine label that marks a measured call: its value is
// the experiment's name. Only samples with it are an experiment's.
const label = "benchy-experiment"

// Session profiles the CPU of this process while in-process experiments
// are sampled, and keeps for each the samples of its measured calls. Go
// has one CPU profiler per process, so the experiments share it: it runs
// from the first sample of the first experiment open to the close of the
// last (one experiment at a time, or all of an interleaved comparison
// together), and the thread of a measured call carries a label with the
// experiment's name (Measure) that tells its samples from those of
// warm-up, calibration and benchy's own work between samples, which the
// profiler sees too and Session drops.
type Session struct {
	mu     sync.Mutex
	open   int
	buf    bytes.Buffer
	parts  map[string][]*profile.Profile
	errs   map[string]error
	names  []string // the experiments of the profile running
	failed error    // why the profile running could not start
}

// NewSession returns a session that has profiled nothing yet.
func NewSession() *Session {
	return &Session{parts: map[string][]*profile.Profile{}, errs: map[string]error{}}
}

// Begin says the experiment name takes its first sample: the profiler
// starts if no other experiment holds it. Each Begin has its End.
func (s *Session) Begin(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names = append(s.names, name)
	s.open++
	if s.open > 1 {
		return
	}
	s.buf.Reset()
	// An error means another profiler runs (a test's -cpuprofile):
	// nothing is recorded, and each experiment says why.
	s.failed = pprof.StartCPUProfile(&s.buf)
}

// End says the experiment name took its last sample: when no other
// experiment holds the profiler it stops, and each experiment of the
// profile gets its labelled samples.
func (s *Session) End(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open--; s.open > 0 {
		return
	}
	var p *profile.Profile
	err := s.failed
	if err == nil {
		pprof.StopCPUProfile()
		p, err = profile.Parse(&s.buf)
	}
	for _, n := range s.names {
		if err != nil {
			s.errs[n] = err
			continue
		}
		s.parts[n] = append(s.parts[n], labelled(p, n))
	}
	s.names, s.failed = nil, nil
}

// Measure runs f, a measured call of the experiment name, with the label
// that makes its samples the experiment's.
func Measure(name string, f func()) {
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(label, name)))
	f()
	pprof.SetGoroutineLabels(context.Background())
}

// CPU is the CPU profile of the measured calls of the experiment name,
// nil when it took no sample.
func (s *Session) CPU(name string) (*profile.Profile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.errs[name]; err != nil {
		return nil, err
	}
	parts := s.parts[name]
	if len(parts) == 0 {
		return nil, errors.New("no profile was recorded")
	}
	return profile.Merge(parts)
}

// labelled is a copy of p with only the samples labelled name, the label
// removed (every sample has it).
func labelled(p *profile.Profile, name string) *profile.Profile {
	q := p.Copy()
	keep := q.Sample[:0]
	for _, smp := range q.Sample {
		if smp.HasLabel(label, name) {
			delete(smp.Label, label)
			keep = append(keep, smp)
		}
	}
	q.Sample = keep
	return q.Compact()
}

// WithoutProfiler drops the samples of the profiler's own goroutine (it
// reads and encodes the samples while the calls run): the calls did not
// do that work.
func WithoutProfiler(p *profile.Profile) {
	keep := p.Sample[:0]
	for _, s := range p.Sample {
		if !onStack(s, "runtime/pprof.profileWriter") {
			keep = append(keep, s)
		}
	}
	p.Sample = keep
}

func onStack(s *profile.Sample, prefix string) bool {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function != nil && strings.HasPrefix(l.Function.Name, prefix) {
				return true
			}
		}
	}
	return false
}
