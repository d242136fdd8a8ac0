package benchy_test

import (
	"os/exec"
	"strings"
	"testing"
)

// maxDeps bounds `go list -deps` of the public package: every program
// built on benchy compiles and links from these. It was 322 with the store
// drivers, gonum's matrices and LAPACK in it; 207 with gotest, bisect and
// history in the cli and the pipeline; 184 with those in packages of their
// own (internal/cli/toolcmd, internal/pipeline/gotestrun) that only
// cmd/benchy imports; 155 with the history's SQL store, its hashing and
// its compression (database/sql, crypto/sha256's ~25 packages) in a
// package of its own (internal/history/sqlstore) that only a store
// package links: run --store reaches it through history.Storage; 150 with
// the incomplete beta function and the normal quantile written in
// internal/stats instead of taken from gonum's mathext (4 packages and
// math/cmplx); 142 with the Go benchmark format written by render
// itself (x/perf's benchfmt imports its statistics, benchmath and
// go-moremath, for its units' assumptions); 144 with the reading of
// /proc and /sys and the judging of a snapshot in packages of their own
// (internal/machine/sysread, internal/machine/fit), apart from the
// snapshot the result schema holds. What is left serves a user's
// program: pflag's flag and net (8), debug/elf's decompressors for the
// machine-code check (6), pprof for --profile (6).
const maxDeps = 144

// heavyDeps are packages (and the packages under them) a program built on
// benchy must not import unless it asks for them: the store drivers, SQL
// and the hashing of records come with store/sqlite and store/postgres;
// gonum's stat would bring its matrices and LAPACK; gonum's mathext and
// x/perf (benchmath, benchfmt) are what internal/stats and render are
// tested against, not what they link.
var heavyDeps = []string{
	"github.com/jackc",
	"modernc.org",
	"database/sql",
	"crypto",
	"github.com/benchy-dev/benchy/internal/history/sqlstore",
	"gonum.org/v1/gonum/stat",
	"gonum.org/v1/gonum/mat",
	"gonum.org/v1/gonum/lapack",
	"gonum.org/v1/gonum/mathext",
	"golang.org/x/perf",
	"github.com/aclements/go-moremath",
}

// TestPublicPackageDeps keeps the public package light: no store driver,
// no LAPACK, and no more packages than maxDeps.
func TestPublicPackageDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/benchy-dev/benchy").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		for _, h := range heavyDeps {
			if d == h || strings.HasPrefix(d, h+"/") {
				t.Errorf("the public package imports %s: a program that does not ask for it must not link it", d)
			}
		}
	}
	if len(deps) > maxDeps {
		t.Errorf("the public package depends on %d packages, more than %d", len(deps), maxDeps)
	}
}
