package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/result"
)

// profileOptions are the --profile flag of the commands that measure Go
// code (run, gotest).
type profileOptions struct {
	Profile string
	dir     string // Profile, absolute
}

func (o *profileOptions) bind(f *pflag.FlagSet) {
	f.StringVar(&o.Profile, "profile", "", "write a CPU and an allocation profile of each experiment's measured calls (pprof) into `DIR`")
}

// validate refuses a --profile that cannot be a directory, before
// anything is measured.
func (o *profileOptions) validate() error {
	if o.Profile == "" {
		return nil
	}
	abs, err := filepath.Abs(o.Profile)
	if err != nil {
		return Usagef("--profile %s: %v", o.Profile, err)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return Usagef("--profile %s: not a directory (profiles are written into a directory, one file per experiment)", o.Profile)
	}
	o.dir = abs
	return nil
}

// profileNotes tells on stderr where the profiles went and which hold too
// few samples to read; nothing without --profile.
func profileNotes(r *result.Result, dir string, stderr io.Writer) {
	if dir == "" {
		return
	}
	var sparse, none []string
	example := ""
	for _, e := range r.Experiments {
		switch p := e.Profile; {
		case p == nil || p.CPU == "":
			none = append(none, e.Name)
		case p.Sparse():
			sparse = append(sparse, fmt.Sprintf("%s (%d)", e.Name, p.Samples))
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
		fmt.Fprintf(stderr, "benchy: profiles of the measured calls in %s (go tool pprof -top %s); -v shows the top functions\n", dir, rel)
	}
	if len(sparse) > 0 {
		fmt.Fprintf(stderr, "benchy: too few profile samples to read (under %d; the profiler takes 100 per second of CPU): %s; raise --samples or --sample-time\n",
			result.ProfileMinSamples, strings.Join(sparse, ", "))
	}
	if len(none) > 0 {
		fmt.Fprintf(stderr, "benchy: no profile of %s (see the result)\n", strings.Join(none, ", "))
	}
}
