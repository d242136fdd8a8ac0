package sqlstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
)

// importerEnv makes the test binary one importer of
// TestStoreConcurrentCreate: "PATH J" opens the store at PATH (making it
// when missing) and adds its five results and the shared one.
const importerEnv = "BENCHY_TEST_IMPORTER"

func TestImporterProcess(t *testing.T) {
	arg := os.Getenv(importerEnv)
	if arg == "" {
		t.Skip("an importer of TestStoreConcurrentCreate")
	}
	var path string
	var j int
	if _, err := fmt.Sscan(arg, &path, &j); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := Open(ctx, history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	shared := record(t, loadFixture(t), historytest.Source(0))
	for i := range 5 {
		recs := []Record{record(t, scaled(t, 1+float64(j*5+i+1)/100, j*5+i), historytest.Source(j*5+i+1)), shared}
		if _, err := s.Add(ctx, recs); err != nil {
			t.Fatal(err)
		}
	}
}

// Four processes making a new SQLite store at once all land, each of
// their results once: the first to make the file switches it to WAL while
// the others wait (openSQLite retries on SQLITE_BUSY).
func TestStoreConcurrentCreate(t *testing.T) {
	if os.Getenv(importerEnv) != "" {
		t.Skip("in an importer")
	}
	for round := range 3 {
		path := filepath.Join(t.TempDir(), "new", "history.db")
		var wg sync.WaitGroup
		outs := make([][]byte, 4)
		errs := make([]error, 4)
		for j := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestImporterProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), importerEnv+"="+path+" "+strconv.Itoa(j))
				outs[j], errs[j] = cmd.CombinedOutput()
			}()
		}
		wg.Wait()
		for j, err := range errs {
			if err != nil {
				t.Fatalf("round %d, importer %d: %v\n%s", round, j, err, outs[j])
			}
		}
		rows, _, err := open(t, history.Address{Kind: history.KindSQLite, Path: path}).Rows(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		hashes := map[string]int{}
		for _, r := range rows {
			if r.Benchmark == "sum/sink" && r.Basis == history.BasisTime {
				hashes[r.Hash]++
			}
		}
		if len(hashes) != 21 {
			t.Errorf("round %d: %d results stored, want 20 and the shared one", round, len(hashes))
		}
		for h, n := range hashes {
			if n != 1 {
				t.Errorf("round %d: result %s stored %d times", round, history.Short(h), n)
			}
		}
	}
}
