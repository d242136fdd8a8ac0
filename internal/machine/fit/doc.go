// Package fit judges a machine.Snapshot: whether the machine is fit to
// measure on (Check's findings, each with its evidence), which CPU to
// measure on and why (ChooseCPU, RankCPUs), and whether a CPU ran the
// reference loop slow (SlowCPU, SlowWords). It reads nothing:
// internal/machine/sysread reads the snapshot.
package fit
