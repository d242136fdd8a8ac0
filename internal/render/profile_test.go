package render

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func profiledFixture() *result.Result {
	r := fixtureResult()
	r.Experiments[0].Profile = &result.Profile{CPU: "/p/sum.cpu.pprof", Alloc: "/p/sum.alloc.pprof", Samples: 42, Ops: 1000,
		CPUNsPerOp: 1500, AllocBytesPerOp: 64,
		Top:      []result.ProfileEntry{{Func: "main.sum", Flat: 1200, Cum: 1400}, {Func: "runtime.<x>", Flat: 300, Cum: 300}},
		AllocTop: []result.ProfileEntry{{Func: "main.grow", Flat: 64, Cum: 64}}}
	r.Experiments[1].Profile = &result.Profile{Error: "CPU profile: no profile was recorded"}
	r.ProfileDiffs = []result.ProfileDiff{{Name: "Sum", Path: "/p/Sum.diff.cpu.pprof", OldSamples: 300, NewSamples: 320,
		OldNsPerOp: 1000, NewNsPerOp: 1300,
		Rows: []result.ProfileDelta{{Func: "main.grow", OldFlat: 0, NewFlat: 400, OldCum: 0, NewCum: 400}, {Func: "main.old", OldFlat: 100, NewFlat: 0, OldCum: 100}}}}
	return r
}

// TestProfileText: -v shows each profile's samples, the sparse warning,
// the top functions and the files; one without a profile says why.
func TestProfileText(t *testing.T) {
	r := profiledFixture()
	var b bytes.Buffer
	if err := WriteWith(&b, r, "text", Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"42 samples at 100 Hz, too few to", "/p/sum.cpu.pprof", "1.2 µs   1.4 µs  main.sum",
		"allocations /p/sum.alloc.pprof: 64 B per op (sampled)", "main.grow", "profile: none (CPU profile: no profile was recorded)"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	r.Experiments[0].Profile.Samples = result.ProfileMinSamples
	b.Reset()
	WriteWith(&b, r, "text", Options{Verbose: true})
	if strings.Contains(b.String(), "too few") {
		t.Errorf("%d samples are enough, but the text warns", result.ProfileMinSamples)
	}
}

// TestProfileHTML: the page holds the profile tables and the differences,
// escaped, and stays well-formed.
func TestProfileHTML(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, profiledFixture(), "html"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<code>/p/sum.cpu.pprof</code>", "runtime.&lt;x&gt;", "Profiles, new less old",
		"CPU per op 1 µs -&gt; 1.3 µs", "+400 ns", "-100 ns"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Index(page, "main.grow") > strings.Index(page, "main.old") {
		t.Errorf("what grew is not listed first")
	}
	dec := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>\n")))
	dec.Strict = true
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
	}
}
