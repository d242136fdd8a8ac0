package render

import (
	"encoding/json"
	"io"
	"slices"

	"github.com/benchy-dev/benchy/internal/compare"
)

// writeComparisonJSON writes the document as its file holds it
// (compare.DocumentJSON), each row with its sentence.
func writeComparisonJSON(w io.Writer, d compare.Document) error {
	d.Rows = slices.Clone(d.Rows)
	for i := range d.Rows {
		d.Rows[i].Sentence = Sentence(d.Rows[i].Pair)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d.JSON())
}
