//go:build unix && !linux

package pipeline

import "syscall"

// childAttr puts a child of benchy in a process group of its own, so a
// Ctrl-C at the terminal reaches benchy alone, which passes it on once.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
