//go:build !linux

package gotest

import "os/exec"

// Elsewhere gotest does not run (it pins with sched_setaffinity): the
// commands run as they are.

func ownGroup(cmd *exec.Cmd) {}

func reap(cmd *exec.Cmd, ended func()) error {
	err := cmd.Wait()
	ended()
	return err
}
