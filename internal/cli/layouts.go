package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// writeLayoutsText says what the layouts did, one row per benchmark: the
// layouts' medians of each side, the variation between layouts and between
// processes, the change claimed and whether it is layout-sensitive.
func writeLayoutsText(w io.Writer, l *result.Layouts) {
	if l == nil {
		return
	}
	fmt.Fprintf(w, "\n%s\n", render.Wrap(fmt.Sprintf("layouts: %d links of each revision (-ldflags=-randlayout=SEED, seeds %s), %s each, interleaved", len(l.Seeds), seedList(l.Seeds), units.Count(l.Processes, "process")), textWidth, "  "))
	// Short headings: the row of a layout-sensitive benchmark fits 80
	// columns with a name of up to 15 characters.
	rows := [][]string{{"  benchmark", "move", "sd layout", "sd process", "range", "change", ""}}
	for _, sp := range l.Benchmarks {
		change, verdict := "-", ""
		if sp.Change != 0 {
			change = units.Change(sp.Change)
		}
		if sp.Sensitive {
			verdict = result.LayoutSensitive
		}
		rows = append(rows, []string{"  " + sp.Name, "±" + units.Pct(sp.Move), units.Pct(sp.LayoutSD), units.Pct(sp.ProcessSD), units.Pct(sp.Range), change, verdict})
	}
	render.WriteLeft(w, rows)
	fmt.Fprintf(w, "%s\n", render.Wrap("move: what layouts alone move a benchmark by, twice the standard deviation between layouts (the processes' own variation taken out); a claimed change no larger is layout-sensitive. range: the largest gap between two layouts' medians, process noise included", textWidth, "  "))
}

func seedList(seeds []int64) string {
	s := make([]string, len(seeds))
	for i, x := range seeds {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
