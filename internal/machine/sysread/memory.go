package sysread

import (
	"fmt"
	"strconv"
	"strings"
)

// noLimit is what cgroup v1 writes for "no memory limit": the largest
// page-aligned int64, or anything near it.
const noLimit = 1 << 62

// MemoryBudget is how much memory this process may use: the tightest
// memory limit of its cgroup and the cgroup's ancestors (v2 memory.max, v1
// memory.limit_in_bytes), or the machine's RAM (MemTotal) when smaller or
// when there is no limit; from says where the figure came from. A process
// that allocates with the collector off must stay well inside it, or the
// kernel kills it without a word.
func MemoryBudget(root string) (bytes int64, from string, err error) {
	r := FS(root)
	ram, ramErr := memTotal(r)
	if ramErr == nil {
		bytes, from = ram, "proc/meminfo MemTotal"
	}
	if limit, name, ok := cgroupMemoryLimit(r); ok && (bytes == 0 || limit < bytes) {
		bytes, from = limit, name
	}
	if bytes == 0 {
		return 0, "", fmt.Errorf("memory unknown: %v", ramErr)
	}
	return bytes, from, nil
}

// memTotal reads MemTotal from proc/meminfo, in bytes.
func memTotal(r FS) (int64, error) {
	b, err := r.read("proc/meminfo")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && kb > 0 {
					return kb << 10, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("proc/meminfo: no MemTotal in kB")
}

// cgroupMemoryLimit is the tightest memory limit of this process's cgroup
// and its ancestors; false when there is none.
func cgroupMemoryLimit(r FS) (int64, string, bool) {
	b, err := r.read("proc/self/cgroup")
	if err != nil {
		return 0, "", false
	}
	paths, err := parseCgroupFile(b)
	if err != nil {
		return 0, "", false
	}
	mount, file := cgroupRoot, "memory.max"
	p, ok := paths[""]
	if !ok || !r.exists(cgroupRoot+"/cgroup.controllers") {
		mount, file = cgroupRoot+"/memory", "memory.limit_in_bytes"
		if p, ok = paths["memory"]; !ok {
			return 0, "", false
		}
	}
	var best int64
	var from string
	for _, d := range dirsUp(r, mount, p) {
		s, err := r.readString(d + "/" + file)
		if err != nil || s == "max" {
			continue
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v <= 0 || v >= noLimit {
			continue
		}
		if best == 0 || v < best {
			best, from = v, d+"/"+file
		}
	}
	return best, from, best > 0
}
