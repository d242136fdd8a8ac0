package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/report"
	"github.com/benchy-dev/benchy/internal/result"
)

// maxRunProcesses bounds run --processes.
const maxRunProcesses = 100

// runProcesses is run --processes K: benchy runs itself K times, one
// process after another on the same CPU, and merges their samples into
// one result, each sample marked with its process. Each process has its
// own heap, code layout and warm-up, so the variation between them is
// seen (Kalibera & Jones: the variance of a benchmark lives at several
// levels), and the series of every process is classified on its own.
func runProcesses(o *runOptions, stdout io.Writer, w *watcher) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("--processes: cannot find benchy's own executable: %w", err)
	}
	tmp, err := os.MkdirTemp("", "benchy-processes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if w != nil {
		w.onExit(func() { os.RemoveAll(tmp) })
	}
	flags, rest := childArgs(o.g.Args[1:])
	var results []*report.Result
	cpu := -1 // the first process's, passed to the others (with --cpu, theirs is the user's)
	for k := range o.Processes {
		if w != nil && w.Signal() != nil {
			break
		}
		out := filepath.Join(tmp, strconv.Itoa(k)+".json")
		args := append(append([]string(nil), flags...), "--format", "json", "--out", out)
		if cpu >= 0 && !o.CPUSet {
			args = append(args, "--cpu", strconv.Itoa(cpu)) // the same CPU as the first
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "\rbenchy: process %d of %d\x1b[K", k+1, o.Processes)
		}
		cmd := exec.Command(self, append(args, rest...)...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		runErr := cmd.Run()
		r, err := report.Load(out)
		if err != nil {
			return fmt.Errorf("process %d of %d: %v: %s", k+1, o.Processes, orErr(runErr, err), lastLine(stderr.String()))
		}
		results = append(results, r)
		cpu = r.CPU
		if r.Interrupted {
			break
		}
	}
	if o.Progress != nil {
		fmt.Fprint(o.Progress, "\r\x1b[K")
	}
	if len(results) == 0 {
		return &ExitError{Code: signalExit(w.Signal()), Msg: signalName(w.Signal()) + " before anything was measured: no result"}
	}
	r := mergeProcesses(results)
	r.Command = o.g.Args
	report.Analyze(r)
	if err := o.write(r, stdout, o.g.Stderr); err != nil {
		return err
	}
	return runExit(r, o.Strict)
}

// childArgs are the arguments of one process of run --processes: the
// user's flags, without what only the merged result is for (where and how
// it is written, --strict) and without --processes itself; and apart, from
// a "--" on, what follows the flags, which goes last, after the flags
// benchy adds.
func childArgs(args []string) (flags, rest []string) {
	valued := map[string]bool{"--processes": true, "--out": true, "-o": true, "--format": true,
		"--samples-file": true, "--html": true}
	dropped := map[string]bool{"-v": true, "--verbose": true, "--ascii": true, "--force": true, "--strict": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			return flags, args[i:]
		case valued[name] && !hasValue:
			i++ // and its value
		case valued[name], dropped[name]:
			if name == "--strict" && !hasValue && i+1 < len(args) && isStrictLevel(args[i+1]) {
				i++
			}
		default:
			flags = append(flags, a)
		}
	}
	return flags, nil
}

// mergeProcesses makes one result of the processes' results: the first's
// machine, settings and experiments, every experiment with the samples of
// all of them in order, each marked with its process; the machine after
// the run is the last process's.
func mergeProcesses(rs []*report.Result) *report.Result {
	m := *rs[0]
	m.Experiments = make([]report.Experiment, len(rs[0].Experiments))
	for i, e := range rs[0].Experiments {
		e.Samples = append([]result.Sample(nil), e.Samples...)
		m.Experiments[i] = e
	}
	for k, r := range rs[1:] {
		for _, e := range r.Experiments {
			for i := range m.Experiments {
				x := &m.Experiments[i]
				if x.Name != e.Name {
					continue
				}
				for _, s := range e.Samples {
					s.Process = k + 1
					x.Samples = append(x.Samples, s)
				}
				if x.Error == "" && e.Error != "" {
					x.Error = fmt.Sprintf("process %d: %s", k+2, e.Error)
				}
			}
		}
		m.Interrupted = m.Interrupted || r.Interrupted
	}
	last := rs[len(rs)-1]
	m.After, m.BusyDuring = last.After, last.BusyDuring
	return &m
}

func orErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
