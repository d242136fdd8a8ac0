package report

import (
	"fmt"
	"io"
	"strings"
)

// Formats are the names Write accepts.
var Formats = []string{"text", "json", "csv", "gobench"}

// Write renders r in format: "text" for people, "json" for the whole
// result, "csv" for one row per sample, "gobench" for benchstat. Write does
// not analyze: call Analyze first so statistics and verdicts are current.
func Write(w io.Writer, r *Result, format string) error {
	switch format {
	case "text":
		return writeText(w, r)
	case "json":
		return writeJSON(w, r)
	case "csv":
		return writeCSV(w, r)
	case "gobench":
		return writeGobench(w, r)
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}
