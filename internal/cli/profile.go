package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// ProfileOptions are the --profile flag of the commands that measure Go
// code (run, gotest).
type ProfileOptions struct {
	Profile string
	Dir     *profiles.Dir // Profile, checked; nil without --profile
}

func (o *ProfileOptions) Bind(f *pflag.FlagSet) {
	f.StringVar(&o.Profile, "profile", "", "write a CPU and an allocation profile of each experiment's measured calls (pprof) into `DIR`")
}

// Validate makes --profile's directory and checks that profiles can be
// written into it, before anything is measured. Its files obey --out's
// rules (force is --force: replace a read-only one).
func (o *ProfileOptions) Validate(force bool) error {
	if o.Profile == "" {
		return nil
	}
	d, err := profiles.NewDir(o.Profile, outfile.Options{Replace: force})
	if err != nil {
		return &UsageError{Msg: err.Error()}
	}
	o.Dir = d
	return nil
}

// Path is the directory of the profiles, "" without --profile.
func (o *ProfileOptions) Path() string {
	if o.Dir == nil {
		return ""
	}
	return o.Dir.Path
}

// ProfileNotes tells on stderr where the profiles went and which hold too
// few samples to read; nothing without --profile.
func ProfileNotes(r *result.Result, dir string, stderr io.Writer) {
	if dir == "" {
		return
	}
	var sparse, none []string
	example := ""
	for _, e := range r.Experiments {
		switch p := e.Profile; {
		case p == nil || p.CPU == "":
			none = append(none, e.Label())
		case p.Sparse():
			sparse = append(sparse, fmt.Sprintf("%s (%d)", e.Label(), p.Samples))
			fallthrough
		default:
			if example == "" {
				example = p.CPU
			}
		}
	}
	if example != "" {
		rel := example
		if wd, err := os.Getwd(); err == nil {
			if r, err := filepath.Rel(wd, example); err == nil && !strings.HasPrefix(r, "..") {
				rel = r
			}
		}
		fmt.Fprintf(stderr, "benchy: profiles of the measured calls in %s (go tool pprof -top %s); -v shows the top functions\n", result.Printable(dir), result.Printable(rel))
	}
	if len(sparse) > 0 {
		fmt.Fprintf(stderr, "benchy: too few profile samples to read (under %d; the profiler takes 100 per second of CPU): %s; raise --samples or --sample-time\n",
			result.ProfileMinSamples, strings.Join(sparse, ", "))
	}
	if len(none) > 0 {
		fmt.Fprintf(stderr, "benchy: no profile of %s (see the result)\n", strings.Join(none, ", "))
	}
}
