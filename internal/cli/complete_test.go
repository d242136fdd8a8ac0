package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// complete drives cobra's hidden __complete command, as a shell's TAB
// does, and returns the candidates and the directive number.
func complete(t *testing.T, exps []inproc.Workload, args ...string) ([]string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(append([]string{"__complete"}, args...), exps, &stdout, &stderr); code != 0 {
		t.Fatalf("benchy __complete %q: exit %d, stderr %q", args, code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	directive := lines[len(lines)-1]
	if !strings.HasPrefix(directive, ":") {
		t.Fatalf("benchy __complete %q: no directive line in %q", args, stdout.String())
	}
	return lines[:len(lines)-1], directive
}

// directive is d as __complete writes it.
func directive(d cobra.ShellCompDirective) string { return ":" + strconv.Itoa(int(d)) }

func TestCompleteExperiments(t *testing.T) {
	exps := []inproc.Workload{{Name: "sum/unused"}, {Name: "sum/sink"}, {Name: "concat/quadratic"}, {Name: "concat/builder"}, {Name: "empty"}}
	noFiles := directive(cobra.ShellCompDirectiveNoFileComp)
	for _, tt := range []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{"run", "--bench", ""}, []string{"sum/unused", "sum/sink", "concat/quadratic", "concat/builder", "empty"}, noFiles},
		{[]string{"run", "--bench", "sum/"}, []string{"sum/unused", "sum/sink"}, noFiles},
		{[]string{"run", "--bench=con"}, []string{"concat/quadratic", "concat/builder"}, noFiles}, // the shell puts --bench= back,
		{[]string{"run", "--bench", "zz"}, nil, noFiles},
		// --compare: the item after the last comma, the earlier ones kept,
		// a name not offered twice, no space after the first item.
		{[]string{"run", "--compare", "concat/q"}, []string{"concat/quadratic"}, directive(cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace)},
		{[]string{"run", "--compare", "concat/quadratic,concat/"}, []string{"concat/quadratic,concat/builder"}, noFiles},
		{[]string{"run", "--compare", "concat/quadratic,"}, []string{"concat/quadratic,sum/unused", "concat/quadratic,sum/sink", "concat/quadratic,concat/builder", "concat/quadratic,empty"}, noFiles},
		{[]string{"run", "--compare", "sum/sink,empty,sum/"}, []string{"sum/sink,empty,sum/unused"}, noFiles},
		{[]string{"asm", "e"}, []string{"empty"}, noFiles},
		{[]string{"asm", "empty", ""}, nil, noFiles}, // asm takes one name
	} {
		got, d := complete(t, exps, tt.args...)
		if !slices.Equal(got, tt.want) || d != tt.directive {
			t.Errorf("benchy __complete %q = %q %s, want %q %s", tt.args, got, d, tt.want, tt.directive)
		}
	}
}

// gotest --bench offers the benchmarks of the packages given so far, from
// their source: a package that does not even build still lists them.
func TestCompleteGotestBench(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.26\n",
		"m.go":            "package m\nfunc f() { undefined() }\n",
		"m_test.go":       "package m\nimport \"testing\"\nfunc BenchmarkSum(b *testing.B) {}\nfunc BenchmarkSort(b *testing.B) {}\n",
		"sub/sub_test.go": "package sub\nimport \"testing\"\nfunc BenchmarkParse(b *testing.B) {}\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"gotest", "-C", dir, "--bench", ""}, []string{"Sort", "Sum"}},
		{[]string{"gotest", "-C", dir, "--bench", "Su"}, []string{"Sum"}},
		{[]string{"gotest", "-C", dir, "--bench", "BenchmarkSo"}, []string{"BenchmarkSort"}},
		{[]string{"gotest", "-C", dir, "./sub", "--bench", ""}, []string{"Parse"}},
		{[]string{"gotest", "-C", dir, "./...", "--bench", "P"}, []string{"Parse"}},
		{[]string{"gotest", "-C", filepath.Join(dir, "missing"), "--bench", ""}, nil},
	} {
		got, d := complete(t, nil, tt.args...)
		if !slices.Equal(got, tt.want) || d != directive(cobra.ShellCompDirectiveNoFileComp) {
			t.Errorf("benchy __complete %q = %q %s, want %q", tt.args, got, d, tt.want)
		}
	}
}

func TestBinaryBenchmarks(t *testing.T) {
	got := binaryBenchmarks([]string{
		"example.com/a.BenchmarkSum", "example.com/a.BenchmarkSum.func1", "example.com/b.BenchmarkSum",
		"example.com/a.BenchmarkParse", "example.com/a.(*T).BenchmarkM", "example.com/a.helper", "main.main",
	})
	want := []string{"BenchmarkParse", "example.com/a.BenchmarkSum", "example.com/b.BenchmarkSum"}
	if !slices.Equal(got, want) {
		t.Errorf("binaryBenchmarks = %q, want %q", got, want)
	}
}
