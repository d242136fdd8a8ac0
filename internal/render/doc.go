// Package render writes benchy's documents from what was measured and
// analysed: a result as text, compact text, JSON, CSV, gobench, markdown
// or HTML (Write, one file per format), a comparison (compare.Document,
// of files or of an interleaved run) as text, markdown, JSON or, within
// its run's page, HTML (WriteComparison, comparison_*.go), the sentence
// of each comparison, the history's charts and its slower or confirmed
// steps (history check, --confirm), the report of a bisection, the
// differences of two profiles, and the reports of the commands that look
// at the machine or the code: the machine header of a run and benchy
// machine's report, benchy list's table and benchy asm's listing.
package render
