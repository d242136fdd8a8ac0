package gotest

import "testing"

// notUnderRace skips a test whose point is what the go command, git or a
// test binary makes of the code (what builds, its names, its machine
// code, the findings of its ramps, its profiles, a worktree), not this
// process's goroutines: the race detector sees only this process, which
// such a test drives the way the tests kept under it do
// (TestPrintsAreNotResults, TestTimeout, TestStopEndsTheProcess,
// TestChildren..., ...), so under it the test only takes longer (make
// test runs it in the plain run).
func notUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("builds or reads test binaries: the race detector sees nothing of them, and the plain run covers it")
	}
}
