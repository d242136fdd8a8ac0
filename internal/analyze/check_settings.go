package analyze

import (
	"fmt"
	"math"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// SettingsMoveShare: a benchmark measured again as go test runs it reads
// another figure when the two medians differ by more than 10%, and by
// more than three times the larger relative MAD of the two: less is what
// separate runs of either differ by on a shared machine.
const SettingsMoveShare = 0.10

// checkGOMAXPROCS compares a benchmark's median with its median measured
// again as go test runs it (result.Experiment.AtGoTestSettings: measured
// only when the samples collected in most calls). A quadratic string
// concatenation read 18 ms/op at GOMAXPROCS 1 pinned and 44-66 ms/op under
// go test at GOMAXPROCS 2: both true for their settings, and a user who
// compares the tools must be told why they differ. A note: neither figure
// is wrong.
func checkGOMAXPROCS(e result.Experiment, st result.Stats) (finding.Finding, bool) {
	at, gomaxprocs := e.AtGoTestSettings, e.GOMAXPROCS
	if at == nil || len(at.NsPerOp) == 0 || st.N == 0 || st.Median <= 0 {
		return finding.Finding{}, false
	}
	there := stats.Median(at.NsPerOp)
	noise := st.MAD / st.Median
	if there > 0 {
		noise = max(noise, stats.MAD(at.NsPerOp, there)/there)
	}
	ratio := there / st.Median
	if math.Abs(ratio-1) <= max(SettingsMoveShare, 3*noise) {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code: result.CodeGOMAXPROCSMoves, Severity: finding.Info,
		Message: fmt.Sprintf("measured as go test runs it (GOMAXPROCS %d, not pinned), the median is %s/op against %s/op here (GOMAXPROCS %d, pinned), %s: the collector ran in most samples, and its cost moves with GOMAXPROCS and the pin; each figure holds for its settings (go test -bench on this machine reads the first; --gomaxprocs %d measures it pinned)",
			at.GOMAXPROCS, units.Duration(there), units.Duration(st.Median), gomaxprocs, units.Sig(ratio, 3)+"x", at.GOMAXPROCS),
		Evidence: map[string]any{"go_test_gomaxprocs": at.GOMAXPROCS, "go_test_median_ns": there, "median_ns": st.Median,
			"gomaxprocs": gomaxprocs, "calls": len(at.NsPerOp)},
	}, true
}
