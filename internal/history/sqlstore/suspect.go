package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
)

// Suspect is a regression `history check` found, with what re-measuring
// it needs: the commits either side of the step and, for a benchmark of
// benchy gotest, its test package and testing's name, read from the
// stored result of the first commit at the new level.
type Suspect struct {
	Series history.Series
	Step   history.Step
	// Before is the last commit at the old level, After the first at the
	// new one.
	Before, After history.Source
	// Package is the test package's import path, Bench testing's name of
	// the benchmark ("BenchmarkX/sub").
	Package, Bench string
	// Why, when not empty, is why the step cannot be re-measured: the
	// result did not come from benchy gotest, so there is no package to
	// rebuild at the two commits.
	Why string
}

// Suspects are the regressions of j, each with what confirming it needs.
// An error is the store's.
func Suspects(ctx context.Context, s Store, j history.Judgement) ([]Suspect, error) {
	var out []Suspect
	for _, st := range j.Regressions {
		ser := j.Series
		after := ser.Commits[st.At]
		sus := Suspect{Series: ser, Step: st, Before: ser.Commits[st.At-1].Source, After: after.Source}
		if len(after.Results) == 0 {
			sus.Why = "no stored result at " + history.Short(after.Source.Commit)
			out = append(out, sus)
			continue
		}
		r, err := s.Result(ctx, after.Results[len(after.Results)-1])
		if err != nil {
			return nil, err
		}
		sus.Package, sus.Bench, sus.Why = gotestBenchmark(r, ser.Benchmark)
		out = append(out, sus)
	}
	return out, nil
}

// gotestPrefix starts the description of every experiment of benchy
// gotest: "go test benchmark IMPORTPATH.BenchmarkX/sub".
const gotestPrefix = "go test benchmark "

// gotestBenchmark is the package and testing's name of r's experiment
// name, or why it is not a benchmark benchy gotest measured.
func gotestBenchmark(r *result.Result, name string) (pkg, bench, why string) {
	e := r.Find(name)
	if e == nil {
		return "", "", "the stored result has no experiment " + name
	}
	switch e.Kind {
	case result.KindLoop:
		return "", "", "measured by benchy run; only gotest benchmarks are rebuilt"
	case result.KindProcess:
		return "", "", "measured by benchy exec; only gotest benchmarks are rebuilt"
	case result.KindBenchmark:
	default:
		return "", "", fmt.Sprintf("measured as a %q, not by gotest", e.Kind)
	}
	desc, ok := strings.CutPrefix(e.Description, gotestPrefix)
	if !ok {
		return "", "", "the stored result does not say which package " + name + " is in"
	}
	// The import path is one of the result's packages; else the name
	// starts at the first ".Benchmark" (an import path holds no such
	// element, a sub-benchmark's name may).
	for _, p := range strings.Fields(r.Package) {
		if b, ok := strings.CutPrefix(desc, p+"."); ok && strings.HasPrefix(b, "Benchmark") {
			return importPath(p, b)
		}
	}
	if i := strings.Index(desc, ".Benchmark"); i > 0 {
		return importPath(desc[:i], desc[i+1:])
	}
	return "", "", "the stored result does not say which package " + name + " is in"
}

// importPath refuses a stored package that begins with '-': no import path
// does, and the go command would read it as a flag (-toolexec=PROGRAM).
func importPath(pkg, bench string) (string, string, string) {
	if strings.HasPrefix(pkg, "-") {
		return "", "", fmt.Sprintf("the stored package %q begins with '-': not an import path", pkg)
	}
	return pkg, bench, ""
}
