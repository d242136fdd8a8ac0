package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// runProcesses is run --processes K (pipeline.RunProcesses): benchy runs
// itself K times, each process told what to measure by a spec file
// (run --child-spec), and merges their samples. It returns the merged
// result, when there is one, and how the run ended.
func runProcesses(ctx context.Context, plan pipeline.Plan, ws []inproc.Workload, k int, progress io.Writer, est Estimate, w *Watcher) (*result.Result, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--processes: cannot find benchy's own executable: %w", err)
	}
	if progress != nil {
		line := NewProgress(progress, k, est)
		plan.Progress = line.Update
		w.SetBefore(line.Clear)
		defer line.Clear()
	}
	names := make([]string, len(ws))
	for i, wl := range ws {
		names[i] = wl.Name
	}
	r, err := pipeline.RunProcesses(ctx, plan, names, pipeline.Processes{
		K:       k,
		Command: func(spec string) *exec.Cmd { return exec.Command(self, "run", "--child-spec", spec) },
		Signal:  w.Signal,
		OnExit:  w.OnExit,
	})
	var pe *pipeline.ProcessError
	switch {
	case errors.Is(err, context.Canceled):
		s := SignalOf(ctx)
		return nil, &InterruptedError{Signal: s, Msg: SignalName(s) + " before anything was measured: no result"}
	case errors.As(err, &pe) && pe.Kept == 0 && pe.Usage:
		return nil, &UsageError{Msg: pe.Msg} // the process refused what it was given
	case errors.As(err, &pe):
		return r, &FailedError{Msg: pe.Msg}
	}
	return r, err
}

// runChild is one process of run --processes: it measures what the spec
// file says, the experiments found by name among those registered, and
// writes the result where the spec says, as JSON.
func runChild(o *runOptions, w *Watcher) error {
	spec, err := pipeline.ReadChildSpec(o.ChildSpec)
	if err != nil {
		return Usagef("--child-spec: %v", err)
	}
	dest, err := outfile.Check("--out", spec.Out, outfile.Options{})
	if err != nil {
		return err
	}
	ws := make([]inproc.Workload, len(spec.Experiments))
	for i, name := range spec.Experiments {
		wl, ok := lookup(o.g.Experiments, name)
		if i := strings.LastIndex(name, "#"); !ok && i > 0 {
			wl, ok = lookup(o.g.Experiments, name[:i]) // the second copy of an A/A run
		}
		if !ok {
			return Usagef("--child-spec: no experiment %q", name)
		}
		wl.Name = name
		ws[i] = wl
	}
	plan := spec.Plan
	r, err := runPlan(o.Ctx, plan, inprocTargets(ws, plan, nil), nil, nil, Estimate{}, w)
	if err != nil {
		return err
	}
	_, err = dest.WriteOrKeep(func(out io.Writer) error { return render.Write(out, r, "json") })
	return err
}
