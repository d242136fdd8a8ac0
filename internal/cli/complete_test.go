package cli

import (
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// complete drives cobra's hidden __complete command over exps, as a
// shell's TAB does, and returns the candidates and the directive number.
func complete(t *testing.T, exps []inproc.Workload, args ...string) ([]string, string) {
	t.Helper()
	return clitest.Complete(t, func(args []string, stdout, stderr io.Writer) int { return Main(args, exps, stdout, stderr) }, args...)
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
