//go:build linux && !amd64

package command

import "debug/elf"

// There is no starter for this architecture yet: runs are forked directly,
// and max-rss-kb has the forking process's RSS as its floor.
var (
	starterMachine elf.Machine
	starterCode    []byte
)
