package toolcmd

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/result"

	"github.com/benchy-dev/benchy/internal/cli"
)

// writeHistoryFiles writes n results of the compare fixture, the i-th
// with sum/sink's samples scaled by factor(i), and returns their paths.
func writeHistoryFiles(t *testing.T, n int, factor func(i int) float64) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := range n {
		r, err := result.Load(compareFile("old.json"))
		if err != nil {
			t.Fatal(err)
		}
		e := r.Find("sum/sink")
		f := factor(i) * (1 + 0.004*math.Sin(float64(i*7))) // a little run-to-run noise
		for j := range e.Samples {
			s := &e.Samples[j]
			s.Ns = int64(float64(s.Ns) * f)
			for _, c := range []string{result.CounterTaskClock} {
				if v, ok := s.Counters[c]; ok {
					s.Counters[c] = int64(float64(v) * f)
				}
			}
		}
		var b bytes.Buffer
		if err := result.Encode(&b, r); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("r%02d.json", i))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func runHistory(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := testMain(append([]string{"history"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// importAll imports each file as its own commit, in order a day apart.
func importAll(t *testing.T, store string, files []string) {
	t.Helper()
	for i, f := range files {
		commit := strings.Repeat(fmt.Sprintf("%02x", i+1), 20)
		if _, errs, code := runHistory("import", "--store", store, "--commit", commit, "--time", fmt.Sprintf("@%d", 1700000000+i*86400), f); code != 0 {
			t.Fatalf("import %s: exit %d: %s", f, code, errs)
		}
	}
}

func TestHistoryCheck(t *testing.T) {
	step := writeHistoryFiles(t, 14, func(i int) float64 {
		if i >= 8 {
			return 1.2
		}
		return 1
	})
	store := filepath.Join(t.TempDir(), "h.db")
	importAll(t, store, step)

	out, errs, code := runHistory("check", "--store", store)
	from, to := strings.Repeat("08", 6), strings.Repeat("09", 6)
	if code != cli.ExitFailed || !strings.Contains(out, "sum/sink") || !strings.Contains(out, from+".."+to) || !strings.Contains(errs, "1 step slower by more than 5%") {
		t.Errorf("a 20%% step at commit 9: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if strings.Contains(out, "fold/opaque") {
		t.Errorf("an unchanged benchmark named: %s", out)
	}
	if _, _, code := runHistory("check", "--store", store, "--threshold", "25%"); code != cli.ExitOK {
		t.Errorf("a 20%% step under --threshold 25%%: exit %d", code)
	}
	if out, _, code := runHistory("check", "--store", store, "fold/opaque"); code != cli.ExitOK || !strings.Contains(out, "1 series") {
		t.Errorf("check fold/opaque: exit %d, %s", code, out)
	}

	// Importing everything again changes nothing.
	importAll(t, store, step)
	if out, _, _ := runHistory("show", "--store", store, "sum/sink"); !strings.Contains(out, "14 commits") || !strings.Contains(out, "^") {
		t.Errorf("show after a second import:\n%s", out)
	}
}

// A crafted row (a median of 0, which no run writes) is skipped with a
// warning naming it, and the series' real step is still found.
func TestHistoryCheckSkipsBadRow(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	importAll(t, store, writeHistoryFiles(t, 14, func(i int) float64 {
		if i >= 8 {
			return 1.3
		}
		return 1
	}))
	db, err := sql.Open("sqlite", store)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`UPDATE benchy_points SET median = 0, lo = 0 WHERE benchmark = 'sum/sink' AND basis = 'time' AND result IN
		(SELECT hash FROM benchy_results WHERE commit_rev = ?)`, strings.Repeat("0a", 20))
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := runHistory("check", "--store", store, "sum/sink")
	from, to := strings.Repeat("08", 6), strings.Repeat("09", 6)
	if code != cli.ExitFailed || !strings.Contains(out, from+".."+to) {
		t.Errorf("a 30%% step with a crafted row at commit 10: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if !strings.Contains(errs, `warning: store `+store+`: result `) || !strings.Contains(errs, `"sum/sink" (time): a value of 0 per op`) {
		t.Errorf("the crafted row is not named:\n%s", errs)
	}
}

func TestHistoryCheckTooFew(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	importAll(t, store, writeHistoryFiles(t, 3, func(int) float64 { return 1 }))
	if _, errs, code := runHistory("check", "--store", store); code != cli.ExitCannotJudge || !strings.Contains(errs, "fewer than 6 commits") {
		t.Errorf("3 commits: exit %d, %s", code, errs)
	}
	empty := emptyStore(t)
	if _, errs, code := runHistory("check", "--store", empty); code != cli.ExitCannotJudge || !strings.Contains(errs, "holds no results") {
		t.Errorf("empty store: exit %d, %s", code, errs)
	}
}

func TestHistoryBadInput(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "r.json")
	data, _ := os.ReadFile(compareFile("old.json"))
	os.WriteFile(notDB, data, 0o644)
	interrupted := filepath.Join(dir, "interrupted.json")
	os.WriteFile(interrupted, bytes.Replace(data, []byte(`"start":`), []byte(`"interrupted": true, "start":`), 1), 0o644)
	store := emptyStore(t)
	missing := filepath.Join(dir, "missing-dir", "x.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--store", notDB}, "not a SQLite database"},
		{[]string{"nosuch"}, `unknown command "nosuch" for "benchy history" (its commands: check, import, show)`},
		{[]string{"show", "--store", missing}, missing + ": no such store"},
		{[]string{"check", "--store", missing}, missing + ": no such store"},
		{[]string{"check", "--store", filepath.Join(dir, "x.db")}, "x.db: no such store"},
		{[]string{"show", "--store", "mysql://x/y"}, "unknown scheme"},
		{[]string{"show", "--store", store, "--format", "pdf"}, "valid formats are text, json, html"},
		{[]string{"check", "--store", store, "--threshold", "lots"}, "not a percentage"},
		{[]string{"check", "--store", store, "("}, "REGEXP"},
		{[]string{"check", "--store", store, "--machine", "nosuch"}, "no machine"},
		{[]string{"import", "--store", store, "--commit", "x", notDB}, "--commit x"},
		{[]string{"import", "--store", store, "--commit", "HEAD", "--time", "soon", notDB}, "--time"},
		{[]string{"import", "--store", store, "--commit", "HEAD", notDB, store + ".missing"}, "nothing stored"},
		{[]string{"import", "--store", store, "--commit", strings.Repeat("ab", 20), interrupted}, "interrupted.json: the run was interrupted"},
		{[]string{"import", "--store", store, "--commit", "HEAD", "--time", "2263-01-01", notDB}, "--time"},
	} {
		_, errs, code := runHistory(c.args...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
	// A read made no store where none was.
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a read made %s (%v)", filepath.Dir(missing), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a read made x.db (%v)", err)
	}
	// The failed import of two files stored neither.
	if out, _, _ := runHistory("show", "--store", store); !strings.Contains(out, "holds no results") {
		t.Errorf("after a failed import: %s", out)
	}
}

// emptyStore is a new store that holds no results.
func emptyStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.db")
	s, err := sqlstore.Open(context.Background(), history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

func TestHistoryShowFormats(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	importAll(t, store, writeHistoryFiles(t, 8, func(i int) float64 { return 1 + float64(i/4)*0.3 }))
	html, _, code := runHistory("show", "--store", store, "--format", "html")
	if code != 0 || !strings.Contains(html, "<svg") || strings.Count(html, "<h2") != 5 || strings.Contains(html, "<script") || strings.Contains(html, "http://") && !strings.Contains(html, "http://www.w3.org/2000/svg") {
		t.Errorf("html: exit %d, %d charts", code, strings.Count(html, "<h2"))
	}
	js, _, code := runHistory("show", "--store", store, "--format", "json", "sum/sink")
	if code != 0 || !strings.Contains(js, `"benchmark": "sum/sink"`) || !strings.Contains(js, `"regressions": [`) || strings.Contains(js, "fold/") {
		t.Errorf("json: exit %d\n%s", code, js)
	}
	text, _, _ := runHistory("show", "--store", store, "--ascii", "sum/sink")
	for _, line := range strings.Split(text, "\n") {
		if len([]rune(line)) > 80 {
			t.Errorf("a line wider than 80 columns: %q", line)
		}
	}
	if strings.ContainsAny(text, "▁█") {
		t.Errorf("--ascii drew blocks:\n%s", text)
	}
}

// --store on exec stores the result it wrote, with the commit of the
// tree here; a store that cannot be used fails before anything runs.
func TestExecStore(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	out, errs, code := runBinary(t, "exec", "--window", "10ms", "--runs", "3", "--format", "json", "--store", store, "true")
	if code != 0 || !strings.Contains(errs, "stored in "+store+" as commit") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	// The file the run wrote and the stored result are one result.
	p := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(p, []byte(out), 0o644)
	if out, errs, code := runHistory("import", "--store", store, "--commit", strings.Repeat("ab", 20), p); code != 0 || !strings.Contains(out, "already stored") {
		t.Errorf("import of the file --store stored: exit %d, %s %s", code, out, errs)
	}
	if _, errs, code := runBinary(t, "exec", "--runs", "3", "--store", compareFile("old.json"), "true"); code != cli.ExitUsage || strings.Contains(errs, "summary") {
		t.Errorf("a result file as --store: exit %d, %s", code, errs)
	}
}

// TestStoreWithoutACommit: --store where no commit can be known is refused
// before anything is measured, not after the measurement.
func TestStoreWithoutACommit(t *testing.T) {
	dir := t.TempDir() // not in a git work tree
	store := filepath.Join(dir, "h.db")
	out, errs, code := runBinaryIn(t, dir, "exec", "--store", store, "--runs", "10", "true")
	if code != cli.ExitUsage || !strings.Contains(errs, "no commit known") || !strings.Contains(errs, "history import") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the missing commit and history import", code, errs)
	}
	if out != "" || strings.Contains(errs, "summary") {
		t.Errorf("it measured before refusing: stdout %q, stderr %q", out, errs)
	}
	if _, err := os.Stat(store); err == nil {
		t.Errorf("the store %s was made", store)
	}
}
