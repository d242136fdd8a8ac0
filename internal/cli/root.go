// Package cli holds benchy's cobra commands. Each command has an options
// struct, a constructor that binds flags to it, and a plain run function
// that takes writers, so every command is tested without a terminal.
package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/redact"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// Version is the tool version written into every result.
var Version = "0.1.0"

// GlobalOptions are the flags every command shares.
type GlobalOptions struct {
	// Sysroot is the directory /proc and /sys are read under ("/" live).
	Sysroot string
	// Verbose is -v: the whole text report of the commands that write a
	// result. It is the root's, so it goes before the command or after it.
	Verbose bool
	Stdout  io.Writer
	Stderr  io.Writer
	Args    []string // the command line, recorded in results
	// Experiments are the registered in-process experiments: benchy's
	// built-ins, or a user program's own.
	Experiments []inproc.Workload
}

// Live reports whether the machine read is this one (not a fixture tree),
// so live-only facts (affinity, pinning) may be used.
func (g *GlobalOptions) Live() bool {
	return g.Sysroot == "" || g.Sysroot == "/"
}

// Main runs benchy with args over the experiments exps and returns the
// exit code. The public package calls it with the registered experiments.
func Main(args []string, exps []inproc.Workload, stdout, stderr io.Writer) int {
	// The command line recorded in results has its secrets masked: a
	// --store postgres://user:password@… must not reach a result file.
	g := &GlobalOptions{Stdout: stdout, Stderr: stderr, Args: redact.Args(append([]string{"benchy"}, args...)), Experiments: exps}
	root := newRootCmd(g)
	if i := slices.Index(args, "exec"); i >= 0 {
		args = append(slices.Clone(args[:i+1]), expandExecArgs(args[i+1:])...)
	}
	// cobra refuses a command line (a wrong number
	// of arguments) with errors of no type, before any command runs: an
	// error returned before the root's PersistentPreRunE, cobra's own or
	// a command's Args check, is bad usage. (Flag errors are typed by
	// SetFlagErrorFunc.)
	started := false
	pre := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		started = true
		return pre(cmd, args)
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// cobra adds its completion command as it executes; add it now (after
	// SetOut: its scripts are written where stdout was then) so that
	// refuseUnknownSubcommands reaches it too.
	root.InitDefaultCompletionCmd(args...)
	refuseUnknownSubcommands(root)
	err := root.Execute()
	if err != nil && !started {
		err = &UsageError{Msg: err.Error()}
	}
	if err != nil {
		// Printable: an error names files and values from outside
		// (a file name holding an escape sequence, a load error
		// quoting it), and a terminal must not act on them.
		fmt.Fprintf(stderr, "benchy: %s\n", result.Printable(OneLine(err.Error())))
	}
	return ExitCode(err)
}

// OneLine puts an error's message on one line for a one-line complaint.
// Unlike units.OneLine, which folds all white space into single spaces,
// it joins lines with "; ": an error of several lines is several errors
// (errors.Join, a store's or a parser's list), and "; " keeps them apart
// where a space would run them into one sentence.
func OneLine(s string) string {
	var lines []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; ")
}

// newRootCmd makes benchy's command line over every registered command.
func newRootCmd(g *GlobalOptions) *cobra.Command {
	var cmds []*cobra.Command
	for _, add := range slices.Concat(commands, toolCommands) {
		cmds = append(cmds, add(g))
	}
	return newRoot(g, cmds...)
}

// verboseAnnotation marks a command that takes -v (OutputOptions.Bind
// sets it): the others refuse it rather than ignore it.
const verboseAnnotation = "benchy-verbose"

// newRoot makes the root command over cmds: tests give it commands whose
// run function they replaced, to read what a command line became.
func newRoot(g *GlobalOptions, cmds ...*cobra.Command) *cobra.Command {
	var verboseCmds []string // the commands that take -v
	root := &cobra.Command{
		Use:   "benchy",
		Short: "Benchmarks you can believe: pinned, sampled, checked",
		Long: `benchy measures Go code pinned to one CPU, records the state of the
machine next to every number, reports the distribution of many samples,
and says which numbers to believe and why.`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("sysroot") {
				if env := os.Getenv("BENCHY_SYSROOT"); env != "" {
					g.Sysroot = env
				}
			}
			if fi, err := os.Stat(g.Sysroot); err != nil || !fi.IsDir() {
				return Usagef("--sysroot %q is not a directory", g.Sysroot)
			}
			if g.Verbose && cmd.Annotations[verboseAnnotation] == "" {
				return Usagef("-v/--verbose: %s has nothing more to show; -v is for %s", cmd.Name(), strings.Join(verboseCmds, ", "))
			}
			return nil
		},
	}
	// --version without cobra's -v shorthand: -v is --verbose in every
	// command that writes a result, and must not mean two things.
	root.Flags().Bool("version", false, "print benchy's version")
	root.SetVersionTemplate(versionLine() + "\n")
	root.PersistentFlags().StringVar(&g.Sysroot, "sysroot", "/", "read /proc and /sys under `DIR` (env BENCHY_SYSROOT)")
	// -v's usage names the commands that take it, once they are added.
	root.PersistentFlags().BoolVarP(&g.Verbose, "verbose", "v", false, "")
	// Flag errors are usage errors: exit 2 with one line.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &UsageError{Msg: err.Error()}
	})
	root.CompletionOptions.HiddenDefaultCmd = false
	wrapFlagHelp(root)
	root.AddCommand(cmds...)
	for _, c := range root.Commands() {
		if c.Annotations[verboseAnnotation] != "" {
			verboseCmds = append(verboseCmds, c.Name())
		}
	}
	root.PersistentFlags().Lookup("verbose").Usage = "text output of " + strings.Join(verboseCmds, ", ") +
		": everything (machine facts, counters, every finding), not one screen"
	return root
}

// wrapFlagHelp makes --help wrap each flag's text to the terminal's width
// (80 columns when it is not one): pflag writes every flag on one line,
// and half of run's lines were wider than 80.
func wrapFlagHelp(root *cobra.Command) {
	cobra.AddTemplateFunc("wrappedFlagUsages", func(fs *pflag.FlagSet) string {
		cols := TerminalWidth(root.OutOrStdout())
		if cols <= 0 {
			cols = 80
		}
		return fs.FlagUsagesWrapped(cols - 1)
	})
	t := root.UsageTemplate()
	// A command that groups others runs only to print its help
	// (refuseUnknownSubcommands): its usage is its commands, not a line
	// of its own.
	t = strings.Replace(t, "Usage:{{if .Runnable}}", "Usage:{{if and .Runnable (not .HasAvailableSubCommands)}}", 1)
	t = strings.ReplaceAll(t, ".LocalFlags.FlagUsages", "wrappedFlagUsages .LocalFlags")
	t = strings.ReplaceAll(t, ".InheritedFlags.FlagUsages", "wrappedFlagUsages .InheritedFlags")
	root.SetUsageTemplate(t)
}

// refuseUnknownSubcommands makes cmd and every command below it that
// only groups others (the root, history, completion) refuse an argument
// that names none of its commands, as bad usage. Below the root, cobra
// prints such a command's help and exits 0, so a typo (`benchy history
// chek`) passed for success in a script. A group given no argument still
// prints its help.
func refuseUnknownSubcommands(cmd *cobra.Command) {
	if cmd.HasSubCommands() && !cmd.Runnable() {
		cmd.Args = noUnknownSubcommand
		cmd.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	for _, c := range cmd.Commands() {
		refuseUnknownSubcommands(c)
	}
}

// noUnknownSubcommand is the Args check of a command that groups others:
// an argument is a command it does not have.
func noUnknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	hint := ""
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's default, which it sets only for its own message
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		hint = "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return Usagef("unknown command %q for %q%s (its commands: %s)", args[0], cmd.CommandPath(), hint, strings.Join(names, ", "))
}

// versionLine is what `benchy version` and `benchy --version` print.
func versionLine() string {
	return fmt.Sprintf("benchy %s (%s %s/%s)", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func init() { commands = append(commands, newVersionCmd) }

func newVersionCmd(g *GlobalOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print benchy's version",
		Example: "  benchy version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		},
	}
}

// commands holds the constructors of the subcommands every program has;
// each command's file registers itself in init, so adding a command
// touches one file. toolCommands are benchy's own (AddCommands).
var commands, toolCommands []func(*GlobalOptions) *cobra.Command

// AddCommands adds commands to the command line Main makes: cmd/benchy
// adds benchy's own (gotest, bisect, history, package toolcmd), which a
// program built on the public package does not import, so it neither
// compiles nor links them.
func AddCommands(cmds ...func(*GlobalOptions) *cobra.Command) {
	toolCommands = append(toolCommands, cmds...)
}
