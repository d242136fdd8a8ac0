package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitMeasuring waits until the benchy process pid has begun measuring:
// one of its threads may run on other CPUs than this test process may
// (benchy pins the measured thread and keeps its other threads off that
// CPU only once every flag and file was checked and the busy window
// read). A test that stops a run or pulls a file from under it waits for
// this, not for a fixed time a loaded machine may not have reached it in.
// Where every thread may run on one CPU only, nothing changes: it returns
// after the first look.
func waitMeasuring(t *testing.T, pid int) {
	t.Helper()
	own := allowedCPUs("/proc/self/status")
	if own == "" || !strings.ContainsAny(own, ",-") {
		return // no /proc, or a single CPU
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "status"))
		if err != nil || len(tasks) == 0 {
			t.Fatalf("benchy (pid %d) is gone before it began measuring", pid)
		}
		for _, task := range tasks {
			if a := allowedCPUs(task); a != "" && a != own {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("benchy (pid %d) did not pin a thread in 2 minutes", pid)
}

// allowedCPUs is the Cpus_allowed_list of a /proc status file, "" when
// it cannot be read.
func allowedCPUs(status string) string {
	b, err := os.ReadFile(status)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && k == "Cpus_allowed_list" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
