package command

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the spawner helper (MaybeServe, as
// benchy's main does) and the child programs the tests run: "child alloc
// 200" allocates and touches 200 MiB, "child cpus FILE" writes its
// Cpus_allowed_list to FILE, "child exit 3 MSG" writes MSG to stderr and
// exits 3, "child sleep 60s" sleeps, "child spin 50ms" keeps a CPU busy.
//
// Under -race this binary, as the helper and as every child, would sleep a
// second as it exits with status 0 (the detector's atexit_sleep_ms, a grace
// for other goroutines' reports): about thirty such exits made the package
// take 35 s, not 10. The detector still reports a race where it sees one.
func TestMain(m *testing.M) {
	MaybeServe()
	if len(os.Args) > 2 && os.Args[1] == "child" {
		os.Exit(child(os.Args[2], os.Args[3:]))
	}
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	code := m.Run()
	closeSpawner()
	os.Exit(code)
}

func child(mode string, args []string) int {
	switch mode {
	case "alloc":
		mib, _ := strconv.Atoi(args[0])
		b := make([]byte, mib<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		sink = b
	case "cpus":
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		v := ""
		for _, l := range strings.Split(string(status), "\n") {
			if k, rest, ok := strings.Cut(l, ":"); ok && k == "Cpus_allowed_list" {
				v = strings.TrimSpace(rest)
			}
		}
		if err := os.WriteFile(args[0], []byte(v), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	case "exit":
		code, _ := strconv.Atoi(args[0])
		for i := 1; i <= 12; i++ {
			fmt.Fprintf(os.Stderr, "line %d\n", i)
		}
		fmt.Fprintln(os.Stderr, strings.Join(args[1:], " "))
		return code
	case "sleep", "spin":
		d, _ := time.ParseDuration(args[0])
		if mode == "sleep" {
			time.Sleep(d)
			break
		}
		for start := time.Now(); time.Since(start) < d; {
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown child mode", mode)
		return 2
	}
	return 0
}

var sink []byte

// childLine is the command line that runs the test binary as a child.
func childLine(t *testing.T, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Join(append([]string{exe, "child"}, args...))
}
