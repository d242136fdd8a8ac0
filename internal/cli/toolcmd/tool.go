package toolcmd

import (
	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli"
)

// Add adds the commands of benchy's own command line that a program built
// on the public package does not have: gotest and bisect, which build and
// measure Go packages, and history, which keeps and judges stored
// results. cmd/benchy calls it before benchy.Main.
//
// They live in this package, which only cmd/benchy imports, so that a
// user's program neither compiles nor links their code (go/types and the
// test rewriting, the bisection, the history's commands). Its --store,
// when it imports a store package, still works.
func Add() {
	cli.AddCommands(
		func(g *cli.GlobalOptions) *cobra.Command { return newGotestCmd(g, nil) },
		func(g *cli.GlobalOptions) *cobra.Command { return newBisectCmd(g, nil) },
		newHistoryCmd,
	)
}
