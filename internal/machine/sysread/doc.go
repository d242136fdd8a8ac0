// Package sysread reads a machine.Snapshot: what a machine is and what it
// is doing, from /proc and /sys under a root directory ("/" for this
// machine, a fixture tree in tests), and on the live machine from the
// system itself (the allowed CPUs, the kernel, the CPU's brand). It also
// reads the busy of every CPU over a window, the memory benchy may use,
// and the clock of a CPU now.
//
// A fact that cannot be read is "unknown: <reason>" (machine.Fact), never
// a zero that looks like a value. The judgements made from a snapshot are
// package fit's (internal/machine/fit).
package sysread
