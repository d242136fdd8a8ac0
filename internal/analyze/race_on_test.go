//go:build race

package analyze

// raceEnabled: the race detector instruments the machine code (a call to
// runtime.raceread beside every load) and the allocations, so the tests of
// what a loop's code does, and of how much decoding allocates, read another
// program under it and are skipped.
const raceEnabled = true
