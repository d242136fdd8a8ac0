// Package result is the schema of what benchy measured and decided: the
// result file (Result, Experiment, Sample, the comparison Pair), the names
// of the counters and of the finding codes, and Load, Decode, Validate and
// Encode. It is a leaf: reading a result must not pull in the disassembler,
// the statistics or the command line (internal/analyze decides,
// internal/render writes).
package result
