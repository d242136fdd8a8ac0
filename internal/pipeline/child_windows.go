package pipeline

import "syscall"

// childAttr has nothing to set on Windows.
func childAttr() *syscall.SysProcAttr { return nil }

func sigName(s syscall.Signal) string { return s.String() }
