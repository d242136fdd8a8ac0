// Command userprog is a user's program as TestAsmBinaries builds it: the
// built-in experiments registered through the public package, and none
// of cmd/benchy's store drivers (whose compiling, once per build mode, is
// most of the cost of a build).
package main

import (
	"github.com/benchy-dev/benchy"
	"github.com/benchy-dev/benchy/internal/workload"
)

func main() {
	for _, w := range workload.All() {
		benchy.Register(benchy.Experiment(w))
	}
	benchy.Main()
}
