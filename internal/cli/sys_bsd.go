//go:build unix && !linux

package cli

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
