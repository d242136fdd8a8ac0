//go:build darwin || freebsd || netbsd || openbsd

package sysread

import "golang.org/x/sys/unix"

// osCPUName is the CPU name the operating system gives Go: the sysctl
// machdep.cpu.brand_string ("Apple M2"), "" where it has none.
func osCPUName(FS) string {
	name, _ := unix.Sysctl("machdep.cpu.brand_string")
	return name
}
