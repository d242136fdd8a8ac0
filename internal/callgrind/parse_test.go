package callgrind

import (
	"errors"
	"strings"
	"testing"
)

// cacheFile is a callgrind 3.19 output file of a run with --cache-sim=yes,
// its cost lines cut.
const cacheFile = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 6838
cmd:  ./sum.test -test.run=^$ -test.bench=^BenchmarkSum$ -test.benchtime=1000x
part: 1


desc: I1 cache: 32768 B, 64 B, 8-way associative
desc: D1 cache: 49152 B, 64 B, 12-way associative
desc: LL cache: 536870912 B, 64 B, 2-way associative

desc: Timerange: Basic block 0 - 6767681
desc: Trigger: Program termination

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 16412406 4103103 1001 2 1050 1 1 512

ob=(1) /tmp/sum.test
fl=(1) /tmp/sum_test.go
fn=(1) cgtest.BenchmarkSum
0 16412406 4103103 1001 2 1050 1 1 512

totals: 16412406 4103103 1001 2 1050 1 1 512
`

func TestParse(t *testing.T) {
	p, err := Parse(strings.NewReader(cacheFile))
	if err != nil {
		t.Fatal(err)
	}
	if p.Creator != "callgrind-3.19.0" || !strings.HasPrefix(p.Command, "./sum.test") {
		t.Errorf("creator %q, cmd %q", p.Creator, p.Command)
	}
	if len(p.Events) != 9 || p.Events[0] != "Ir" {
		t.Fatalf("events %v", p.Events)
	}
	want := map[string]int64{"Ir": 16412406, "Dr": 4103103, "Dw": 1001, "I1mr": 2, "D1mr": 1050, "D1mw": 1, "ILmr": 1, "DLmr": 512, "DLmw": 0}
	for k, v := range want {
		if p.Totals[k] != v {
			t.Errorf("%s = %d, want %d (a trailing zero left out is 0)", k, p.Totals[k], v)
		}
	}
	if p.Caches["LL"] != "536870912 B, 64 B, 2-way associative" || len(p.Caches) != 3 {
		t.Errorf("caches %v", p.Caches)
	}
	c := p.Counts()
	if c["instructions"] != 16412406 || c["DLmr"] != 512 {
		t.Errorf("counts %v: Ir is instructions, the rest keep their names", c)
	}
	if _, ok := c["Ir"]; ok {
		t.Errorf("counts %v keep Ir", c)
	}
}

func TestParseTotalsOnly(t *testing.T) {
	p, err := Parse(strings.NewReader("version: 1\nevents: Ir\nfn=(1) x\n0 5\ntotals: 42\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Totals["Ir"] != 42 {
		t.Errorf("Ir = %d, want 42 from totals:", p.Totals["Ir"])
	}
}

// TestParseFirstPart reads a file of several parts: the first events:,
// summary: and totals: lines are the file's, and a summary: wins over a
// totals: line wherever each stands.
func TestParseFirstPart(t *testing.T) {
	p, err := Parse(strings.NewReader("version: 1\nevents: Ir\ntotals: 7\nsummary: 3\nevents: Ir Dr\nsummary: 9 9\ntotals: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 1 || p.Totals["Ir"] != 3 || len(p.Totals) != 1 {
		t.Errorf("events %v, totals %v; want [Ir] and Ir = 3 from the first summary:", p.Events, p.Totals)
	}
}

// TestParseErrorLine checks the line each refusal names: the line at
// fault, or the last line when something is missing.
func TestParseErrorLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		line int
	}{
		{"creator: x\nversion: 2\n", 2},
		{"version: 1\nevents:\n", 2},
		{"version: 1\nsummary: 1\n\n", 3},
		{"events: Ir\n\n", 2},
		{"events: Ir\ntotals: 1 2\n", 2},
		{"events: Ir\nsummary: 1 2\ntotals: 1\n", 2},
		{"events: Ir Dr\n\nsummary: 1 -2\n", 3},
		{"events: Ir\n" + strings.Repeat("x", maxLine+1) + "\n", 2},
	} {
		_, err := Parse(strings.NewReader(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tt.line {
			t.Errorf("%.40q: error %v, want one at line %d", tt.in, err, tt.line)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"empty":          "",
		"no events":      "version: 1\nsummary: 1\n",
		"no summary":     "version: 1\nevents: Ir\n",
		"too many":       "events: Ir\nsummary: 1 2\n",
		"not a number":   "events: Ir Dr\nsummary: 1 x\n",
		"negative":       "events: Ir\nsummary: -1\n",
		"version 2":      "version: 2\nevents: Ir\nsummary: 1\n",
		"events nothing": "events:\nsummary: 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Parse(strings.NewReader(in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse = %+v, %v; want a *SyntaxError", p, err)
			}
			if se.Line < 0 || se.Msg == "" {
				t.Errorf("error %+v", se)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add(cacheFile)
	f.Add("version: 1\nevents: Ir\ntotals: 42\n")
	f.Add("events: Ir Dr\nsummary: 1\n")
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Parse(strings.NewReader(in))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		if len(p.Events) == 0 {
			t.Fatal("a profile without events")
		}
		for _, ev := range p.Events {
			if v, ok := p.Totals[ev]; !ok || v < 0 {
				t.Fatalf("event %s: total %d, %v", ev, v, ok)
			}
		}
	})
}
