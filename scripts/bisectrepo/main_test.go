package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The repository of the bisect goals: 64 commits after the first (the
// goals' size; the other cases, and the check that two runs give the same
// hashes, on fewer, which asserts the same of Write for a fraction of its
// git processes), the leaf's passes raised at the step commits only, every
// other commit a change of the note the test binary holds (or of a
// comment alone, with code unset); two runs give the same hashes.
func TestWrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, tt := range []struct {
		name    string
		commits int
		at      []int
		pct     float64
	}{
		{"one step", 64, []int{40}, 3},
		{"no step", 16, nil, 3},
		{"two half steps", 16, []int{5, 10}, 1.5},
	} {
		dir := t.TempDir()
		if err := Write(dir, tt.commits, tt.at, tt.pct, true); err != nil {
			t.Fatal(err)
		}
		revs := strings.Fields(run(t, dir, "rev-list", "--reverse", "HEAD"))
		if len(revs) != tt.commits+1 {
			t.Fatalf("%s: %d commits, want %d", tt.name, len(revs), tt.commits+1)
		}
		// The loop line of every commit's leaf, in one git process.
		loops := map[string]string{}
		for _, l := range strings.Split(run(t, dir, append(append([]string{"grep", "-e", "p < "}, revs...), "--", "work.go")...), "\n") {
			rev, line, _ := strings.Cut(l, ":work.go:")
			loops[rev] = line
		}
		for k, rev := range revs {
			want := Base
			for _, a := range tt.at {
				if k >= a {
					want += int(Base * tt.pct / 100)
				}
			}
			if !strings.Contains(loops[rev], "p < "+strconv.Itoa(want)+";") {
				t.Errorf("%s: commit %d does not make %d passes: %q", tt.name, k, want, loops[rev])
			}
		}
	}
	var heads []string
	for range 2 {
		dir := t.TempDir()
		if err := Write(dir, 8, []int{4}, 3, true); err != nil {
			t.Fatal(err)
		}
		heads = append(heads, run(t, dir, "rev-parse", "HEAD"))
	}
	for _, code := range []bool{true, false} {
		dir := t.TempDir()
		if err := Write(dir, 2, nil, 3, code); err != nil {
			t.Fatal(err)
		}
		notes := run(t, dir, "grep", "-h", "-e", "var Note", "HEAD~1", "HEAD", "--", "work.go")
		if l := strings.Split(notes, "\n"); len(l) != 2 || (l[0] != l[1]) != code {
			t.Errorf("code %v: the notes of two commits %q, want them to differ only with code", code, l)
		}
	}
	if heads[0] != heads[1] {
		t.Errorf("HEAD %s, then %s: want the same hash", heads[0], heads[1])
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
