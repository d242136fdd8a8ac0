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
// spaces are trimmed. A row of one cell in a table of more columns is a
// heading (withHeadings): it spans the table, and widens no column.
func writeAligned(w io.Writer, header []string, rows [][]string, left map[int]bool) error {
	all := append([][]string{header}, rows...)
	width := make([]int, len(header))
	for _, row := range all {
		if isHeading(header, row) {
			continue
		}
		for i, cell := range row {
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, row := range all {
		if isHeading(header, row) {
			b.WriteString(strings.TrimRight(row[0], " ") + "\n")
			continue
		}
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
	padded := padRows(rows)
	left := map[int]bool{}
	for i := range padded[0] {
		left[i] = true
	}
	return writeAligned(w, padded[0], padded[1:], left)
}

// padRows is rows, copied, each as long as the longest, with empty cells;
// but for the headings (a row of one cell after the first), which span
// the table.
func padRows(rows [][]string) [][]string {
	n := 0
	for _, row := range rows {
		n = max(n, len(row))
	}
	padded := make([][]string, len(rows))
	for i, row := range rows {
		if i > 0 && isHeading(padded[0], row) {
			padded[i] = slices.Clone(row)
			continue
		}
		padded[i] = append(slices.Clone(row), make([]string, n-len(row))...)
	}
	return padded
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// FitLeft fits rows for WriteLeft (the first is the header) into width
// runes: as they are when they fit; else without the column drop (-1 for
// none), one the text says again below the table; else, still too wide,
// with names too long for the last column to fit beside them shortened
// (shortenNames: their shared part on a line above); else with the last
// column wrapped at spaces onto lines of its own under each row, in the
// room the other columns leave, or the longest word's when that is less.
func FitLeft(rows [][]string, width, drop int) [][]string {
	if len(rows) == 0 {
		return rows
	}
	if rows = padRows(rows); len(rows[0]) == 0 {
		return rows
	}
	if leftWidth(rows) <= width {
		return rows
	}
	if drop >= 0 && drop < len(rows[0]) {
		for i, row := range rows {
			rows[i] = slices.Delete(row, drop, drop+1)
		}
		if leftWidth(rows) <= width {
			return rows
		}
	}
	header, body := rows[0], rows[1:]
	rows = append([][]string{header}, withHeadings(body, shortenNames(header, body, width), width)...)
	if leftWidth(rows) <= width {
		return rows
	}
	last := len(header) - 1
	room := width - columnsWidth(header, rows[1:])
	for _, row := range rows {
		if isHeading(header, row) {
			continue
		}
		for _, w := range strings.Fields(row[last]) {
			room = max(room, utf8.RuneCountInString(w))
		}
	}
	var out [][]string
	for _, row := range rows {
		if isHeading(header, row) {
			out = append(out, row)
			continue
		}
		lines := strings.Split(Wrap(row[last], room, ""), "\n")
		row[last] = lines[0]
		out = append(out, row)
		for _, more := range lines[1:] {
			cont := make([]string, len(row))
			cont[last] = more
			out = append(out, cont)
		}
	}
	return out
}

// leftWidth is the width WriteLeft gives padded rows: every column as
// wide as its widest cell, two spaces apart.
func leftWidth(rows [][]string) int {
	last := 0
	for _, row := range rows {
		if !isHeading(rows[0], row) {
			last = max(last, utf8.RuneCountInString(row[len(row)-1]))
		}
	}
	return columnsWidth(rows[0], rows[1:]) + last
}
