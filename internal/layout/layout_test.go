package layout

import (
	"math"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestFlags(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{nil, []string{"-ldflags=-randlayout=3"}},
		{[]string{"-tags", "x"}, []string{"-tags", "x", "-ldflags=-randlayout=3"}},
		{[]string{"-ldflags=-s -w"}, []string{"-ldflags=-s -w -randlayout=3"}},
		{[]string{"-ldflags", "-s"}, []string{"-ldflags", "-s -randlayout=3"}},
		{[]string{"-ldflags=-s", "-ldflags='-w'"}, []string{"-ldflags=-s", "-ldflags=-w -randlayout=3"}},
	} {
		if got := Flags(c.in, 3); !slices.Equal(got, c.want) {
			t.Errorf("Flags(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if s := Seeds(3); !slices.Equal(s, []int64{1, 2, 3}) {
		t.Errorf("Seeds(3) = %v", s)
	}
}

// TestSpreadSplitsLayoutFromProcess: layouts 10% apart with processes that
// agree within each is layout variation; processes that scatter as much
// within every layout, with layouts alike, is process variation.
func TestSpreadSplitsLayoutFromProcess(t *testing.T) {
	byLayout := Medians{{100, 100.5, 99.5}, {110, 110.5, 109.5}, {105, 105.5, 104.5}}
	sp := Spread("X", nil, byLayout, 0.05, true)
	if math.Abs(sp.Range-10.0/105) > 1e-9 || !sp.Sensitive || sp.Move != 2*sp.LayoutSD {
		t.Errorf("range %v move %v sensitive %v, want %v and sensitive to a 5%% change", sp.Range, sp.Move, sp.Sensitive, 10.0/105)
	}
	if sp.LayoutSD < 0.04 || sp.ProcessSD > 0.01 {
		t.Errorf("layout SD %v, process SD %v: want the layouts' part large and the processes' small", sp.LayoutSD, sp.ProcessSD)
	}
	byProcess := Medians{{95, 105, 100}, {96, 104, 100}, {94, 106, 100}}
	sp = Spread("Y", byLayout, byProcess, 0.20, true)
	if sp.Sensitive {
		t.Errorf("a 20%% change, layouts within 10%%: not sensitive, got %+v", sp)
	}
	if len(sp.Old) != 3 || len(sp.New) != 3 {
		t.Errorf("layout medians %v %v", sp.Old, sp.New)
	}
	one := Spread("Z", nil, byProcess, 0, true)
	if one.LayoutSD != 0 || one.ProcessSD < 0.03 {
		t.Errorf("processes scattering within alike layouts: layout SD %v, process SD %v", one.LayoutSD, one.ProcessSD)
	}
	if Spread("Z", nil, byLayout, 0.5, false).Sensitive {
		t.Errorf("nothing claimed: not sensitive")
	}
}

func TestProcessMedians(t *testing.T) {
	e := &result.Experiment{}
	for p := range 4 {
		for i := range 3 {
			e.Samples = append(e.Samples, result.Sample{Iters: 10, Ns: int64(100 * (p + 1) * (10 + i)), Process: p})
		}
	}
	m := ProcessMedians(e, 2, 2)
	if len(m) != 2 || len(m[0]) != 2 || len(m[1]) != 2 {
		t.Fatalf("medians %v", m)
	}
	slices.Sort(m[1])
	if m[1][0] != 330 || m[1][1] != 440 {
		t.Errorf("layout 1's process medians %v, want 330 and 440", m[1])
	}
}
