// Package sink holds what keeps a measured result alive: Keep and the
// package-level sinks. The public benchy package exports the same
// (benchy.Keep calls Keep here); the built-in experiments use these.
package sink

import "runtime"

// Keep makes v observable so the compiler must compute it. It is built on
// runtime.KeepAlive, which costs one stack store (~0.5 ns); storing into an
// interface would allocate. Keep hides the output only: inputs must come
// from a parameter or a package variable, never a constant.
func Keep[T any](v T) {
	runtime.KeepAlive(v)
}

// Package-level sinks: a store to a package variable is a side effect the
// compiler must keep, so results written here are computed.
var (
	SinkU64 uint64
	SinkInt int
	SinkStr string
	SinkAny any
)
