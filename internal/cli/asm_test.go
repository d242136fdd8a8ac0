package cli

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestAsmUsage(t *testing.T) {
	for _, args := range [][]string{
		{"asm", "sum/nothing"},
		{"asm"},
		{"asm", "sum/sink", "fold/opaque"},
		{"asm", "sum/sink", "--format", "xml"},
	} {
		var stdout, stderr bytes.Buffer
		code := testMain(args, &stdout, &stderr)
		if code != ExitUsage || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, stderr.String())
		}
		if (len(args) < 2 || args[1] != "sum/sink") && !strings.Contains(stderr.String(), "benchy list") {
			t.Errorf("%v: stderr %q does not point to benchy list", args, stderr.String())
		}
	}
}

func TestAsmRun(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector adds calls to every loop: its machine code is not the program's")
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no disassembler for %s", runtime.GOARCH)
	}
	var out bytes.Buffer
	if err := asmRun(&asmOptions{Experiment: "sum/unused", Format: "text"}, builtins(), &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"sum/unused: ", "TEXT ", "workload.sumUnusedLoop", "sum.go:", "<- loop back to", "summary: the loop at 0x"} {
		if !strings.Contains(s, want) {
			t.Errorf("text output lacks %q:\n%s", want, s)
		}
	}
	out.Reset()
	if err := asmRun(&asmOptions{Experiment: "sum/unused", Format: "json"}, builtins(), &out); err != nil {
		t.Fatal(err)
	}
	var r asmJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Experiment != "sum/unused" || r.Summary.LoopLoads || r.Summary.Loops == 0 || len(r.Listing.Func.Insts) == 0 {
		t.Errorf("json = %+v", r)
	}
}

// asmJSON is the part of `benchy asm --format json` the tests read.
type asmJSON struct {
	Experiment string `json:"experiment"`
	Summary    struct {
		LoopLoads bool   `json:"loop_loads"`
		Loops     int    `json:"loops"`
		Line      string `json:"line"`
	} `json:"summary"`
	Listing struct {
		Bounds string `json:"bounds"`
		Func   struct {
			Name  string            `json:"name"`
			Insts []json.RawMessage `json:"insts"`
		} `json:"func"`
	} `json:"listing"`
}

// TestAsmBinaries checks that `benchy asm` finds the loops in a program
// built the ways people ship it: plain (the tests' own benchy), stripped
// (no symbol table: the tests' benchy through strip, as a packager strips
// it; -ldflags=-s -w leaves the same, at the cost of linking again),
// position-independent (loaded at another address than it was linked
// for). The last is a program on the public package with the built-in
// experiments (testdata/asmprog): asm reads the executable it runs in the
// same way whatever else it links, and a -buildmode=pie build compiles
// every package again, which for all of cmd/benchy (SQLite and pgx) took
// 12s of the cli's tests.
func TestAsmBinaries(t *testing.T) {
	t.Parallel()
	if onlyInProcess() {
		t.Skip("builds a program")
	}
	if runtime.GOARCH != "amd64" {
		t.Skipf("the expected loads and adds are those of amd64; this is %s", runtime.GOARCH)
	}
	builds := []struct {
		name, bounds string
		// make makes the program into out from the tests' benchy,
		// bin; nil: bin itself.
		make func(bin, out string) *exec.Cmd
	}{
		{"plain", "elf symbols", nil},
		{"stripped", "gopclntab", func(bin, out string) *exec.Cmd { return exec.Command("strip", "-o", out, bin) }},
		{"pie", "elf symbols", func(_, out string) *exec.Cmd {
			return exec.Command("go", "build", "-o", out, "-buildmode=pie", "-ldflags=-w", "./testdata/asmprog")
		}},
	}
	dir := t.TempDir()
	for _, b := range builds {
		t.Run(b.name, func(t *testing.T) {
			bin := benchyBinary(t)
			if b.make != nil {
				prog := filepath.Join(dir, b.name)
				cmd := b.make(bin, prog)
				if _, err := exec.LookPath(cmd.Args[0]); err != nil {
					t.Skipf("no %s: %v", cmd.Args[0], err)
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
				}
				bin = prog
			}
			f, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if pie := f.Type == elf.ET_DYN; pie != (b.name == "pie") {
				t.Fatalf("%s: ELF type %v", b.name, f.Type)
			}
			sink := runAsm(t, bin, "sum/sink")
			if !sink.Summary.LoopLoads || !strings.Contains(sink.Summary.Line, "loads 8 bytes per iteration and adds") {
				t.Errorf("sum/sink: %+v", sink.Summary)
			}
			if sink.Listing.Bounds != b.bounds {
				t.Errorf("bounds from %q, want %q", sink.Listing.Bounds, b.bounds)
			}
			unused := runAsm(t, bin, "sum/unused")
			if unused.Summary.LoopLoads || !strings.Contains(unused.Summary.Line, "no memory load") {
				t.Errorf("sum/unused: %+v", unused.Summary)
			}
		})
	}
}

func runAsm(t *testing.T, bin, experiment string) asmJSON {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "asm", experiment, "--format", "json")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("benchy asm %s: %v\n%s", experiment, err, stderr.String())
	}
	var r asmJSON
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("benchy asm %s: %v", experiment, err)
	}
	return r
}
