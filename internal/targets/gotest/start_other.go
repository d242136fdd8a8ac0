//go:build !linux

package gotest

import "os/exec"

// StartOffCPU starts the process as it is where nothing can be pinned.
func StartOffCPU(cpu int) func(*exec.Cmd) error {
	return (*exec.Cmd).Start
}
