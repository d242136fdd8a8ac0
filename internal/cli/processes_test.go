package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestChildArgs(t *testing.T) {
	tests := []struct{ in, flags, rest string }{
		{"run --processes 3 --bench sum/ --out r.json", "run --bench sum/", ""},
		{"run --processes=3 -o r.json --format=json --samples 5 --warmup 1ms", "run --warmup 1ms", ""},
		{"run --strict warn -v --html r.html --ascii --cpu 1", "run --cpu 1", ""},
		{"run --strict=warn --samples-file s.csv --force --gc off", "run --gc off", ""},
		// What follows "--" is kept apart, to go after the flags benchy adds.
		{"run --processes 2 --samples 5 --", "run", "--"},
		{"run --processes 2 -- --out x", "run", "-- --out x"},
	}
	for _, tt := range tests {
		flags, rest := childArgs(strings.Fields(tt.in))
		if got := strings.Join(flags, " "); got != tt.flags {
			t.Errorf("childArgs(%s) flags = %s, want %s", tt.in, got, tt.flags)
		}
		if got := strings.Join(rest, " "); got != tt.rest {
			t.Errorf("childArgs(%s) rest = %s, want %s", tt.in, got, tt.rest)
		}
	}
}

// run --processes K: K processes of benchy, their samples merged, each
// marked with its process, all on one CPU.
func TestRunProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchy three times")
	}
	stdout, stderr, code := runBinary(t, "run", "--bench", "^sum/sink$", "--processes", "3", "--samples", "12",
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
	if r.Settings.Samples != 12 {
		t.Errorf("settings say %d samples, want the 12 of all processes", r.Settings.Samples)
	}
	_, stderr, code = runBinary(t, "run", "--processes", "0")
	if code != ExitUsage || !strings.Contains(stderr, "--processes 0") {
		t.Errorf("--processes 0: exit %d, %s", code, stderr)
	}
}

// run --processes K -- passes the "--" after the flags benchy adds for
// each process (it once came before them, and the process refused them).
func TestRunProcessesDoubleDash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchy twice")
	}
	stdout, stderr, code := runBinary(t, "run", "--bench", "^sum/sink$", "--processes", "2", "--samples", "6",
		"--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms", "--format", "json", "--")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	var procs []int
	for _, s := range r.Experiments[0].Samples {
		procs = append(procs, s.Process)
	}
	if want := []int{0, 0, 0, 1, 1, 1}; !slices.Equal(procs, want) {
		t.Errorf("processes of the samples %v, want %v", procs, want)
	}
	if _, stderr, code := runBinary(t, "run", "--processes", "2", "--", "x"); code != ExitUsage || !strings.Contains(stderr, `got "x"`) {
		t.Errorf("run --processes 2 -- x: exit %d, %s; want 2, refused", code, stderr)
	}
}

// --samples is the total over the processes: every sample is taken once.
func TestProcessShare(t *testing.T) {
	for _, tt := range []struct{ samples, processes int }{{31, 1}, {31, 3}, {30, 3}, {5, 5}, {100000, 7}} {
		total, lo, hi := 0, tt.samples, 0
		for k := range tt.processes {
			n := processShare(tt.samples, tt.processes, k)
			total, lo, hi = total+n, min(lo, n), max(hi, n)
		}
		if total != tt.samples || hi-lo > 1 {
			t.Errorf("%d samples over %d processes: %d in all, from %d to %d each", tt.samples, tt.processes, total, lo, hi)
		}
	}
}
