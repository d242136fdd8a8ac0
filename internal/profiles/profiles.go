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

	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/result"
)

// Dir is the directory the profiles of one run are written to, one file
// per experiment and kind, under names made from the experiments' names.
// Its files are written as --out is (outfile): atomically, through no
// link another user planted, and replacing a read-only file only when
// opts allow it (--force).
type Dir struct {
	Path string

	opts outfile.Options
	mu   sync.Mutex
	used map[string]bool
}

// NewDir makes the directory at path (and its parents) when missing,
// checks that profiles can be written into it (outfile.CheckDir: before
// anything is measured, so that a run is not spent on profiles that
// cannot be kept), and returns it, its links resolved.
func NewDir(path string, opts outfile.Options) (*Dir, error) {
	dir, err := outfile.CheckDir("--profile", path)
	if err != nil {
		return nil, err
	}
	return &Dir{Path: dir, opts: opts, used: map[string]bool{}}, nil
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

// write writes p to path in d, gzipped, as pprof writes it.
func (d *Dir) write(p *profile.Profile, path string) error {
	dest, err := outfile.Check("--profile", path, d.opts)
	if err != nil {
		return err
	}
	return dest.Write(p.Write)
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
		if err := d.write(cpu, path); err != nil {
			sum.Error = err.Error()
			return sum
		}
		sum.CPU = path
		SummarizeCPU(sum, cpu, ops)
	}
	if alloc != nil {
		path := d.File(name, "alloc")
		if err := d.write(alloc, path); err != nil {
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

// NewRecorder returns the recorder of the profiles written into d.
func NewRecorder(d *Dir) *Recorder {
	return &Recorder{Dir: d, Session: NewSession()}
}
