package profiles

import (
	"cmp"
	"slices"

	"github.com/google/pprof/profile"

	"github.com/benchy-dev/benchy/internal/result"
)

// Diff is the difference of one benchmark's CPU profiles on two revisions,
// new less old by function, as pprof -diff_base computes it, but per op:
// old is scaled by newOps/oldOps first, so that two sides that ran
// different numbers of ops compare their cost of one op. The difference is
// also written into dir as a profile pprof reads as a difference (old's
// samples negated and labelled pprof::base): go tool pprof -top FILE.
func (dir *Dir) Diff(name, oldPath, newPath string, oldOps, newOps int64) result.ProfileDiff {
	d := result.ProfileDiff{Name: name}
	old, err := Read(oldPath)
	if err != nil {
		d.Error = "old: " + err.Error()
		return d
	}
	cur, err := Read(newPath)
	if err != nil {
		d.Error = "new: " + err.Error()
		return d
	}
	if oldOps <= 0 || newOps <= 0 {
		d.Error = "a side's profile covers no op"
		return d
	}
	d.OldSamples, d.NewSamples = count(old), count(cur)
	if i := sampleType(old, "cpu"); i >= 0 {
		d.OldNsPerOp = perOp(sumByFunc(old, i).total, oldOps)
	}
	if i := sampleType(cur, "cpu"); i >= 0 {
		d.NewNsPerOp = perOp(sumByFunc(cur, i).total, newOps)
	}
	d.Rows = diffRows(old, cur, oldOps, newOps)
	base := old.Copy()
	base.Scale(-float64(newOps) / float64(oldOps))
	for _, s := range base.Sample {
		if s.Label == nil {
			s.Label = map[string][]string{}
		}
		s.Label["pprof::base"] = []string{"true"}
	}
	diff, err := profile.Merge([]*profile.Profile{cur, base})
	path := dir.File(name, "diff.cpu")
	if err == nil {
		err = dir.write(diff, path)
	}
	if err != nil {
		d.Error = "the difference as a profile: " + err.Error()
		return d
	}
	d.Path = path
	return d
}

// diffRows are the functions whose CPU time per op changed, what grew
// most (flat) first: the TopN that grew most and the TopN that shrank
// most, in that order.
func diffRows(old, cur *profile.Profile, oldOps, newOps int64) []result.ProfileDelta {
	io, in := sampleType(old, "cpu"), sampleType(cur, "cpu")
	if io < 0 || in < 0 || oldOps <= 0 || newOps <= 0 {
		return nil
	}
	o, n := sumByFunc(old, io), sumByFunc(cur, in)
	var rows []result.ProfileDelta
	for name := range joinKeys(o.cum, n.cum) {
		r := result.ProfileDelta{Func: name, OldFlat: perOp(o.flat[name], oldOps), NewFlat: perOp(n.flat[name], newOps),
			OldCum: perOp(o.cum[name], oldOps), NewCum: perOp(n.cum[name], newOps)}
		if r.FlatDelta() != 0 || r.CumDelta() != 0 {
			rows = append(rows, r)
		}
	}
	slices.SortFunc(rows, func(a, b result.ProfileDelta) int {
		return cmp.Or(cmp.Compare(b.FlatDelta(), a.FlatDelta()), cmp.Compare(b.CumDelta(), a.CumDelta()), cmp.Compare(a.Func, b.Func))
	})
	if len(rows) <= 2*TopN {
		return rows
	}
	var grew, shrank []result.ProfileDelta
	for _, r := range rows {
		if r.FlatDelta() > 0 || r.FlatDelta() == 0 && r.CumDelta() > 0 {
			grew = append(grew, r)
		} else {
			shrank = append(shrank, r)
		}
	}
	grew = grew[:min(TopN, len(grew))]
	shrank = shrank[max(0, len(shrank)-TopN):]
	return append(grew, shrank...)
}

// joinKeys is the set of keys of a and b.
func joinKeys(a, b map[string]int64) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
