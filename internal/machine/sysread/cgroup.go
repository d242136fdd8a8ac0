package sysread

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

const cgroupRoot = "sys/fs/cgroup"

// readCgroup reads the cgroup of this process (v2 if sys/fs/cgroup is the
// unified hierarchy, else v1).
func readCgroup(r FS) machine.Cgroup {
	var g machine.Cgroup
	b, err := r.read("proc/self/cgroup")
	if err != nil {
		reason := why("proc/self/cgroup", err, "no proc/self/cgroup: kernel without cgroups")
		g.Version, g.Path = machine.Unknown[int64]("%s", reason), machine.Unknown[string]("%s", reason)
		g.Cpuset, g.Quota = machine.Unknown[machine.CPUList]("%s", reason), machine.Unknown[machine.Quota]("%s", reason)
		return g
	}
	paths, err := parseCgroupFile(b)
	if err != nil {
		g.Version, g.Path = machine.Unknown[int64]("%v", err), machine.Unknown[string]("%v", err)
		g.Cpuset, g.Quota = machine.Unknown[machine.CPUList]("%v", err), machine.Unknown[machine.Quota]("%v", err)
		return g
	}
	if p, ok := paths[""]; ok && r.exists(cgroupRoot+"/cgroup.controllers") {
		g.Version, g.Path = machine.Known[int64](2), machine.Known(p)
		g.Cpuset = firstUp(r, cgroupRoot, p, "cpuset.cpus.effective")
		g.Quota = quotaUp(r, cgroupRoot, p, "cpu.max")
		return g
	}
	g.Version = machine.Known[int64](1)
	g.Path = machine.Unknown[string]("no cpu controller in proc/self/cgroup")
	g.Quota = machine.Unknown[machine.Quota]("no cpu controller in proc/self/cgroup")
	if p, ok := paths["cpu"]; ok {
		g.Path = machine.Known(p)
		for _, m := range []string{"cpu,cpuacct", "cpu", "cpuacct,cpu"} {
			if r.exists(cgroupRoot + "/" + m) {
				g.Quota = quotaUp(r, cgroupRoot+"/"+m, p, "cpu.cfs_quota_us")
				break
			}
		}
	}
	g.Cpuset = machine.Unknown[machine.CPUList]("no cpuset controller in proc/self/cgroup")
	if p, ok := paths["cpuset"]; ok {
		g.Cpuset = firstUp(r, cgroupRoot+"/cpuset", p, "cpuset.effective_cpus")
	}
	return g
}

// parseCgroupFile parses proc/self/cgroup lines "id:controllers:path" into
// controller -> path; the v2 line (id 0, no controllers) has key "".
func parseCgroupFile(b []byte) (map[string]string, error) {
	paths := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		id, rest, ok1 := strings.Cut(line, ":")
		ctrls, p, ok2 := strings.Cut(rest, ":")
		if _, err := strconv.Atoi(id); !ok1 || !ok2 || err != nil || !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("proc/self/cgroup: bad line %q", units.Clip(line))
		}
		if ctrls == "" {
			paths[""] = p
			continue
		}
		for c := range strings.SplitSeq(ctrls, ",") {
			paths[c] = p
		}
	}
	return paths, nil
}

// dirsUp lists the cgroup directories from the group up to the mount, the
// group first. Inside a cgroup namespace the group's path may not exist
// under the mount; then the mount itself is the group.
func dirsUp(r FS, mount, p string) []string {
	dir := path.Join(mount, p)
	if !r.exists(dir) {
		dir = mount
	}
	dirs := []string{dir}
	for dir != mount && strings.HasPrefix(dir, mount+"/") {
		dir = path.Dir(dir)
		dirs = append(dirs, dir)
	}
	return dirs
}

// firstUp reads a cpuset file from the group or the nearest ancestor that has it.
func firstUp(r FS, mount, p, file string) machine.Fact[machine.CPUList] {
	for _, d := range dirsUp(r, mount, p) {
		if r.exists(d + "/" + file) {
			return r.listFact(d+"/"+file, "")
		}
	}
	return machine.Unknown[machine.CPUList]("no %s in the cgroup or its ancestors", file)
}

// quotaUp reads the CPU quota of the group and its ancestors and keeps the
// tightest. file is "cpu.max" (v2) or "cpu.cfs_quota_us" (v1, the period is
// in cpu.cfs_period_us next to it).
func quotaUp(r FS, mount, p, file string) machine.Fact[machine.Quota] {
	var best machine.Quota
	found := false
	for _, d := range dirsUp(r, mount, p) {
		name := d + "/" + file
		b, err := r.read(name)
		if err != nil {
			continue
		}
		if file == "cpu.cfs_quota_us" {
			per, _ := r.read(d + "/cpu.cfs_period_us")
			b = append(append(b[:len(b):len(b)], ' '), per...)
		}
		q, per, err := parseCPUMax(b)
		if err != nil {
			return machine.Unknown[machine.Quota]("%s: %v", name, err)
		}
		if !found {
			best, found = machine.Quota{From: name}, true
		}
		if q < 0 {
			continue
		}
		cpus := float64(q) / float64(per)
		if !best.Limited || cpus < best.CPUs {
			best = machine.Quota{Limited: true, CPUs: cpus, QuotaUs: q, PeriodUs: per, From: name}
		}
	}
	if !found {
		return machine.Unknown[machine.Quota]("no %s in the cgroup or its ancestors", file)
	}
	return machine.Known(best)
}

// parseCPUMax parses "quota period" as in cgroup v2 cpu.max: quota "max"
// (or -1, the v1 form) is no limit and returns quota -1.
func parseCPUMax(b []byte) (quota, period int64, err error) {
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("want \"quota period\", got %q", units.Clip(string(b)))
	}
	period, err = strconv.ParseInt(f[1], 10, 64)
	if err != nil || period <= 0 {
		return 0, 0, fmt.Errorf("bad period %q", units.Clip(f[1]))
	}
	if f[0] == "max" || f[0] == "-1" {
		return -1, period, nil
	}
	quota, err = strconv.ParseInt(f[0], 10, 64)
	if err != nil || quota <= 0 {
		return 0, 0, fmt.Errorf("bad quota %q", units.Clip(f[0]))
	}
	return quota, period, nil
}
