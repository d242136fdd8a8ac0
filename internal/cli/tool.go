package cli

import "github.com/spf13/cobra"

// AddToolCommands adds the commands of benchy's own command line that a
// program built on the public package does not have: gotest and bisect,
// which build and measure Go packages, and history, which keeps and
// judges stored results. cmd/benchy calls it before benchy.Main.
//
// They are added here, not in their files' init, so that a user's
// program, which never calls this, does not link their code (go/types
// and the test rewriting, the bisection, the history's commands): the
// linker keeps only what a reachable function names. Its --store, when
// it imports a store package, still works.
func AddToolCommands() {
	toolCommands = append(toolCommands,
		func(g *globalOptions) *cobra.Command { return newGotestCmd(g, nil) },
		func(g *globalOptions) *cobra.Command { return newBisectCmd(g, nil) },
		newHistoryCmd,
	)
}
