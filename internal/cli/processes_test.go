package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestChildArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"run --processes 3 --bench sum/ --out r.json", "run --bench sum/"},
		{"run --processes=3 -o r.json --format=json --samples 5", "run --samples 5"},
		{"run --strict warn -v --html r.html --ascii --cpu 1", "run --cpu 1"},
		{"run --strict=warn --samples-file s.csv --force --gc off", "run --gc off"},
	}
	for _, tt := range tests {
		if got := strings.Join(childArgs(strings.Fields(tt.in)), " "); got != tt.want {
			t.Errorf("childArgs(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// run --processes K: K processes of benchy, their samples merged, each
// marked with its process, all on one CPU.
func TestRunProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchy three times")
	}
	stdout, stderr, code := runBinary(t, "run", "--bench", "^sum/sink$", "--processes", "3", "--samples", "4",
		"--sample-time", "1ms", "--warmup", "1ms", "--window", "100ms", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 1 {
		t.Fatalf("%d experiments", len(r.Experiments))
	}
	var procs []int
	for _, s := range r.Experiments[0].Samples {
		procs = append(procs, s.Process)
		if s.CPU != r.CPU {
			t.Errorf("a sample on cpu%d, the run on cpu%d", s.CPU, r.CPU)
		}
	}
	if want := []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}; !slices.Equal(procs, want) {
		t.Errorf("processes of the samples %v, want %v", procs, want)
	}
	_, stderr, code = runBinary(t, "run", "--processes", "0")
	if code != ExitUsage || !strings.Contains(stderr, "--processes 0") {
		t.Errorf("--processes 0: exit %d, %s", code, stderr)
	}
}
