// Package profiles makes the profiles of --profile: CPU and allocation
// profiles (pprof's format) of exactly the measured calls of an experiment,
// a summary of their top functions for the result, and the difference of
// two revisions' profiles. The profiles are read and written with
// github.com/google/pprof/profile, the package go tool pprof uses; the
// result package stays free of it (it holds paths and numbers only).
package profiles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/google/pprof/profile"

	"github.com/benchy-dev/benchy/internal/result"
)

// Dir is the directory the profiles of one run are written to, one file
// per experiment and kind, under names made from the experiments' names.
type Dir struct {
	Path string

	mu   sync.Mutex
	used map[string]bool
}

// NewDir makes the directory at path (and its parents) and returns it.
func NewDir(path string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("--profile %s: %w", path, err)
	}
	return &Dir{Path: path, used: map[string]bool{}}, nil
}

// File is a path in d for the profile of kind ("cpu", "alloc", "diff.cpu")
// of the experiment name, unique in d for this run: "sum/keep" is
// "sum_keep.cpu.pprof", and a second experiment of the same file name gets
// "-2".
func (d *Dir) File(name, kind string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	base := FileName(name)
	for i := 1; ; i++ {
		stem := base
		if i > 1 {
			stem = fmt.Sprintf("%s-%d", base, i)
		}
		p := filepath.Join(d.Path, stem+"."+kind+".pprof")
		if !d.used[p] {
			d.used[p] = true
			return p
		}
	}
}

// FileName is name with every byte a file name should not hold (a slash,
// a space, a quote) made '_'; never empty.
func FileName(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.' && i > 0, c == '-', c == '_', c == '=':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// write writes p to path, gzipped, as pprof writes it.
func write(p *profile.Profile, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Read reads the profile at path.
func Read(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return profile.Parse(f)
}

// Record writes an experiment's CPU profile cpu and allocation profile
// alloc (nil when it allocated nothing sampled) of ops ops into d, and
// returns their summary for the result; what could not be written is the
// summary's Error.
func (d *Dir) Record(name string, cpu, alloc *profile.Profile, ops int64) *result.Profile {
	sum := &result.Profile{Ops: ops}
	if cpu != nil {
		path := d.File(name, "cpu")
		if err := write(cpu, path); err != nil {
			sum.Error = err.Error()
			return sum
		}
		sum.CPU = path
		SummarizeCPU(sum, cpu, ops)
	}
	if alloc != nil {
		path := d.File(name, "alloc")
		if err := write(alloc, path); err != nil {
			sum.Error = err.Error()
			return sum
		}
		sum.Alloc = path
		SummarizeAlloc(sum, alloc)
	}
	return sum
}

// Recorder is where the in-process experiments of one run put their
// profiles: the directory, and the CPU profiler they share.
type Recorder struct {
	Dir     *Dir
	Session *Session
}

// NewRecorder returns the recorder of the profiles written to path.
func NewRecorder(path string) (*Recorder, error) {
	d, err := NewDir(path)
	if err != nil {
		return nil, err
	}
	return &Recorder{Dir: d, Session: NewSession()}, nil
}
