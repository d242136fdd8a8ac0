package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
)

// Formats are the names Write accepts.
var Formats = []string{"text", "json", "csv", "gobench", "markdown", "html"}

// Write renders r in format: "text" for people, "json" for the whole
// result, "csv" for one row per sample, "gobench" for benchstat,
// "markdown" for a pull request. Write does
// not analyze: call Analyze first so statistics and verdicts are current.
func Write(w io.Writer, r *result.Result, format string) error {
	return WriteWith(w, r, format, Options{})
}

// WriteWith is Write with options for the text: verbose, and the width.
func WriteWith(w io.Writer, r *result.Result, format string, o Options) error {
	switch format {
	case "text":
		if o.Verbose {
			return writeText(w, r, o)
		}
		return writeCompact(w, r, o)
	case "json":
		return result.Encode(w, r)
	case "csv":
		return writeCSV(w, r)
	case "gobench":
		return writeGobench(w, r)
	case "markdown":
		return writeMarkdown(w, r)
	case "html":
		return writeHTML(w, r)
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}

// summaryLine is the verdicts counted, as the analysis stored them.
func summaryLine(r *result.Result) string {
	if r.Summary == nil {
		return "no verdicts: the result was not analyzed"
	}
	return r.Summary.Line
}
