package gotest

import (
	"fmt"
	"hash/fnv"
)

// Shard is a deterministic share of a suite's benchmarks, number I of N
// (1-based), so that N CI jobs each measure one share and the history
// store brings the shares together. A top-level benchmark's shard is a
// hash of its package's import path and its name: every job that runs
// I/N runs the same benchmarks, on either side of --against too, and a
// benchmark keeps its shard when others are added or removed. (A suite
// of a few benchmarks may share out unevenly.) The zero Shard holds all.
type Shard struct{ I, N int }

// Holds reports whether the top-level benchmark top of package pkg is in
// the shard.
func (s Shard) Holds(pkg, top string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(pkg + "." + top))
	return int(h.Sum32()%uint32(s.N)) == s.I-1
}

// String is "I/N", "" for the zero Shard.
func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}
