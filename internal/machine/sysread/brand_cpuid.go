//go:build 386 || amd64

package sysread

import "bytes"

// cpuid is implemented in brand_cpuid.s.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// cpuName is the processor brand string of CPUID leaves
// 0x80000002-0x80000004, as Go's internal/cpu.Name reads it: leading
// spaces dropped, cut at the first NUL; "" when the CPU has no such
// leaves.
func cpuName() string {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000004 {
		return ""
	}
	data := make([]byte, 0, 48)
	for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
		a, b, c, d := cpuid(leaf, 0)
		for _, r := range [...]uint32{a, b, c, d} {
			data = append(data, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	data = bytes.TrimLeft(data, " ")
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}
