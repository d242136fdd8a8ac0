package layout

import (
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// Spreads are what the layouts l did to each benchmark of cur: old is nil
// without --against, files the comparison of old and cur (nil without
// it), whose claimed changes (faster or slower) the layouts are held
// against.
func Spreads(old, cur *result.Result, files *compare.Files, l *result.Layouts) []result.LayoutSpread {
	k, perLayout := len(l.Seeds), l.Processes
	rows := map[string]compare.Row{}
	if files != nil {
		for _, r := range files.Rows {
			rows[r.Name] = r
		}
	}
	var out []result.LayoutSpread
	for i := range cur.Experiments {
		e := &cur.Experiments[i]
		var om Medians
		if old != nil {
			o := old.Find(e.Name)
			if o == nil {
				continue
			}
			om = ProcessMedians(o, k, perLayout)
		}
		row, ok := rows[e.Name]
		claimed := ok && (row.Verdict == result.Faster || row.Verdict == result.Slower)
		out = append(out, Spread(e.Name, om, ProcessMedians(e, k, perLayout), row.Change(), claimed))
	}
	return out
}

// Judge makes every claimed change of files that the layouts alone move
// its benchmark by (l.Benchmarks, from Spreads) layout-sensitive: the
// row's verdict, which a gate cannot judge, and its reason (Message),
// which the row's sentence says when a writer renders it. It returns the
// finding each such benchmark gets, by name, for the new side's
// experiment.
func Judge(files *compare.Files, l *result.Layouts) map[string]finding.Finding {
	out := map[string]finding.Finding{}
	for _, sp := range l.Benchmarks {
		if !sp.Sensitive {
			continue
		}
		msg := Message(sp, len(l.Seeds))
		for i := range files.Rows {
			if row := &files.Rows[i]; row.Name == sp.Name {
				row.Verdict, row.Reason = result.LayoutSensitive, msg
			}
		}
		out[sp.Name] = finding.Finding{Code: result.CodeLayoutSensitive, Severity: finding.Warn, Message: msg,
			Evidence: map[string]any{"range": sp.Range, "change": sp.Change, "layout_sd": sp.LayoutSD, "process_sd": sp.ProcessSD}}
	}
	return out
}
