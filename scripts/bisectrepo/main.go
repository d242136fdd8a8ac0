// Command bisectrepo writes the synthetic repositories benchy bisect is
// measured on (docs/bisect.md): a Go module whose benchmark Work calls a
// leaf function that goes over its data Base times, and COMMITS commits
// after the first, each of which touches the package. The commits that
// -steps names add work to the leaf: Base·pct/100 more passes each, so
// the benchmark is slower by that share of its first cost at each of them
// and by nothing at any other commit. Every other commit changes a string
// the test binary holds (-touch code, the default: another program, which
// the walk must measure, as most commits of a real history are), or only
// a comment (-touch comment: the same program, which the walk places
// without measuring).
//
//	go run ./scripts/bisectrepo -steps 40 /tmp/step          # 64 commits, +3% at commit 40
//	go run ./scripts/bisectrepo -steps '' /tmp/flat          # no step
//	go run ./scripts/bisectrepo -steps 20,40 -pct 1.5 /tmp/two
//
// Commit k (1..COMMITS) is HEAD~(COMMITS-k); the first commit, GOOD, is
// HEAD~COMMITS. The dates are fixed, so the same flags give the same hashes.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Base is how many passes the leaf makes at the first commit: 200, so
// that +1.5% is a whole number of passes.
const Base = 200

func main() {
	commits := flag.Int("commits", 64, "commits after the first")
	steps := flag.String("steps", "40", "the commits (1..COMMITS) that add work, comma-separated; empty for none")
	pct := flag.Float64("pct", 3, "the work each step adds, in percent of the first commit's")
	touch := flag.String("touch", "code", "what the other commits change: code (a string the test binary holds) or comment")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: bisectrepo [-commits N] [-steps K,...] [-pct P] [-touch code|comment] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if *touch != "code" && *touch != "comment" {
		fmt.Fprintf(os.Stderr, "bisectrepo: -touch %s: want code or comment\n", *touch)
		os.Exit(2)
	}
	at, err := parseSteps(*steps, *commits)
	if err == nil {
		err = Write(flag.Arg(0), *commits, at, *pct, *touch == "code")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bisectrepo:", err)
		os.Exit(1)
	}
}

// parseSteps reads -steps: commit numbers 1..commits.
func parseSteps(s string, commits int) ([]int, error) {
	var at []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 || k > commits {
			return nil, fmt.Errorf("-steps %s: %q is not a commit from 1 to %d", s, f, commits)
		}
		at = append(at, k)
	}
	return at, nil
}

// Passes is how many passes the leaf makes at commit k, after the steps
// at (each adding pct% of Base).
func Passes(k int, at []int, pct float64) int {
	n := Base
	for _, a := range at {
		if k >= a {
			n += int(math.Round(Base * pct / 100))
		}
	}
	return n
}

// Write makes the repository in dir, which must not exist or be empty;
// with code set every commit changes the note the test binary holds.
func Write(dir string, commits int, at []int, pct float64, code bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": benchSource}
	when := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	if err := git(dir, when, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	for k := 0; k <= commits; k++ {
		note := 0
		if code {
			note = k
		}
		files["work.go"] = workSource(k, note, Passes(k, at, pct))
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				return err
			}
		}
		subject := fmt.Sprintf("work: note %d", k)
		switch {
		case k == 0:
			subject = "work: a leaf over the data"
		case slices.Contains(at, k):
			subject = fmt.Sprintf("work: %d passes in the leaf", Passes(k, at, pct))
		}
		when = when.Add(time.Hour)
		if err := git(dir, when, "add", "."); err != nil {
			return err
		}
		if err := git(dir, when, "commit", "-q", "-m", subject); err != nil {
			return err
		}
	}
	return nil
}

// workSource is the package at commit k: the leaf makes passes passes;
// the comment on Work changes at every commit, Note when note does (its
// length never: the code and data after it stay where they were).
func workSource(k, note, passes int) string {
	return fmt.Sprintf(`package work

// Note is a string the test binary holds.
var Note = "note %03d"

// Work sums xs in a leaf function (note %d).
func Work(xs []int) int { return leaf(xs) }

//go:noinline
func leaf(xs []int) int {
	s := 0
	for p := 0; p < %d; p++ {
		for _, x := range xs {
			s += x ^ p
		}
	}
	return s
}
`, note, k, passes)
}

const benchSource = `package work

import "testing"

var sink int

var data = make([]int, 64)

func BenchmarkWork(b *testing.B) {
	if Note == "" {
		b.Fatal("no note")
	}
	for b.Loop() {
		sink = Work(data)
	}
}
`

// git runs git in dir with the author and committer and their dates fixed.
func git(dir string, when time.Time, args ...string) error {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	date := when.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
