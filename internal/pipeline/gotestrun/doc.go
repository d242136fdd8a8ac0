// Package gotestrun holds the stages of benchy's own commands that build
// and measure Go packages' benchmarks: gotest (with --against's worktree,
// --layouts and --profile's differences), bisect's walk over commits, and
// the history's confirmation of a step. Each builds its targets and hands
// them to pipeline.Run.
//
// It is a package of its own so that a program built on the public
// package, which has none of these commands, does not import the test
// rewriting (go/types), the bisection or the history through the pipeline.
package gotestrun
