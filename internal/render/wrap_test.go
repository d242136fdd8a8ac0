package render

import (
	"strings"
	"testing"
)

// Long lines wrap at 80 columns under their value, keeping the spacing
// within them; short lines and one long word stay as they are.
func TestWrapLines(t *testing.T) {
	in := "short line\n" +
		"  cpufreq         unknown: no cpufreq in /sys: virtual machine, the host sets the frequency\n" +
		"  warn  cpu-busy: cpu1 was 100% busy over 1.001s (more than 5%): something else runs there\n" +
		"clocksource kvm-clock (available: kvm-clock); SMT control notsupported, active no\n" +
		"  error impossible: 8 multiplies in 1.3 cycles at 2.95 GHz (effective clock, dependent-add chain)\n" +
		strings.Repeat("x", 90) + "\n"
	want := "short line\n" +
		"  cpufreq         unknown: no cpufreq in /sys: virtual machine, the host sets\n" +
		"                  the frequency\n" +
		"  warn  cpu-busy: cpu1 was 100% busy over 1.001s (more than 5%): something else\n" +
		"        runs there\n" +
		"clocksource kvm-clock (available: kvm-clock); SMT control notsupported, active\n" +
		"    no\n" +
		"  error impossible: 8 multiplies in 1.3 cycles at 2.95 GHz (effective clock,\n" +
		"        dependent-add chain)\n" +
		strings.Repeat("x", 90) + "\n"
	if got := WrapLines(in, 80); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
