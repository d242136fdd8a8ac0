// Package render writes benchy's documents from what was measured and
// analysed: a result as text, compact text, JSON, CSV, gobench, markdown
// or HTML (Write, one file per format), a comparison (compare.Document,
// of files or of an interleaved run) as text, markdown, JSON or, within
// its run's page, HTML (WriteComparison, comparison_*.go), the sentence
// of each comparison,
// the history's charts, the report of a bisection and the differences of
// two profiles.
package render
