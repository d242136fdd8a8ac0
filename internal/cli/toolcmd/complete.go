package toolcmd

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// gotestListTimeout bounds the go list behind gotest --bench's
// completion: a shell waits for it.
const gotestListTimeout = 2 * time.Second

// completeGotestBench offers the benchmarks the packages given so far (or
// ., resolved in -C DIR) declare, without "Benchmark" in front as benchy
// names them (the --bench pattern matches them so, as go test's does);
// with "Benchmark" typed, the full names. Nothing is built: the names come
// from the test files' source.
func completeGotestBench(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	dir, _ := cmd.Flags().GetString("dir")
	if dash := cmd.ArgsLenAtDash(); dash >= 0 && dash <= len(args) {
		args = args[:dash]
	}
	ctx, cancel := context.WithTimeout(context.Background(), gotestListTimeout)
	defer cancel()
	names, err := gotest.BenchmarkNames(ctx, dir, args)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	full := strings.HasPrefix(toComplete, "Benchmark")
	var out []string
	for _, n := range names {
		if full {
			n = "Benchmark" + n
		}
		if n != "" && strings.HasPrefix(n, toComplete) {
			out = append(out, n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
