package machine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/units"
)

// MaxCPU bounds CPU numbers read from files: the kernel's NR_CPUS is at most
// 8192 today, so anything above 65535 is garbage, and the bound keeps a list
// like "0-4000000000" from allocating gigabytes.
const MaxCPU = 65535

// CPUList is a set of CPU numbers, sorted and without duplicates. In JSON
// and text it is written in the kernel's list format ("0-3,8-11"; "" for
// none), the form /sys and taskset use.
type CPUList []int

func (l CPUList) String() string { return FormatCPUList(l) }

// Has reports whether cpu is in the list.
func (l CPUList) Has(cpu int) bool {
	_, ok := slices.BinarySearch(l, cpu)
	return ok
}

// MarshalJSON writes the list in kernel list format.
func (l CPUList) MarshalJSON() ([]byte, error) { return json.Marshal(FormatCPUList(l)) }

// UnmarshalJSON reads the kernel list format.
func (l *CPUList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseCPUList(s)
	*l = v
	return err
}

// ParseCPUList parses the kernel's CPU list format: comma-separated numbers
// and ranges, "0-3,8-11", optionally with a stride "0-15:2" (cpuset syntax,
// as in isolcpus). Whitespace around the list is ignored; the empty list is
// valid. The result is sorted without duplicates.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return []int{}, nil
	}
	var cpus []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, stride, err := parseRange(part)
		if err != nil {
			return nil, fmt.Errorf("cpu list %q: %w", units.Clip(s), err)
		}
		if len(cpus)+(hi-lo)/stride >= MaxCPU {
			return nil, fmt.Errorf("cpu list %q: more than %d CPUs", units.Clip(s), MaxCPU)
		}
		for c := lo; c <= hi; c += stride {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// parseRange parses "N", "N-M" or "N-M:S".
func parseRange(part string) (lo, hi, stride int, err error) {
	stride = 1
	if r, st, ok := strings.Cut(part, ":"); ok {
		part = r
		if stride, err = ParseCPU(st); err != nil || stride == 0 {
			return 0, 0, 0, fmt.Errorf("bad stride %q", st)
		}
	}
	a, b, isRange := strings.Cut(part, "-")
	if lo, err = ParseCPU(a); err != nil {
		return 0, 0, 0, err
	}
	hi = lo
	if isRange {
		if hi, err = ParseCPU(b); err != nil {
			return 0, 0, 0, err
		}
		if hi < lo {
			return 0, 0, 0, fmt.Errorf("range %q goes down", part)
		}
	}
	return lo, hi, stride, nil
}

// ParseCPU parses one CPU number, at most MaxCPU.
func ParseCPU(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxCPU || s != strconv.Itoa(n) {
		return 0, fmt.Errorf("bad cpu number %q", s)
	}
	return n, nil
}

// FormatCPUList writes cpus in kernel list format, "0-3,8-11", merging
// runs of consecutive numbers. It sorts a copy; duplicates are dropped.
func FormatCPUList(cpus []int) string {
	c := slices.Clone(cpus)
	slices.Sort(c)
	c = slices.Compact(c)
	var b strings.Builder
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] == c[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(c[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(c[j]))
		}
		i = j + 1
	}
	return b.String()
}
