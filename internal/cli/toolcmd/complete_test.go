package toolcmd

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

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
		got, d := clitest.Complete(t, testMain, tt.args...)
		if !slices.Equal(got, tt.want) || d != ":"+strconv.Itoa(int(cobra.ShellCompDirectiveNoFileComp)) {
			t.Errorf("benchy __complete %q = %q %s, want %q", tt.args, got, d, tt.want)
		}
	}
}
