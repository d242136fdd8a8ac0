package gotest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// testdata is the module of honest, lying and misbehaving benchmarks the
// tests build and run.
var testdata, _ = filepath.Abs("../../../testdata/gotest")

// A package pattern that begins with '-' reaches go list as a pattern,
// which it refuses, never as one of its flags: a package name read from a
// store (history check --confirm) could be -toolexec=PROGRAM.
func TestListPatternIsNoFlag(t *testing.T) {
	_, err := List(NewChildren(context.Background()), testdata, []string{"-json=ImportPath", "./profiled"}, nil)
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "leading dash") {
		t.Errorf("List: %v, want a usage error: the pattern has a leading dash", err)
	}
	names, err := BenchmarkNames(context.Background(), testdata+"/profiled", []string{"-json=Dir"})
	if err != nil || len(names) != 0 {
		t.Errorf("BenchmarkNames: %q, %v; want none (no package is named -json=Dir)", names, err)
	}
}
