//go:build !unix

package callgrind

import "os/exec"

func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
