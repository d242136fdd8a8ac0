package cpulock

import (
	"os"
	"os/exec"
	"testing"
)

// A lock held by another process is seen; one released is free again.
func TestLockAcrossProcesses(t *testing.T) {
	if os.Getenv("CPULOCK_HOLD") != "" {
		Dir = os.Getenv("CPULOCK_DIR")
		if _, _, err := TryLock(3); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		os.Stdin.Read(make([]byte, 1)) // hold until the parent closes stdin
		os.Exit(0)
	}
	Dir = t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockAcrossProcesses$")
	cmd.Env = append(os.Environ(), "CPULOCK_HOLD=1", "CPULOCK_DIR="+Dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("helper did not take the lock: %q %v", buf, err)
	}
	if l, held, err := TryLock(3); l != nil || !held || err != nil {
		t.Errorf("TryLock(3) while another process holds it = %v, %v, %v; want held", l, held, err)
	}
	l4, held, err := TryLock(4)
	if l4 == nil || held || err != nil {
		t.Errorf("TryLock(4) = %v, %v, %v; want the lock", l4, held, err)
	}
	l4.Release()
	in.Close()
	cmd.Wait()
	l3, held, err := TryLock(3)
	if l3 == nil || held || err != nil {
		t.Errorf("TryLock(3) after the holder exited = %v, %v, %v; want the lock", l3, held, err)
	}
	l3.Release()
	var none *Lock
	none.Release()
}
