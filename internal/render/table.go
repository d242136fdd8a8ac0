package render

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
	return writeAligned(w, header, rows, nil)
}

// writeAligned is writeTable with the columns of left left-aligned too
// (text, like a verdict), and an empty header marking a column that sits
// one space after the one before it (a unit after its numbers); trailing
// spaces are trimmed.
func writeAligned(w io.Writer, header []string, rows [][]string, left map[int]bool) error {
	all := append([][]string{header}, rows...)
	width := make([]int, len(header))
	for _, row := range all {
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range all {
		var line strings.Builder
		for i, cell := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(cell))
			switch {
			case i == 0:
				line.WriteString(cell + pad)
			case left[i]:
				line.WriteString("  " + cell + pad)
			case header[i] == "":
				line.WriteString(" " + cell + pad)
			default:
				line.WriteString("  " + pad + cell)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteLeft writes rows (the first is the header, if any) in columns two
// spaces apart, every column left-aligned, trailing spaces trimmed: the
// comparison tables, whose change and interval columns read best aligned
// on their sign.
func WriteLeft(w io.Writer, rows [][]string) error {
	if len(rows) == 0 {
		return nil
	}
	n := 0
	for _, row := range rows {
		n = max(n, len(row))
	}
	left := map[int]bool{}
	padded := make([][]string, len(rows))
	for i, row := range rows {
		padded[i] = append(slices.Clone(row), make([]string, n-len(row))...)
	}
	for i := range n {
		left[i] = true
	}
	return writeAligned(w, padded[0], padded[1:], left)
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int64) []string {
	return slices.Sorted(maps.Keys(m))
}
