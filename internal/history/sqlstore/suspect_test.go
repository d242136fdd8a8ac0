package sqlstore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
	"github.com/benchy-dev/benchy/internal/result"
)

// What confirming a step needs is read from the stored result: the test
// package and testing's name for gotest, why not for run and exec.
func TestGotestBenchmark(t *testing.T) {
	g, err := result.Load(filepath.Join("..", "..", "..", "testdata", "compare", "gotest-old.json"))
	if err != nil {
		t.Fatal(err)
	}
	if pkg, bench, why := gotestBenchmark(g, "Work"); pkg != "example.com/work" || bench != "BenchmarkWork" || why != "" {
		t.Errorf("gotest: %q %q %q", pkg, bench, why)
	}
	e := g.Find("Work")
	e.Description = "go test benchmark example.com/a.b/c.BenchmarkX/size=1.Benchmark"
	g.Package = "example.com/other example.com/a.b/c"
	if pkg, bench, _ := gotestBenchmark(g, "Work"); pkg != "example.com/a.b/c" || bench != "BenchmarkX/size=1.Benchmark" {
		t.Errorf("a dotted path and sub-benchmark: %q %q", pkg, bench)
	}
	g.Package = ""
	if pkg, bench, _ := gotestBenchmark(g, "Work"); pkg != "example.com/a.b/c" || bench != "BenchmarkX/size=1.Benchmark" {
		t.Errorf("without the result's package: %q %q", pkg, bench)
	}
	// A package named like a flag is refused, not given to go list.
	for _, pkgs := range []string{"-toolexec=/tmp/x", ""} {
		e.Description = "go test benchmark -toolexec=/tmp/x.BenchmarkX"
		g.Package = pkgs
		if pkg, _, why := gotestBenchmark(g, "Work"); pkg != "" || !strings.Contains(why, `"-toolexec=/tmp/x" begins with '-'`) {
			t.Errorf("a package that begins with '-' (result's package %q): %q, why %q", pkgs, pkg, why)
		}
	}
	e.Kind = result.KindProcess
	if _, _, why := gotestBenchmark(g, "Work"); !strings.Contains(why, "benchy exec") {
		t.Errorf("exec: %q", why)
	}
	if _, _, why := gotestBenchmark(loadFixture(t), "sum/sink"); !strings.Contains(why, "benchy run") {
		t.Errorf("run: %q", why)
	}
	if _, _, why := gotestBenchmark(g, "nothing"); !strings.Contains(why, "no experiment nothing") {
		t.Errorf("missing: %q", why)
	}
}

// Suspects reads the result of the first commit after each regression.
func TestSuspects(t *testing.T) {
	s := open(t, history.Address{Kind: history.KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")})
	var recs []Record
	for k := range 12 {
		f := 1.0
		if k >= 6 {
			f = 1.5
		}
		recs = append(recs, record(t, scaled(t, f, k), historytest.Source(k)))
	}
	if _, err := s.Add(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
	rows, _, err := s.Rows(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var j history.Judgement
	for _, ser := range history.Build(rows, nil) {
		if ser.Benchmark == "sum/sink" {
			j = history.Judge(ser, 0.05)
		}
	}
	sus, err := Suspects(context.Background(), s, j)
	if err != nil || len(sus) != 1 {
		t.Fatalf("%d suspects, %v; judged %+v", len(sus), err, j.Regressions)
	}
	x := sus[0]
	if x.Before.Commit != historytest.Hash(5) || x.After.Commit != historytest.Hash(6) || !strings.Contains(x.Why, "benchy run") {
		t.Errorf("suspect %s..%s, why %q", history.Short(x.Before.Commit), history.Short(x.After.Commit), x.Why)
	}
}

// Whatever a stored description says, gotestBenchmark does not panic, and
// the package and name it reads make the description back.
func FuzzGotestBenchmark(f *testing.F) {
	f.Add("go test benchmark example.com/work.BenchmarkWork", "example.com/work")
	f.Add("go test benchmark a.b/c.BenchmarkX/y.Benchmark", "")
	f.Add("go test benchmark .Benchmark", "x y")
	f.Fuzz(func(t *testing.T, desc, pkgs string) {
		r := &result.Result{Package: pkgs, Experiments: []result.Experiment{{Name: "e", Kind: result.KindBenchmark, Description: desc}}}
		pkg, bench, why := gotestBenchmark(r, "e")
		if why == "" && (gotestPrefix+pkg+"."+bench != desc || pkg == "" || strings.HasPrefix(pkg, "-") || !strings.HasPrefix(bench, "Benchmark")) {
			t.Errorf("%q read as %q . %q", desc, pkg, bench)
		}
	})
}
