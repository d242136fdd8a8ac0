package toolcmd

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// gotest: packages before "--", go build flags after it; the shared
// group as in run.
func TestGotestFlags(t *testing.T) {
	var got *gotestOptions
	parse(t, newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil }),
		"./a", "./b", "--against", "HEAD", "--window", "2s", "--", "-tags", "purego")
	if !slices.Equal(got.Packages, []string{"./a", "./b"}) || !slices.Equal(got.BuildFlags, []string{"-tags", "purego"}) ||
		got.Against != "HEAD" || got.Window != 2*time.Second || got.Samples != gotestSamples {
		t.Errorf("packages %q, build flags %q, against %q, window %v, samples %d", got.Packages, got.BuildFlags, got.Against, got.Window, got.Samples)
	}
	parse(t, newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil }))
	if !slices.Equal(got.Packages, []string{"."}) {
		t.Errorf("default packages %q, want .", got.Packages)
	}
}

// gotest's checks note --cpu as given: the check shared with bisect and
// --confirm (checkTestBinaryRuns) validates the options, not a copy.
func TestGotestCPUIsNoted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("gotest runs on Linux only")
	}
	var got *gotestOptions
	parse(t, newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil }), "--cpu", "0", "-C", t.TempDir())
	if err := got.validate(); err != nil || !got.CPUSet || got.CPU != 0 {
		t.Errorf("--cpu 0: set %v, cpu %d (%v)", got.CPUSet, got.CPU, err)
	}
}
