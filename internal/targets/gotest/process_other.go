//go:build !linux

package gotest

import (
	"context"
	"os/exec"
	"time"
)

// runGroup runs cmd and waits for it; a stop or the limit kills it. (gotest
// runs on Linux only: this is what builds elsewhere.)
func runGroup(ctx context.Context, cmd *exec.Cmd, start func(*exec.Cmd) error, limit time.Duration) (end processEnd, err error) {
	if err := start(cmd); err != nil {
		return processEnd{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	select {
	case err = <-done:
		return end, err
	case <-ctx.Done():
		end.stopped = true
	case <-deadline.C:
		end.timedOut = true
	}
	cmd.Process.Kill()
	return end, <-done
}
