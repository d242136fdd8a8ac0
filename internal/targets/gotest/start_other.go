//go:build !linux

package gotest

import (
	"os/exec"
	"runtime"
)

// StartOffCPU starts the process as it is where nothing can be pinned.
func StartOffCPU(cpu int) func(*exec.Cmd) error {
	return (*exec.Cmd).Start
}

// StartAnywhere starts the process as it is, with runtime.NumCPU CPUs.
func StartAnywhere() (func(*exec.Cmd) error, int) { return nil, runtime.NumCPU() }
