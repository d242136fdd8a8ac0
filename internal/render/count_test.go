package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/benchy-dev/benchy/internal/result"
)

// countedSamples are four callgrind runs of perOp instructions an op and
// 2,000,000 a run, with the cache events of the estimate.
func countedSamples(perOp int64, cache bool) []result.CountSample {
	var out []result.CountSample
	for _, n := range []int64{250, 500, 750, 1000} {
		ev := map[string]int64{result.EventInstructions: perOp*n + 2_000_000}
		if cache {
			for k, v := range map[string]int64{result.EventDr: 4000, result.EventDw: 10, result.EventI1mr: 0, result.EventD1mr: 64,
				result.EventD1mw: 1, result.EventILmr: 0, result.EventDLmr: 8, result.EventDLmw: 0} {
				ev[k] = v*n + 100
			}
		}
		out = append(out, result.CountSample{Iters: n, Events: ev})
	}
	return out
}

func countedResult() *result.Result {
	r := fixtureResult()
	r.Experiments[0].Count = &result.Count{Counter: result.CounterCallgrind, Tool: "callgrind-3.19.0", Symbol: "main.sum",
		Samples: countedSamples(16_396, true)}
	r.Experiments[1].Count = &result.Count{Counter: result.CounterCallgrind, Error: "valgrind does not know an instruction"}
	return r
}

func TestCountText(t *testing.T) {
	r := countedResult()
	var b bytes.Buffer
	if err := WriteWith(&b, r, "text", Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"instructions/op", "16,396", "est-cycles/op", "callgrind-3.19.0, the slope over 4 runs at different N", "an estimate, not a time",
		r.Experiments[1].Name + ": instructions not counted: valgrind does not know"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("line of %d runes: %q", utf8.RuneCountInString(l), l)
		}
	}
	// 16,396 instructions, 4000 reads and 10 writes an op: 20,406
	// accesses, 65 L1 misses of which 8 went to memory: 20,341 L1 hits
	// and 57 last-level hits.
	if !strings.Contains(out, "20,906~") {
		t.Errorf("est-cycles: want 20,341 + 5×57 + 35×8 = 20,906:\n%s", out)
	}
	var v bytes.Buffer
	if err := WriteWith(&v, r, "text", Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.String(), "16,396") {
		t.Errorf("verbose text lacks the count:\n%s", v.String())
	}
}

func TestCountAbsentChangesNothing(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, fixtureResult(), "text"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "instructions/op") {
		t.Error("a count table without counts")
	}
}

func TestCountGobench(t *testing.T) {
	r := countedResult()
	var b bytes.Buffer
	if err := Write(&b, r, "gobench"); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "counted.gobench")
	var instr, est int
	for rd.Scan() {
		rec, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", rd.Result())
		}
		if _, ok := rec.Value("sec/op"); ok {
			continue // a time sample (the fixture's have perf's instructions)
		}
		if v, ok := rec.Value("instructions/op"); ok {
			instr++
			if v < 16_395.5 || v > 16_396.5 {
				t.Errorf("instructions/op %v, want 16396 (the run's constant out)", v)
			}
		}
		if _, ok := rec.Value("est-cycles/op"); ok {
			est++
		}
	}
	if instr != 4 || est != 4 {
		t.Errorf("%d instructions/op lines and %d est-cycles/op, want 4 each", instr, est)
	}
}

func TestCountMarkdownHTML(t *testing.T) {
	r := countedResult()
	for format, want := range map[string]string{"markdown": "| instructions/op |", "html": "<h2>Instructions per op</h2>"} {
		var b bytes.Buffer
		if err := Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "16,396") {
			t.Errorf("%s lacks the count table:\n%s", format, b.String())
		}
	}
}

func TestCountNumber(t *testing.T) {
	for in, want := range map[float64]string{16396.4: "16,396", 1234567: "1,234,567", 12.34: "12.3", -1500: "-1,500", 100: "100"} {
		if got := CountNumber(in); got != want {
			t.Errorf("CountNumber(%v) = %q, want %q", in, got, want)
		}
	}
}
