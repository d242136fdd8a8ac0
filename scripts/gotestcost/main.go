// Command gotestcost runs benchy gotest and the user's pinned go test side
// by side on the same benchmarks, alternating the tools, and prints what
// each cost (wall time) and read (the median of its samples): the cost of
// benchy's process fan-out and pinning against go test's, and how much
// the median moves between separate runs of each tool.
//
// Run it from the top of the repository, on a machine as quiet as can be:
//
//	go build -o bin/benchy ./cmd/benchy
//	go run ./scripts/gotestcost -bin new=bin/benchy -rounds 5 \
//		sort:'^BenchmarkSortInt1K$' encoding/json:'^BenchmarkUnicodeDecoder$' \
//		strconv:'^BenchmarkQuote$' strings:'^BenchmarkSplitSingleByteSeparator$'
//
// Several -bin NAME=PATH (comma-separated) run several benchy binaries in
// the same rounds, e.g. before and after a change. go test runs as
// `taskset -c CPU go test PKG -run '^$' -bench RE -count SAMPLES
// -benchtime SAMPLE_TIME`: the same samples of the same length as benchy's
// defaults. Each round runs every tool once per benchmark, the order
// reversed every other round; the load average is read before every run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/stats"
)

type tool struct{ name, path string } // path "" is go test

type run struct {
	bench, tool   string
	round         int
	wall          time.Duration
	median, onCPU float64 // ns/op; onCPU 0 when not measured
	load          float64
	gomaxprocs    int
	samples       int
	verdict       string
}

func main() {
	bins := flag.String("bin", "bin/benchy", "benchy binaries to run, NAME=PATH or PATH, comma-separated")
	rounds := flag.Int("rounds", 1, "runs of every tool on every benchmark")
	cpu := flag.Int("cpu", 1, "the CPU both tools are pinned to")
	samples := flag.Int("samples", 30, "samples of each run (go test -count)")
	sampleTime := flag.Duration("sample-time", 100*time.Millisecond, "each sample's time (go test -benchtime)")
	processes := flag.Int("processes", 3, "benchy's --processes")
	out := flag.String("out", "", "directory for the result files (default: a temporary one)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gotestcost [flags] PKG:REGEXP...")
		os.Exit(2)
	}
	tools := []tool{{name: "go test"}}
	for _, b := range strings.Split(*bins, ",") {
		name, path, ok := strings.Cut(b, "=")
		if !ok {
			name, path = "benchy", b
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			fail(err)
		}
		tools = append(tools, tool{name, abs})
	}
	dir := *out
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "gotestcost-"); err != nil {
			fail(err)
		}
	}
	var runs []run
	for r := range *rounds {
		for _, arg := range flag.Args() {
			pkg, re, ok := strings.Cut(arg, ":")
			if !ok {
				fail(fmt.Errorf("%q: want PKG:REGEXP", arg))
			}
			order := slices.Clone(tools)
			if r%2 == 1 {
				slices.Reverse(order)
			}
			for _, t := range order {
				x := run{bench: arg, tool: t.name, round: r + 1, load: load()}
				var err error
				if t.path == "" {
					err = goTest(&x, pkg, re, *cpu, *samples, *sampleTime)
				} else {
					file := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.json", sanitize(t.name), r+1, sanitize(arg)))
					err = benchy(&x, t.path, file, pkg, re, *cpu, *samples, *sampleTime, *processes)
				}
				if err != nil {
					fail(fmt.Errorf("%s %s: %w", t.name, arg, err))
				}
				fmt.Printf("round %d  %-8s %-45s wall %6.1fs  median %9.4g ns/op  on-CPU %9.4g  load %.2f  GOMAXPROCS %d  %s\n",
					x.round, x.tool, x.bench, x.wall.Seconds(), x.median, x.onCPU, x.load, x.gomaxprocs, x.verdict)
				runs = append(runs, x)
			}
		}
	}
	fmt.Printf("\nresults in %s\n\n", dir)
	summary(runs, flag.Args(), tools)
}

// goTest runs the user's pinned go test and takes the median of its
// ns/op lines.
func goTest(x *run, pkg, re string, cpu, samples int, sampleTime time.Duration) error {
	cmd := exec.Command("taskset", "-c", strconv.Itoa(cpu), "go", "test", pkg, "-run", "^$", "-bench", re,
		"-count", strconv.Itoa(samples), "-benchtime", sampleTime.String())
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return err
	}
	x.wall = time.Since(start)
	var ns []float64
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		for i := 1; i < len(f); i++ {
			if f[i] == "ns/op" && strings.HasPrefix(f[0], "Benchmark") {
				v, err := strconv.ParseFloat(f[i-1], 64)
				if err == nil {
					ns = append(ns, v)
				}
				if x.gomaxprocs == 0 {
					x.gomaxprocs = 1
					if k := strings.LastIndex(f[0], "-"); k > 0 {
						if n, err := strconv.Atoi(f[0][k+1:]); err == nil {
							x.gomaxprocs = n
						}
					}
				}
			}
		}
	}
	x.samples, x.median = len(ns), stats.Median(ns)
	return nil
}

// benchy runs benchy gotest with the same settings and reads its result.
func benchy(x *run, bin, file, pkg, re string, cpu, samples int, sampleTime time.Duration, processes int) error {
	cmd := exec.Command(bin, "gotest", pkg, "--bench", re, "--cpu", strconv.Itoa(cpu), "--samples", strconv.Itoa(samples),
		"--sample-time", sampleTime.String(), "--processes", strconv.Itoa(processes), "--out", file, "--force")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) { // a verdict's exit code still wrote the file
			return err
		}
	}
	x.wall = time.Since(start)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var r struct {
		GOMAXPROCS  int `json:"gomaxprocs"`
		Experiments []struct {
			GOMAXPROCS int `json:"gomaxprocs"`
			Samples    []json.RawMessage
			Stats      struct {
				Median      float64 `json:"median"`
				OnCPUMedian float64 `json:"on_cpu_median"`
			} `json:"stats"`
			Verdict string   `json:"verdict"`
			Reasons []string `json:"reasons"`
		} `json:"experiments"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	if len(r.Experiments) != 1 {
		return fmt.Errorf("%s: %d experiments, want 1", file, len(r.Experiments))
	}
	e := r.Experiments[0]
	x.median, x.onCPU, x.samples = e.Stats.Median, e.Stats.OnCPUMedian, len(e.Samples)
	x.gomaxprocs = r.GOMAXPROCS
	if e.GOMAXPROCS > 0 {
		x.gomaxprocs = e.GOMAXPROCS
	}
	x.verdict = e.Verdict
	if len(e.Reasons) > 0 {
		x.verdict += ": " + strings.Join(e.Reasons, ",")
	}
	return nil
}

// summary prints, per benchmark and tool, the wall times, the median of
// the runs' medians, and the spread of the runs' medians: max/min-1 and
// the coefficient of variation, on wall time and (benchy) on-CPU time.
func summary(runs []run, benches []string, tools []tool) {
	fmt.Printf("%-45s %-8s %5s %13s %10s %7s %6s %10s %7s %6s %6s\n",
		"benchmark", "tool", "runs", "wall s", "median", "spread", "cv", "on-CPU", "spread", "cv", "load")
	for _, b := range benches {
		for _, t := range tools {
			var walls, meds, cpus, loads []float64
			for _, x := range runs {
				if x.bench == b && x.tool == t.name {
					walls, meds, loads = append(walls, x.wall.Seconds()), append(meds, x.median), append(loads, x.load)
					if x.onCPU > 0 {
						cpus = append(cpus, x.onCPU)
					}
				}
			}
			line := fmt.Sprintf("%-45s %-8s %5d %6.1f-%-6.1f %10.4g %6.1f%% %5.1f%%", b, t.name, len(walls),
				slices.Min(walls), slices.Max(walls), stats.Median(meds), 100*spread(meds), 100*cv(meds))
			if len(cpus) == len(meds) {
				line += fmt.Sprintf(" %10.4g %6.1f%% %5.1f%%", stats.Median(cpus), 100*spread(cpus), 100*cv(cpus))
			} else {
				line += fmt.Sprintf(" %10s %7s %6s", "-", "-", "-")
			}
			fmt.Printf("%s %6.2f\n", line, stats.Median(loads))
		}
	}
}

func spread(xs []float64) float64 { return slices.Max(xs)/slices.Min(xs) - 1 }

func cv(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m, v := stats.MeanVar(xs)
	return math.Sqrt(v) / m
}

func load() float64 {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return math.NaN()
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gotestcost:", err)
	os.Exit(1)
}
