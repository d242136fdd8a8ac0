package gotest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// The standard library's benchmarks are a corpus for the machine-code
// checks: the packages of the seven benchmarks they rightly accuse and of
// eleven they once wrongly accused (math's SqrtLatency, math/bits'
// Reverse*), and the reviewed list of what they must accuse, for one Go
// version and architecture (the machine code is the compiler's).
var (
	stdCorpus     = []string{"unicode/utf8", "unicode/utf16", "encoding/base64", "bytes", "math", "math/bits"}
	stdCorpusGo   = "go1.26.8"
	stdCorpusArch = "amd64"
	stdCorpusFile = filepath.Join("testdata", "stdlib", "accused-"+stdCorpusGo+"-"+stdCorpusArch+".txt")
)

// The machine-code checks accuse, among the benchmarks of the corpus, the
// reviewed list and no other: each accusation is "function code severity".
// It needs no timing: it builds the test binaries as benchy gotest does
// and reads them.
func TestStdCorpusAccusations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test binaries of six standard-library packages")
	}
	// The binaries it reads are built without the detector, so it finds
	// the same accusations; the detector only slows the disassembly it
	// runs (about 120 s, not 20).
	notUnderRace(t)
	t.Parallel()
	out, err := exec.Command("go", "env", "GOVERSION", "GOARCH").Output()
	if err != nil {
		t.Skip("go env: ", err)
	}
	if got := strings.Fields(string(out)); len(got) != 2 || got[0] != stdCorpusGo || got[1] != stdCorpusArch {
		t.Skipf("the reviewed list is for %s on %s; go builds %s", stdCorpusGo, stdCorpusArch, strings.Join(got, " on "))
	}
	// The disassembly reads each binary's symbol and line tables again
	// for every function it inspects: MBs of garbage each time over a
	// live heap of 2 MB. At the default GOGC the collector ran 2,271
	// times, giving back memory the next function faulted in again: 34 s
	// of CPU for the test; 22 s at 400 (the peak RSS 71 MB, not 42), 18 s
	// at 1000 (155 MB).
	defer debug.SetGCPercent(debug.SetGCPercent(1000))
	want, err := os.ReadFile(stdCorpusFile)
	if err != nil {
		t.Fatal(err)
	}
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, ".", stdCorpus, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var got []string
	for i, p := range pkgs {
		bin, err := BuildWith(ch, p, filepath.Join(dir, fmt.Sprint(i)), nil, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		acc, err := bin.Accusations()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acc {
			got = append(got, fmt.Sprintf("%s %s %s", a.Func, a.Finding.Code, a.Finding.Severity))
			t.Logf("%s: %s", a.Func, a.Finding.Message)
		}
	}
	slices.Sort(got)
	var wantLines []string
	for _, l := range strings.Split(string(want), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			wantLines = append(wantLines, l)
		}
	}
	if !slices.Equal(got, wantLines) {
		gotFile := stdCorpusFile + ".got"
		os.WriteFile(gotFile, []byte(strings.Join(got, "\n")+"\n"), 0o644)
		t.Errorf("accused:\n%s\nwant (%s):\n%s\n(written to %s)", strings.Join(got, "\n"), stdCorpusFile, strings.Join(wantLines, "\n"), gotFile)
	}
}
