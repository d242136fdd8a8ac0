// Package result is the schema of what benchy measured: the samples, the
// names of the counters read around them, and (as it moves here from
// internal/report) the result file itself. It is a leaf: reading a result
// must not pull in the disassembler, the statistics or the command line.
package result
