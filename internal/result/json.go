package result

import (
	"encoding/json"
	"io"
)

// Encode writes r as indented JSON, the format `benchy report` reads.
// Go writes floats in the shortest form that reads back to the same
// value, so statistics recompute exactly from the file.
func Encode(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
