// Command benchy measures Go code pinned to one CPU, records the state of
// the machine next to every number, and says which numbers to believe.
package main

import (
	"os"

	"github.com/benchy-dev/benchy/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
