package gotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// followModule is a module whose benchmarks hold their b.N loop in
// helpers, as large libraries write them.
var followModule = map[string]string{
	"go.mod": "module example.com/follow\n\ngo 1.24\n",
	"follow.go": `package follow

var Data = make([]int, 1000)

// Sum is small enough to be inlined.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
`,
	"follow_test.go": `package follow

import "testing"

var sink int

func BenchmarkHelperDiscarded(b *testing.B) { discarded(b, Data) }

func BenchmarkHelperKept(b *testing.B) { kept(b, Data) }

func BenchmarkTwoLevels(b *testing.B) { outer(b) }

func BenchmarkOtherFile(b *testing.B) { inlinedDiscarded(b, Data) }

func BenchmarkSub(b *testing.B) {
	b.Run("x", func(b *testing.B) { discarded(b, Data) })
}

func BenchmarkNotB(b *testing.B) {
	n := b.N
	for i := 0; i < n; i++ {
		sink += spin(cfg)
	}
}

//go:noinline
func discarded(b *testing.B, xs []int) {
	for i := 0; i < b.N; i++ {
		Sum(xs)
	}
}

//go:noinline
func kept(b *testing.B, xs []int) {
	for i := 0; i < b.N; i++ {
		sink = Sum(xs)
	}
}

//go:noinline
func outer(b *testing.B) {
	b.ReportAllocs()
	discarded(b, Data)
}

type config struct{ N int }

var cfg = &config{N: 100}

// spin takes no *testing.B: its loop over c.N is not a benchmark's, though
// its work was deleted.
//
//go:noinline
func spin(c *config) int {
	for i := 0; i < c.N; i++ {
		Sum(Data)
	}
	return 1
}
`,
	// A helper in another file of the package, small enough to be
	// inlined into the benchmark: its loop lines are in this file.
	"helpers_test.go": `package follow

import "testing"

func inlinedDiscarded(b *testing.B, xs []int) {
	for i := 0; i < b.N; i++ {
		Sum(xs)
	}
}
`,
}

// The loop over b.N is followed into the helper that holds it (a helper
// taking b, one called by a helper, one given to b.Run's closure, one
// inlined from another file), and judged there: the emptied ones are
// caught in the helper, the honest one is not, and a function that takes
// no *testing.B is not taken for a helper.
func TestCodeFindingsFollowHelpers(t *testing.T) {
	notUnderRace(t)
	t.Parallel()
	bin := buildModule(t, followModule)
	const pkg = "example.com/follow."
	tests := []struct {
		fn     string
		accuse string   // "" for none
		judged []string // the functions whose loop may be judged
	}{
		{"BenchmarkHelperDiscarded", result.CodeEmptyLoop, []string{"discarded"}},
		{"BenchmarkHelperKept", "", nil},
		{"BenchmarkTwoLevels", result.CodeEmptyLoop, []string{"discarded"}},
		{"BenchmarkSub.func1", result.CodeEmptyLoop, []string{"discarded"}},
		// Inlined (the benchmark's own code), or followed if not.
		{"BenchmarkOtherFile", result.CodeEmptyLoop, []string{"BenchmarkOtherFile", "inlinedDiscarded"}},
		{"BenchmarkNotB", "", nil},
	}
	accusations := []string{result.CodeEmptyLoop, result.CodeFolded, result.CodeNoLoadInLoop}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			fs := (&Binary{Path: bin}).codeFindings(pkg + tt.fn)
			var got []finding.Finding
			for _, f := range fs {
				if slices.Contains(accusations, f.Code) {
					got = append(got, f)
				}
			}
			if tt.accuse == "" {
				if len(got) > 0 {
					t.Errorf("honest, accused: %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Code != tt.accuse {
				t.Fatalf("findings %+v, want %s", fs, tt.accuse)
			}
			judged := strings.TrimPrefix(got[0].Evidence["func"].(string), pkg)
			if !slices.Contains(tt.judged, judged) {
				t.Errorf("judged the loop of %s, want that of %v: %s", judged, tt.judged, got[0].Message)
			}
			if judged != tt.fn && (got[0].Evidence["benchmark"] != pkg+tt.fn || !strings.Contains(got[0].Message, judged)) {
				t.Errorf("a helper's loop, but the finding does not say whose benchmark, or names no helper: %+v", got[0])
			}
		})
	}
	// The asm line says where the loop was found.
	for _, f := range (&Binary{Path: bin}).codeFindings(pkg + "BenchmarkHelperKept") {
		if f.Code == result.CodeAsm && !strings.Contains(f.Message, "calls follow.kept, which holds the b.N loop") {
			t.Errorf("asm: %s", f.Message)
		}
	}
}

// buildModule writes a module's files and builds its test binary with go
// test -c (skipped under -short, and where benchy reads no machine code).
func buildModule(t *testing.T, files map[string]string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("machine code of amd64 and arm64 only")
	}
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "module.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin
}

// registersModule has benchmarks whose loops read no memory: some compute
// from the counter or from the last iteration, as math's SqrtLatency and
// math/bits' Reverse do; one recomputes the same value every iteration;
// some lost their work.
var registersModule = map[string]string{
	"go.mod": "module example.com/registers\n\ngo 1.24\n",
	"registers_test.go": `package registers

import (
	"math"
	"math/bits"
	"testing"
)

var (
	sinkF float64
	sinkU uint
	sinkI int
	seed  = 12345
)

func BenchmarkSqrtLatency(b *testing.B) {
	x := 10.0
	for i := 0; i < b.N; i++ {
		x = math.Sqrt(x)
	}
	sinkF = x
}

func BenchmarkReverse(b *testing.B) {
	var s uint
	for i := 0; i < b.N; i++ {
		s += bits.Reverse(uint(i))
	}
	sinkU = s
}

func BenchmarkSwap(b *testing.B) {
	x, y := seed, seed+1
	for i := 0; i < b.N; i++ {
		x, y = y, x
	}
	sinkI = x - y
}

func BenchmarkInvariant(b *testing.B) {
	v, r := seed, 0
	for i := 0; i < b.N; i++ {
		r = v*v ^ v>>3
	}
	sinkI = r
}

func BenchmarkDiscarded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = math.Sqrt(float64(seed))
	}
}

func BenchmarkConstant(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkF = math.Sqrt(16)
	}
}

var fat = new([8]uint32)

func BenchmarkClear(b *testing.B) {
	p := fat
	for i := 0; i < b.N; i++ {
		*p = [8]uint32{}
	}
}

func BenchmarkGoroutine(b *testing.B) {
	done := make(chan bool)
	go func() {
		for i := 0; i < 100; i++ {
			_ = math.Sqrt(float64(seed))
		}
		done <- true
	}()
	<-done
}
`,
}

// A loop that reads no memory is judged by what changes from one
// iteration to the next: a loop-carried square root, a function of the
// counter, values swapped are work (no-load-in-loop at most as info); the
// same value recomputed every iteration is doubtful (warn); a loop that
// only counts, or stores a constant, lost its work (error).
func TestCodeFindingsRegisters(t *testing.T) {
	notUnderRace(t)
	t.Parallel()
	bin := buildModule(t, registersModule)
	tests := []struct {
		fn       string
		code     string // "" for no finding of the three
		severity finding.Severity
	}{
		{"BenchmarkSqrtLatency", result.CodeNoLoadInLoop, finding.Info},
		{"BenchmarkReverse", result.CodeNoLoadInLoop, finding.Info},
		{"BenchmarkSwap", result.CodeNoLoadInLoop, finding.Info},
		{"BenchmarkInvariant", result.CodeNoLoadInLoop, finding.Warn},
		{"BenchmarkDiscarded", result.CodeEmptyLoop, finding.Error},
		{"BenchmarkConstant", result.CodeFolded, finding.Error},
		// A constant stored where the source calls nothing: the stores
		// are what it measures.
		{"BenchmarkClear", "", finding.Info},
	}
	accusations := []string{result.CodeEmptyLoop, result.CodeFolded, result.CodeNoLoadInLoop}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			fs := (&Binary{Path: bin}).codeFindings("example.com/registers." + tt.fn)
			var got []finding.Finding
			for _, f := range fs {
				if slices.Contains(accusations, f.Code) {
					got = append(got, f)
				}
			}
			if tt.code == "" && len(got) > 0 || tt.code != "" && (len(got) != 1 || got[0].Code != tt.code || got[0].Severity != tt.severity) {
				t.Fatalf("findings %+v, want %q at %s", fs, tt.code, tt.severity)
			}
		})
	}
	// A sweep accuses the benchmarks, not a goroutine's loop inside one.
	bb := &Binary{Package: Package{ImportPath: "example.com/registers"}, Path: bin}
	acc, err := bb.Accusations()
	if err != nil {
		t.Fatal(err)
	}
	var accused []string
	for _, a := range acc {
		accused = append(accused, strings.TrimPrefix(a.Func, "example.com/registers."))
	}
	slices.Sort(accused)
	if want := []string{"BenchmarkConstant", "BenchmarkDiscarded", "BenchmarkInvariant"}; !slices.Equal(accused, want) {
		t.Errorf("accused %v, want %v", accused, want)
	}
}
