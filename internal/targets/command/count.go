package command

import "github.com/benchy-dev/benchy/internal/callgrind"

// CountCommand is the whole command, one op per run, counted with every
// program it starts (sh -c, a pipeline), reading --input. The hooks are
// not run: a count with --setup, --prepare or --cleanup is refused before
// anything runs.
func (t *Target) CountCommand(int64) (callgrind.Command, error) {
	argv := append([]string{t.prog.Path}, t.prog.Args[1:]...)
	return callgrind.Command{Argv: argv, PerRun: true, Children: true, Stdin: t.cfg.Input}, nil
}
