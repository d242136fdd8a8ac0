package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The repository of the bisect goals: 64 commits after the first, the
// leaf's passes raised at the step commits only, every other commit a
// change that builds the same code; two runs give the same hashes.
func TestWrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tt := range []struct {
		name string
		at   []int
		pct  float64
	}{
		{"one step", []int{40}, 3},
		{"no step", nil, 3},
		{"two half steps", []int{20, 40}, 1.5},
	} {
		dir := t.TempDir()
		if err := Write(dir, 64, tt.at, tt.pct); err != nil {
			t.Fatal(err)
		}
		if n := run(t, dir, "rev-list", "--count", "HEAD"); n != "65" {
			t.Errorf("%s: %s commits, want 65", tt.name, n)
		}
		for k := 0; k <= 64; k++ {
			src := run(t, dir, "show", "HEAD~"+strconv.Itoa(64-k)+":work.go")
			want := Base
			for _, a := range tt.at {
				if k >= a {
					want += int(Base * tt.pct / 100)
				}
			}
			if !strings.Contains(src, "p < "+strconv.Itoa(want)+";") {
				t.Errorf("%s: commit %d does not make %d passes:\n%s", tt.name, k, want, src)
			}
		}
		if tt.name != "one step" {
			continue
		}
		again := t.TempDir()
		if err := Write(again, 64, tt.at, tt.pct); err != nil {
			t.Fatal(err)
		}
		if a, b := run(t, dir, "rev-parse", "HEAD"), run(t, again, "rev-parse", "HEAD"); a != b {
			t.Errorf("%s: HEAD %s, then %s: want the same hash", tt.name, a, b)
		}
	}
	if Passes(64, []int{40}, 3) != 206 || Passes(39, []int{40}, 3) != 200 || Passes(64, []int{20, 40}, 1.5) != 206 {
		t.Error("Passes: want 206 after a +3% step, 200 before it, 206 after two of +1.5%")
	}
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}
