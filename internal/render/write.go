package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
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

// WriteWith is Write with options: for the text, verbose and the width;
// for gobench, the counters.
//
// An interleaved run's comparison is a compare.Document, read back once
// from the rows the analysis stored in r (compare.RunDocument) and
// written by the comparison's exporter of the format.
func WriteWith(w io.Writer, r *result.Result, format string, o Options) error {
	c := compare.RunDocument(r)
	switch format {
	case "text":
		if o.Verbose {
			return writeText(w, r, c, o)
		}
		return writeCompact(w, r, c, o)
	case "json":
		return result.Encode(w, withComparison(r, c))
	case "csv":
		return writeCSV(w, r)
	case "gobench":
		return writeGobench(w, r, o.GobenchCounters)
	case "markdown":
		return writeMarkdown(w, r, c)
	case "html":
		return writeHTML(w, r, c)
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

// withComparison is r with its interleaved comparison c written as the
// run's JSON holds it (comparisonPairs); r itself is left as it is.
func withComparison(r *result.Result, c *compare.Document) *result.Result {
	if c == nil {
		return r
	}
	out := *r
	out.Comparison = comparisonPairs(*c)
	return &out
}

// writeJSON writes v as indented JSON, a value per line: the form every
// --format json of render's takes (the history's keeps HTML unescaped).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
