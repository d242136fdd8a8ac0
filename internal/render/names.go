package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// minNameRoom is the least room a shortened name keeps on its row: less
// would say too little of it, and the verdict's reason goes on a line of
// its own instead (fitLastColumn).
const minNameRoom = 20

// shortenNames keeps the last column of a table (the verdict) whole on its
// row when long names leave it no room. Names built from parameters are
// long (Encoding/payload-size-in-bytes=4096/with-checksum-...) and a
// family of them shares most of it. A name wider than what the other
// columns and the widest last cell leave it (never less than minNameRoom)
// keeps on its row only its last level, indented; the levels before go on
// a line of their own above the row (withHeadings), once for the rows in
// a row that share them, as benchstat groups names by what they share.
// Names that fit are left whole, so a table that fits does not change.
//
// It replaces the names of rows by what they keep and returns each row's
// heading, "" for a name left whole.
func shortenNames(header []string, rows [][]string, width int) []string {
	name, last := utf8.RuneCountInString(header[0]), 0
	for _, row := range rows {
		name = max(name, utf8.RuneCountInString(row[0]))
		last = max(last, utf8.RuneCountInString(row[len(row)-1]))
	}
	others := columnsWidth(header, rows) - name
	room := max(width-others-last, minNameRoom)
	heads := make([]string, len(rows))
	for i, row := range rows {
		if utf8.RuneCountInString(row[0]) > room {
			head, tail := cutName(row[0], room-2)
			heads[i], row[0] = head, "  "+tail
		}
	}
	return heads
}

// cutName breaks name into a head and a tail of at most n runes (n >= 2):
// after its last '/' when the last level fits, so that sub-benchmarks of
// one parent share their head whatever the length of their own level;
// else, within the last level, after the first mark ('-', '=', '_', ...)
// or before the first capital that leaves such a tail, or n-1 runes from
// the end. A tail cut within a level starts with "…", so that it does not
// read as a sub-benchmark of the head.
func cutName(name string, n int) (head, tail string) {
	rs := []rune(name)
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 && utf8.RuneCountInString(name[i+1:]) <= n {
		return name[:i+1], name[i+1:]
	}
	from := max(len(rs)-n+1, 1) // a rune for the "…"
	for i := from; i < len(rs); i++ {
		prev, r := rs[i-1], rs[i]
		if !unicode.IsLetter(prev) && !unicode.IsDigit(prev) || unicode.IsLower(prev) && unicode.IsUpper(r) {
			return string(rs[:i]), "…" + string(rs[i:])
		}
	}
	return string(rs[:from]), "…" + string(rs[from:])
}

// withHeadings puts the headings of shortenNames above their rows, each
// as a row of one cell, which spans the table (writeAligned); a heading
// shared by the row before is not repeated. A heading wider than width
// (a name longer than the terminal) takes several lines, broken after a
// '/' where one fits.
func withHeadings(rows [][]string, heads []string, width int) [][]string {
	var out [][]string
	for i, row := range rows {
		if h := heads[i]; h != "" && (i == 0 || h != heads[i-1]) {
			for _, line := range headingLines(h, width) {
				out = append(out, []string{line})
			}
		}
		out = append(out, row)
	}
	return out
}

// headingLines breaks a heading into lines of at most width runes, each
// after the last '/' that fits, or at width when none does.
func headingLines(h string, width int) []string {
	var lines []string
	rs := []rune(h)
	for len(rs) > width && width > 1 {
		cut := width
		for i := width; i > 0; i-- {
			if rs[i-1] == '/' {
				cut = i
				break
			}
		}
		lines = append(lines, string(rs[:cut]))
		rs = rs[cut:]
	}
	return append(lines, string(rs))
}

// isHeading reports whether row is a heading of withHeadings in a table
// of the columns of header: a row of one cell, spanning the table.
func isHeading(header, row []string) bool {
	return len(row) == 1 && len(header) > 1
}
