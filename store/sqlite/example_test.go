package sqlite_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/benchy-dev/benchy"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)

var data = []uint64{1, 2, 3, 4, 5, 6, 7, 8}

// A program that keeps its results in a history imports this package
// beside benchy; then `run --store FILE.db` stores each result with the
// commit it measured (the commit the binary was built from, else the git
// work tree's). Without the import, --store says which package to import
// and exits 2.
func Example() {
	benchy.Register(benchy.Experiment{
		Name: "mine/sum8", Description: "sum of 8 values",
		Units: 8, Unit: "add", ReadsMemory: true,
		Loop: func(n int) {
			for i := 0; i < n; i++ {
				var t uint64
				for _, x := range data {
					t += x
				}
				benchy.Keep(t)
			}
		},
	})
	dir, err := os.MkdirTemp("", "history")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// In a program: benchy.Main(), and `prog run --store history.db`.
	code := benchy.Execute([]string{"run", "--smoke", "--store", filepath.Join(dir, "history.db")}, io.Discard, io.Discard)
	_, err = os.Stat(filepath.Join(dir, "history.db"))
	fmt.Println("exit", code, "stored:", err == nil)
	// Output: exit 0 stored: true
}
