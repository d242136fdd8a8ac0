package profiles

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/result"
)

// build is a profile of sample types types whose samples are stacks of
// function names, leaf first, each with its values.
func build(types []string, samples ...struct {
	stack  []string
	values []int64
}) *profile.Profile {
	p := &profile.Profile{PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000}
	for _, t := range types {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: t, Unit: "x"})
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	for _, s := range samples {
		var ls []*profile.Location
		for _, name := range s.stack {
			l, ok := locs[name]
			if !ok {
				f := &profile.Function{ID: uint64(len(funcs) + 1), Name: name}
				funcs[name] = f
				p.Function = append(p.Function, f)
				l = &profile.Location{ID: uint64(len(locs) + 1), Line: []profile.Line{{Function: f}}}
				locs[name] = l
				p.Location = append(p.Location, l)
			}
			ls = append(ls, l)
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: ls, Value: s.values})
	}
	return p
}

type smp = struct {
	stack  []string
	values []int64
}

func TestSummarizeCPU(t *testing.T) {
	p := build([]string{"samples", "cpu"},
		smp{[]string{"leaf", "mid", "main"}, []int64{3, 30e6}},
		smp{[]string{"mid", "main"}, []int64{1, 10e6}},
		smp{[]string{"rec", "rec", "main"}, []int64{2, 20e6}}, // recursion counts once in cum
	)
	var sum result.Profile
	SummarizeCPU(&sum, p, 1000)
	if sum.Samples != 6 || sum.Ops != 1000 || sum.CPUNsPerOp != 60e3 {
		t.Fatalf("samples %d ops %d cpu/op %v, want 6, 1000, 60000", sum.Samples, sum.Ops, sum.CPUNsPerOp)
	}
	want := []result.ProfileEntry{{Func: "leaf", Flat: 30e3, Cum: 30e3}, {Func: "rec", Flat: 20e3, Cum: 20e3}, {Func: "mid", Flat: 10e3, Cum: 40e3}}
	if len(sum.Top) != len(want) {
		t.Fatalf("top %+v, want %+v", sum.Top, want)
	}
	for i := range want {
		if sum.Top[i] != want[i] {
			t.Errorf("top[%d] = %+v, want %+v", i, sum.Top[i], want[i])
		}
	}
	if !sum.Sparse() == (sum.CPU != "") {
		t.Errorf("a profile without a file is not sparse")
	}
	sum.CPU = "x"
	if !sum.Sparse() {
		t.Errorf("6 samples: want sparse")
	}
}

// TestDelta: the allocations of after less before, only under the
// measured function, in alloc types only.
func TestDelta(t *testing.T) {
	types := []string{"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}
	before := build(types,
		smp{[]string{"make", "loop", "harness"}, []int64{10, 1000, 1, 100}},
		smp{[]string{"make", "benchy"}, []int64{5, 500, 5, 500}},
	)
	after := build(types,
		smp{[]string{"make", "loop", "harness"}, []int64{30, 3000, 2, 200}},
		smp{[]string{"make", "benchy"}, []int64{9, 900, 5, 500}},
		smp{[]string{"old", "loop", "harness"}, []int64{4, 40, 0, 0}},
	)
	d, err := Delta([]*profile.Profile{before}, []*profile.Profile{after}, "loop")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.SampleType) != 2 || d.SampleType[1].Type != "alloc_space" || d.DefaultSampleType != "alloc_space" {
		t.Fatalf("sample types %v", d.SampleType)
	}
	got := map[string][]int64{}
	for _, s := range d.Sample {
		got[s.Location[0].Line[0].Function.Name] = s.Value
	}
	if len(got) != 2 || got["make"][0] != 20 || got["make"][1] != 2000 || got["old"][1] != 40 {
		t.Errorf("delta %v, want make [20 2000] and old [4 40]", got)
	}
	none, err := Delta([]*profile.Profile{before}, []*profile.Profile{before}, "loop")
	if err != nil || none != nil {
		t.Errorf("no allocation: got %v, %v; want nil, nil", none, err)
	}
	if _, err := Delta(nil, []*profile.Profile{after}, "loop"); err == nil {
		t.Errorf("no before: want an error")
	}
}

func TestFile(t *testing.T) {
	d := newDir(t, filepath.Join(t.TempDir(), "a", "b"))
	for _, c := range []struct{ name, kind, want string }{
		{"sum/keep", "cpu", "sum_keep.cpu.pprof"},
		{"sum_keep", "cpu", "sum_keep-2.cpu.pprof"},
		{"sum/keep", "alloc", "sum_keep.alloc.pprof"},
		{"old Quote", "cpu", "old_Quote.cpu.pprof"},
		{"", "cpu", "_.cpu.pprof"},
		{"../x", "cpu", "_._x.cpu.pprof"},
	} {
		if got := filepath.Base(d.File(c.name, c.kind)); got != c.want {
			t.Errorf("File(%q, %q) = %s, want %s", c.name, c.kind, got, c.want)
		}
	}
}

//go:noinline
func burnLabelled(until time.Time) int {
	x := 0
	for time.Now().Before(until) {
		for i := range 10000 {
			x += i * i
		}
	}
	return x
}

//go:noinline
func burnOther(until time.Time) int {
	x := 0
	for time.Now().Before(until) {
		for i := range 10000 {
			x ^= i * i
		}
	}
	return x
}

// TestSessionKeepsOnlyMeasured: a real CPU profile, in which the work
// outside Measure (as warm-up or benchy's own) is not the experiment's.
func TestSessionKeepsOnlyMeasured(t *testing.T) {
	s := NewSession()
	s.Begin("a")
	sink := 0
	for range 3 {
		sink += burnOther(time.Now().Add(50 * time.Millisecond))
		Measure("a", func() { sink += burnLabelled(time.Now().Add(100 * time.Millisecond)) })
	}
	s.End("a")
	runtime.KeepAlive(sink)
	p, err := s.CPU("a")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sample) == 0 {
		t.Fatal("no sample in 300ms of measured work")
	}
	for _, smp := range p.Sample {
		if onStack(smp, "github.com/benchy-dev/benchy/internal/profiles.burnOther") {
			t.Fatalf("a sample outside the measured calls was kept: %v", smp)
		}
		if len(smp.Label) != 0 {
			t.Fatalf("the label was kept: %v", smp.Label)
		}
	}
	if _, err := s.CPU("b"); err == nil {
		t.Errorf("an experiment never begun: want an error")
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.Parse(&buf); err != nil {
		t.Errorf("the profile does not read back: %v", err)
	}
}

// TestSessionShared: two experiments in one profile (interleaved) each
// keep their own samples, and a second profile after the first is added.
func TestSessionShared(t *testing.T) {
	s := NewSession()
	s.Begin("a")
	s.Begin("b")
	sink := 0
	Measure("a", func() { sink += burnLabelled(time.Now().Add(100 * time.Millisecond)) })
	Measure("b", func() { sink += burnOther(time.Now().Add(100 * time.Millisecond)) })
	s.End("a")
	s.End("b")
	s.Begin("a")
	Measure("a", func() { sink += burnLabelled(time.Now().Add(50 * time.Millisecond)) })
	s.End("a")
	runtime.KeepAlive(sink)
	for name, other := range map[string]string{"a": "burnOther", "b": "burnLabelled"} {
		p, err := s.CPU(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, smp := range p.Sample {
			if onStack(smp, "github.com/benchy-dev/benchy/internal/profiles."+other) {
				t.Errorf("%s holds a sample of %s", name, other)
			}
		}
	}
}

func FuzzSummarize(f *testing.F) {
	var buf bytes.Buffer
	build([]string{"samples", "cpu"}, smp{[]string{"a", "b"}, []int64{1, 10}}).Write(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := profile.ParseData(data)
		if err != nil {
			return
		}
		var sum result.Profile
		SummarizeCPU(&sum, p, 3)
		SummarizeAlloc(&sum, p)
		Delta([]*profile.Profile{p}, []*profile.Profile{p}, "a")
		diffRows(p, p, 1, 1)
	})
}

// TestDiff: per op, grown first, shrunk last, the file a difference pprof
// reads.
func TestDiff(t *testing.T) {
	dir := t.TempDir()
	old := build([]string{"samples", "cpu"},
		smp{[]string{"parse", "main"}, []int64{10, 100e6}},
		smp{[]string{"copy", "main"}, []int64{10, 100e6}},
	)
	cur := build([]string{"samples", "cpu"},
		smp{[]string{"parse", "main"}, []int64{5, 50e6}},
		smp{[]string{"alloc", "main"}, []int64{20, 200e6}},
	)
	pd := newDir(t, dir)
	pd.write(old, filepath.Join(dir, "old.pprof"))
	pd.write(cur, filepath.Join(dir, "new.pprof"))
	// old ran twice the ops: per op it cost 100ms/op less than it seems.
	d := pd.Diff("X", filepath.Join(dir, "old.pprof"), filepath.Join(dir, "new.pprof"), 2, 1)
	if d.Error != "" {
		t.Fatal(d.Error)
	}
	if d.OldNsPerOp != 100e6 || d.NewNsPerOp != 250e6 || d.OldSamples != 20 || d.NewSamples != 25 {
		t.Fatalf("per op %v -> %v, samples %d -> %d", d.OldNsPerOp, d.NewNsPerOp, d.OldSamples, d.NewSamples)
	}
	var order []string
	for _, r := range d.Rows {
		order = append(order, r.Func)
	}
	if want := []string{"alloc", "main", "copy"}; !slices.Equal(order, want) {
		t.Errorf("rows %v, want %v (grew most first; parse cost the same per op)", order, want)
	}
	if r := d.Rows[0]; r.FlatDelta() != 200e6 || r.OldFlat != 0 {
		t.Errorf("alloc: %+v", r)
	}
	p, err := Read(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	var total, base int64
	for _, s := range p.Sample {
		total += s.Value[1]
		if s.DiffBaseSample() {
			base += s.Value[1]
		}
	}
	if total != 150e6 || base != -100e6 {
		t.Errorf("the difference sums to %d (base %d), want 150e6 (base -100e6)", total, base)
	}
	if bad := pd.Diff("X", filepath.Join(dir, "none"), d.Path, 1, 1); bad.Error == "" {
		t.Errorf("a missing profile: want an error")
	}
}

func newDir(t *testing.T, path string) *Dir {
	t.Helper()
	d, err := NewDir(path, outfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A profile that cannot be written is named with the flag that chose its
// directory, as every file benchy writes is.
func TestWriteErrorNamesTheFlag(t *testing.T) {
	d := newDir(t, t.TempDir())
	path := d.File("sum/keep", "cpu")
	if err := os.Mkdir(path, 0o755); err != nil { // a directory where the profile goes
		t.Fatal(err)
	}
	err := d.write(build([]string{"samples", "cpu"}, smp{[]string{"f", "main"}, []int64{1, 10e6}}), path)
	if err == nil || !strings.HasPrefix(err.Error(), "--profile "+path+": ") {
		t.Errorf("write over a directory: %v, want an error naming --profile %s", err, path)
	}
}
