package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Write's repositories: every commit's leaf makes the passes the steps
// raised it to (one step on 32 commits after the first, half the goals'
// 64 and the same code; two half steps on 16; none on 2), each commit
// changes the note the test binary holds, or with code unset a comment
// alone, and the same arguments give the same hashes.
func TestWrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	heads := map[string]string{}
	for _, tt := range []struct {
		name    string
		commits int
		at      []int
		pct     float64
		code    bool
	}{
		{"one step", 32, []int{20}, 3, true},
		{"two half steps", 16, []int{5, 10}, 1.5, true},
		{"no step", 2, nil, 3, true},
		{"no step again", 2, nil, 3, true},
		{"no step, comments", 2, nil, 3, false},
	} {
		dir := t.TempDir()
		if err := Write(dir, tt.commits, tt.at, tt.pct, tt.code); err != nil {
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
		notes := run(t, dir, "grep", "-h", "-e", "var Note", "HEAD~1", "HEAD", "--", "work.go")
		if l := strings.Split(notes, "\n"); len(l) != 2 || (l[0] != l[1]) != tt.code {
			t.Errorf("%s: the notes of the last two commits %q, want them to differ only with code", tt.name, l)
		}
		heads[tt.name] = run(t, dir, "rev-parse", "HEAD")
	}
	if a, b := heads["no step"], heads["no step again"]; a != b {
		t.Errorf("HEAD %s, then %s: want the same hash", a, b)
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
