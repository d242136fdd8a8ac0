package render

import (
	"fmt"
	"io"
	"slices"
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

// WriteWith is Write with options: for the text, verbose and the width;
// for gobench, the counters.
func WriteWith(w io.Writer, r *result.Result, format string, o Options) error {
	switch format {
	case "text":
		if o.Verbose {
			return writeText(w, r, o)
		}
		return writeCompact(w, r, o)
	case "json":
		return result.Encode(w, withSentences(r))
	case "csv":
		return writeCSV(w, r)
	case "gobench":
		return writeGobench(w, r, o.GobenchCounters)
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

// withSentences is r with each comparison's sentence written, for the
// JSON: scripts read the verdict in the words the text output uses. r
// itself is left as it is.
func withSentences(r *result.Result) *result.Result {
	if len(r.Comparison) == 0 {
		return r
	}
	c := *r
	c.Comparison = slices.Clone(r.Comparison)
	for i := range c.Comparison {
		c.Comparison[i].Sentence = Sentence(c.Comparison[i])
	}
	return &c
}
