//go:build !unix

package cpulock

import "errors"

func mkfifo(path string) error { return errors.New("no FIFOs") }
