package report

import (
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// writeTable writes rows under header in aligned columns two spaces apart:
// the first column left-aligned, the others (numbers) right-aligned.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	all := append([][]string{header}, rows...)
	width := make([]int, len(header))
	for _, row := range all {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range all {
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case i == 0:
				b.WriteString(cell)
				if len(row) > 1 {
					b.WriteString(pad)
				}
			default:
				b.WriteString("  " + pad + cell)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int64) []string {
	return slices.Sorted(maps.Keys(m))
}
