package render

import (
	"io"
	"slices"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// writeComparisonJSON writes the document as its file holds it
// (compare.DocumentJSON), each row with its sentence.
func writeComparisonJSON(w io.Writer, d compare.Document) error {
	d.Rows = withSentences(d.Rows)
	return writeJSON(w, d.JSON())
}

// comparisonPairs is an interleaved run's document as the run's JSON
// holds it (its "comparison": a pair per candidate, each with its
// sentence), the shape scripts have read since before the document.
func comparisonPairs(d compare.Document) []result.Pair {
	pairs := make([]result.Pair, len(d.Rows))
	for i, r := range withSentences(d.Rows) {
		pairs[i] = r.Pair
	}
	return pairs
}

// withSentences is a copy of rows, each with its sentence: scripts read
// the verdict in the words the text output uses.
func withSentences(rows []compare.Row) []compare.Row {
	rows = slices.Clone(rows)
	for i := range rows {
		rows[i].Sentence = Sentence(rows[i].Pair)
	}
	return rows
}
