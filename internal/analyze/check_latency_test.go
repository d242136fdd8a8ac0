package analyze

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
)

// latencyOf is the stored latency of n calls of 1 µs, every slowEvery-th
// (when > 0) 100 µs, in windows of 1,000 calls; the windows listed in gc
// saw a collection.
func latencyOf(n, slowEvery int, gc ...int) *result.Latency {
	h := latency.New()
	l := &result.Latency{}
	for i := range n {
		v := int64(1000)
		if slowEvery > 0 && i%slowEvery == slowEvery-1 {
			v = 100_000
		}
		h.Record(v)
		if i%1000 == 0 {
			l.Windows = append(l.Windows, result.LatencyWindow{})
		}
		w := &l.Windows[len(l.Windows)-1]
		w.Calls++
		w.MaxNs = max(w.MaxNs, v)
	}
	for _, i := range gc {
		l.Windows[i].GCCycles = 1
	}
	h.Store(l)
	return l
}

func TestCheckLatency(t *testing.T) {
	tests := []struct {
		name  string
		l     *result.Latency
		codes []string
		says  []string
	}{
		{"rare slow calls", latencyOf(20000, 500, 0, 3), []string{result.CodeHeavyTail},
			[]string{"0.2% of the calls", "17% of the time", "in 2 of the 20 windows"}},
		{"steady calls", latencyOf(20000, 0), nil, nil},
		{"too few for p99.9", latencyOf(5000, 0), []string{result.CodeFewCalls},
			[]string{"too few calls for p99.9 (needs 10000): 5000 timed", "more --samples"}},
		{"too few for p99 and p99.9, with a tail", latencyOf(500, 50), []string{result.CodeHeavyTail, result.CodeFewCalls},
			[]string{"too few calls for p99 (needs 1000), p99.9 (needs 10000): 500 timed"}},
		{"not timed", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := checkLatency(result.Experiment{Latency: tt.l})
			var codes []string
			var text string
			for _, f := range fs {
				codes = append(codes, f.Code)
				text += f.Message + "\n"
				if f.Severity != finding.Info {
					t.Errorf("%s is %s: it describes the code, not a doubt", f.Code, f.Severity)
				}
			}
			if strings.Join(codes, ",") != strings.Join(tt.codes, ",") {
				t.Errorf("codes %v, want %v", codes, tt.codes)
			}
			for _, s := range tt.says {
				if !strings.Contains(text, s) {
					t.Errorf("findings %q do not say %q", text, s)
				}
			}
		})
	}
}

// Analyze stores the percentiles and the tail; a report of the file
// derives the same.
func TestAnalyzeStoresLatency(t *testing.T) {
	r := &result.Result{Experiments: []result.Experiment{{Name: "x", Latency: latencyOf(20000, 500)}}}
	Analyze(r)
	l := r.Experiments[0].Latency
	if len(l.Percentiles) != 4 || !l.Percentiles[3].Reported || l.Tail == nil || l.Tail.Calls != 40 {
		t.Fatalf("percentiles %+v, tail %+v: want p50..p99.9 and 40 calls in the tail", l.Percentiles, l.Tail)
	}
	if p := l.Percentiles[3]; p.Ns < 90_000 || p.LoNs > p.Ns || p.HiNs < p.Ns {
		t.Errorf("p99.9 %d in [%d, %d]: want the slow calls' 100 µs inside its interval", p.Ns, p.LoNs, p.HiNs)
	}
	if !finding.Has(r.Experiments[0].Findings, result.CodeHeavyTail) {
		t.Errorf("findings %v: no heavy-tail", r.Experiments[0].Findings)
	}
}

// An exec program's runs get the report of single calls from the same
// histogram and percentiles: of the runs the table's statistics are of
// (p50 is its median), the percentiles 150 runs cannot give said with the
// runs each needs, and a report of the file derives the same again.
func TestAnalyzeExecRuns(t *testing.T) {
	e := result.Experiment{Kind: result.KindProcess, Name: "prog", Iters: 1}
	for i := range 150 {
		e.Samples = append(e.Samples, result.Sample{Iters: 1, Ns: 10_000_000 + int64((i*37)%150)*10_000, CPU: 1})
	}
	r := &result.Result{Experiments: []result.Experiment{e}}
	for pass := range 2 { // analysed, then reported from the file
		Analyze(r)
		e := r.Experiments[0]
		l := e.Latency
		if l == nil || !l.Runs || l.Calls != uint64(e.Stats.N) || len(l.Percentiles) != 4 {
			t.Fatalf("pass %d: latency %+v, want the %d runs of the statistics", pass, l, e.Stats.N)
		}
		p50, p90, p99 := l.Percentiles[0], l.Percentiles[1], l.Percentiles[2]
		if !p50.Reported || float64(p50.Ns) < e.Stats.Median*0.995 || float64(p50.Ns) > e.Stats.Median*1.005 {
			t.Errorf("pass %d: p50 %+v, want the median, %.0f", pass, p50, e.Stats.Median)
		}
		if !p90.Reported || p90.LoNs > p90.Ns || p90.HiNs < p90.Ns || p90.Ns < 11_300_000 || p90.Ns > 11_400_000 {
			t.Errorf("pass %d: p90 %+v, want about 11.35 ms inside its interval", pass, p90)
		}
		if p99.Reported || p99.Need != 1000 {
			t.Errorf("pass %d: p99 %+v, want not reported, needing 1000 runs", pass, p99)
		}
		var few []string
		for _, f := range e.Findings {
			if f.Code == result.CodeFewCalls {
				few = append(few, f.Message)
			}
		}
		if len(few) != 1 || !strings.Contains(few[0], "too few runs for p99 (needs 1000), p99.9 (needs 10000): 150 timed") || !strings.Contains(few[0], "more --runs") {
			t.Errorf("pass %d: few-calls %q, want one, saying what p99 needs in runs", pass, few)
		}
	}
}
