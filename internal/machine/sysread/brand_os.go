//go:build !darwin && !freebsd && !netbsd && !openbsd

package sysread

import "runtime"

// osCPUName is the CPU name the operating system gives Go: on Linux from
// /proc/cpuinfo (goCPUInfoName); none elsewhere (Windows).
func osCPUName(r FS) string {
	if runtime.GOOS != "linux" && runtime.GOOS != "android" {
		return ""
	}
	b, err := r.read("proc/cpuinfo")
	if err != nil {
		return ""
	}
	return goCPUInfoName(b)
}
