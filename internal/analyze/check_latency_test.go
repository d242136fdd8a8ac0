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
			[]string{"p99.9 not reported: 5000 calls timed, 10000 needed"}},
		{"too few for p99 and p99.9, with a tail", latencyOf(500, 50), []string{result.CodeHeavyTail, result.CodeFewCalls},
			[]string{"p99, p99.9 not reported", "10000 needed"}},
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
