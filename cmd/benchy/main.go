// Command benchy measures Go code pinned to one CPU, records the state of
// the machine next to every number, and says which numbers to believe.
//
// Its built-in experiments register through the public package, as a
// user's own program does, and it links both stores' drivers, as a user's
// program links the one it wants. It adds the commands a user's program
// does not have: gotest, bisect and history.
package main

import (
	"github.com/benchy-dev/benchy"
	"github.com/benchy-dev/benchy/internal/cli/toolcmd"
	"github.com/benchy-dev/benchy/internal/workload"
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)

func main() {
	toolcmd.Add()
	for _, w := range workload.All() {
		benchy.Register(benchy.Experiment(w))
	}
	benchy.Main()
}
