// Command stdsweep builds, as benchy gotest builds them (the test files
// rewritten, the helper added through -overlay, and with -profile the
// profiler's files too), the test binary of every standard-library package
// that has a benchmark, and prints those that do not build. go test builds
// them all: so must benchy.
//
//	go run ./scripts/stdsweep            # every package of std
//	go run ./scripts/stdsweep -profile crypto/... strconv
//
// It builds; it measures nothing. On a 2-vCPU machine with a warm build
// cache it takes a few minutes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

func main() {
	profile := flag.Bool("profile", false, "add --profile's files too")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"std"}
	}
	if err := sweep(patterns, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "stdsweep:", err)
		os.Exit(1)
	}
}

func sweep(patterns []string, profile bool) error {
	ch := gotest.NewChildren(nil)
	pkgs, err := gotest.List(ch, ".", patterns, nil)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "stdsweep")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	built, none := 0, 0
	var failed []string
	for _, p := range pkgs {
		_, err := gotest.BuildWith(ch, p, filepath.Join(dir, fmt.Sprint(built+len(failed)+none)), nil, gotest.BuildOptions{Profile: profile})
		var ue *gotest.UsageError
		switch {
		case err == nil:
			built++
		case errors.As(err, &ue) && strings.Contains(ue.Msg, "has no benchmarks"):
			none++
		default:
			failed = append(failed, p.ImportPath)
			msg := err.Error()
			var be *gotest.BuildError
			if errors.As(err, &be) {
				msg += "\n" + string(be.Output)
			}
			fmt.Printf("FAIL %s: %s\n", p.ImportPath, strings.TrimSpace(msg))
		}
	}
	fmt.Printf("%d packages with benchmarks built, %d failed, %d without benchmarks (%s)\n",
		built, len(failed), none, time.Since(start).Round(time.Second))
	if len(failed) > 0 {
		return fmt.Errorf("%d packages do not build: %s", len(failed), strings.Join(failed, " "))
	}
	return nil
}
