package gotestrun

import (
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// profileDiffs are the differences of the CPU profiles of every benchmark
// profiled on both sides, new less old, each also written into d.
func profileDiffs(old, cur *result.Result, d *profiles.Dir) []result.ProfileDiff {
	if d == nil {
		return nil
	}
	var out []result.ProfileDiff
	for _, n := range cur.Experiments {
		o := old.Find(n.Name)
		if o == nil || o.Profile == nil || n.Profile == nil {
			continue
		}
		if o.Profile.CPU == "" || n.Profile.CPU == "" {
			out = append(out, result.ProfileDiff{Name: n.Name, Error: "a side has no CPU profile"})
			continue
		}
		out = append(out, d.Diff(n.Name, o.Profile.CPU, n.Profile.CPU, o.Profile.Ops, n.Profile.Ops))
	}
	return out
}
