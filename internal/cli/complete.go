package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/asm"
)

// completionFunc is what cobra calls to complete a flag's value or an
// argument (the shell's TAB, through `benchy __complete`).
type completionFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// completeExperiments offers the registered experiments' names that start
// with what is typed: run --bench and asm's argument. The names are the
// program's own (benchy's built-ins, or a user program's), so completion
// is as fast as a lookup.
func completeExperiments(g *GlobalOptions) completionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return withPrefix(registeredNames(g), toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeCompare completes the item after the last comma of --compare
// A,B[,C...]: the earlier items are kept as typed, the names already
// given are not offered again, and no space follows the first item (a
// comparison needs a second).
func completeCompare(g *GlobalOptions) completionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		i := strings.LastIndex(toComplete, ",")
		given, typed := toComplete[:i+1], toComplete[i+1:]
		taken := strings.Split(strings.TrimSuffix(given, ","), ",")
		var out []string
		for _, name := range withPrefix(registeredNames(g), typed) {
			if !slices.Contains(taken, name) {
				out = append(out, given+name)
			}
		}
		directive := cobra.ShellCompDirectiveNoFileComp
		if given == "" {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return out, directive
	}
}

// completeAsm completes asm's one argument: an experiment, or with
// --binary a benchmark of that program (read from its symbol table).
func completeAsm(g *GlobalOptions, opts *asmOptions) completionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		if opts.Binary == "" {
			return completeExperiments(g)(cmd, args, toComplete)
		}
		all, err := asm.FuncNames(opts.Binary, "")
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		return withPrefix(binaryBenchmarks(all), toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// binaryBenchmarks is the names benchy asm --binary takes for the
// benchmark functions among a program's functions: BenchmarkX, or the full
// name where two packages both have a BenchmarkX.
func binaryBenchmarks(funcs []string) []string {
	byShort := map[string][]string{}
	for _, f := range funcs {
		last := f[strings.LastIndex(f, "/")+1:]
		_, fn, ok := strings.Cut(last, ".")
		if ok && isBenchmarkFunc(fn) {
			byShort[fn] = append(byShort[fn], f)
		}
	}
	var out []string
	for short, full := range byShort {
		if len(full) == 1 {
			out = append(out, short)
		} else {
			out = append(out, full...)
		}
	}
	slices.Sort(out)
	return out
}

// isBenchmarkFunc reports whether fn (a function's name after its
// package) is a benchmark: BenchmarkX, not a method nor a closure in one.
func isBenchmarkFunc(fn string) bool {
	return strings.HasPrefix(fn, "Benchmark") && !strings.ContainsAny(fn, ".()")
}

func registeredNames(g *GlobalOptions) []string {
	names := make([]string, len(g.Experiments))
	for i, w := range g.Experiments {
		names[i] = w.Name
	}
	return names
}

// withPrefix is the names that start with prefix, in their order.
func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}
