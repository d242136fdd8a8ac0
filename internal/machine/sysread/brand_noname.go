//go:build !386 && !amd64 && !ppc64 && !ppc64le

package sysread

// cpuName is "" where the CPU gives Go no name of its own (arm64, riscv64,
// ...): the operating system's is used (osCPUName).
func cpuName() string { return "" }
