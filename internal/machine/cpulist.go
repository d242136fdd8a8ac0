package machine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxCPU bounds CPU numbers read from files: the kernel's NR_CPUS is at most
// 8192 today, so anything above 65535 is garbage, and the bound keeps a list
// like "0-4000000000" from allocating gigabytes.
const maxCPU = 65535

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
			return nil, fmt.Errorf("cpu list %q: %w", clip(s), err)
		}
		if len(cpus)+(hi-lo)/stride >= maxCPU {
			return nil, fmt.Errorf("cpu list %q: more than %d CPUs", clip(s), maxCPU)
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
		if stride, err = parseCPU(st); err != nil || stride == 0 {
			return 0, 0, 0, fmt.Errorf("bad stride %q", st)
		}
	}
	a, b, isRange := strings.Cut(part, "-")
	if lo, err = parseCPU(a); err != nil {
		return 0, 0, 0, err
	}
	hi = lo
	if isRange {
		if hi, err = parseCPU(b); err != nil {
			return 0, 0, 0, err
		}
		if hi < lo {
			return 0, 0, 0, fmt.Errorf("range %q goes down", part)
		}
	}
	return lo, hi, stride, nil
}

func parseCPU(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxCPU || s != strconv.Itoa(n) {
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

// parseHexMask parses the kernel's hex CPU mask format ("ff,ffffffff", as
// in Cpus_allowed and topology/thread_siblings): 32-bit words written high
// word first, separated by commas. Bit n set means CPU n.
func parseHexMask(b []byte) ([]int, error) {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil, fmt.Errorf("empty cpu mask")
	}
	words := strings.Split(s, ",")
	if len(words)*32 > maxCPU+1 {
		return nil, fmt.Errorf("cpu mask %q: more than %d CPUs", clip(s), maxCPU+1)
	}
	cpus := []int{}
	for i, w := range words {
		if len(w) == 0 || len(w) > 8 {
			return nil, fmt.Errorf("cpu mask %q: bad word %q", clip(s), clip(w))
		}
		v, err := strconv.ParseUint(w, 16, 32)
		if err != nil {
			return nil, fmt.Errorf("cpu mask %q: bad word %q", clip(s), clip(w))
		}
		base := (len(words) - 1 - i) * 32
		for bit := range 32 {
			if v&(1<<bit) != 0 {
				cpus = append(cpus, base+bit)
			}
		}
	}
	slices.Sort(cpus)
	return cpus, nil
}
