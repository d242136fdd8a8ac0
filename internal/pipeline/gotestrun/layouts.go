package gotestrun

import (
	"fmt"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/layout"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// MaxLayouts bounds GoTestPlan.Layouts: every layout is a link of each
// revision.
const MaxLayouts = 50

// layoutProcesses is how many processes each layout runs: the processes
// spread over the layouts, at least two each, so that the variation
// between layouts can be told from that between processes.
func layoutProcesses(processes, layouts int) int {
	return max(2, (processes+layouts-1)/layouts)
}

// buildLayouts builds the side in dir once into out without seeds, and
// with them once per seed, layout l into out-L with -randlayout=seeds[l].
func buildLayouts(p GoTestPlan, ch *gotest.Children, label, dir, out string, seeds []int64) ([]*side, error) {
	if len(seeds) == 0 {
		s, err := buildSide(p, ch, dir, out, p.BuildFlags)
		if err != nil {
			return nil, err
		}
		s.label = label
		return []*side{s}, nil
	}
	var ss []*side
	for i, seed := range seeds {
		s, err := buildSide(p, ch, dir, fmt.Sprintf("%s-L%d", out, i+1), layout.Flags(p.BuildFlags, seed))
		if err != nil {
			return nil, err
		}
		s.label = label
		ss = append(ss, s)
	}
	return ss, nil
}

// withLayouts makes each group of targets (a benchmark alone, or its old
// and new) into the group of all its layouts, layout by layout: the 2K
// binaries of a benchmark interleaved in one group. layouts[side] are the
// builds of each side, in the order of a group's targets.
func withLayouts(ts []pipeline.Target, group int, layouts [][]*side) ([]pipeline.Target, error) {
	var out []pipeline.Target
	for start := 0; start < len(ts); start += group {
		g := ts[start:min(start+group, len(ts))]
		for l := range layouts[0] {
			for i, t := range g {
				gt := t.(*gotest.Target)
				if l == 0 {
					out = append(out, gt)
					continue
				}
				bin := binaryOf(layouts[i][l], gt.Bin.Package.ImportPath)
				if bin == nil {
					return nil, fmt.Errorf("layout %d of %s has no test binary of %s", l+1, layouts[i][l].label, gt.Bin.Package.ImportPath)
				}
				c := gt.WithBinary(bin, gt.Display)
				c.Layout = l
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func binaryOf(s *side, importPath string) *gotest.Binary {
	for _, b := range s.bins {
		if b.Package.ImportPath == importPath {
			return b
		}
	}
	return nil
}

// mergeLayouts makes the experiments of every layout of a benchmark into
// one, its processes numbered layout by layout (layout l's are
// l·perLayout on), and analyzes the result again: the process, of any
// layout, is the unit of every interval.
func mergeLayouts(r *result.Result, layouts, perLayout int) {
	type key struct{ side, name string }
	byName := map[key]int{}
	var kept []result.Experiment
	for _, e := range r.Experiments {
		k, l := key{e.Side, e.Name}, e.Layout
		if l == 0 {
			byName[k] = len(kept)
			kept = append(kept, e)
			continue
		}
		j, ok := byName[k]
		if !ok {
			continue
		}
		first := &kept[j]
		for _, s := range e.Samples {
			s.Process += l * perLayout
			first.Samples = append(first.Samples, s)
		}
		if e.Error != "" && first.Error == "" {
			first.Error = fmt.Sprintf("layout %d: %s", l+1, e.Error)
		}
	}
	r.Experiments = kept
	r.Settings.Samples *= layouts
	analyze.Analyze(r)
}

// judgeLayouts holds the changes files claims, the comparison of old and
// cur (the sides of the interleaved run r), against what the layouts alone
// move each benchmark by (layout.Spreads, layout.Judge): r.Layouts gets
// every benchmark's spread, a claimed change no larger becomes
// layout-sensitive in files, and its new side's experiment in r gets the
// finding. Nothing without Layouts.
func judgeLayouts(r, old, cur *result.Result, files *compare.Files) {
	l := r.Layouts
	if l == nil {
		return
	}
	l.Benchmarks = layout.Spreads(old, cur, files, l)
	for name, f := range layout.Judge(files, l) {
		if e := r.FindSide(result.SideNew, name); e != nil {
			e.Findings = append(e.Findings, f)
		}
	}
	analyze.Analyze(r) // the findings added
}
