package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
)

// progress draws one status line on a terminal, rewritten in place.
type progress struct {
	w       io.Writer
	start   time.Time
	perWork time.Duration // rough time one experiment takes
	total   int
	drawn   bool
}

func newProgress(w io.Writer, experiments int, o *runOptions) *progress {
	// Warm-up, ~5 calibration runs and the samples, each at least the
	// sample time: a rough guess, good enough for "time left".
	per := o.Warmup + time.Duration(o.Samples+5)*o.SampleTime
	return &progress{w: w, start: time.Now(), perWork: per, total: experiments}
}

func (p *progress) update(u harness.Progress) {
	var what string
	switch u.Phase {
	case "sampling":
		what = fmt.Sprintf("sample %d of %d", u.Sample+1, u.Samples)
	default:
		what = u.Phase
	}
	// Estimate from the fraction done once there is some; before that,
	// from the settings.
	elapsed := time.Since(p.start)
	done := (float64(u.Index) + float64(u.Sample)/float64(max(u.Samples, 1))) / float64(max(u.Total, 1))
	left := time.Duration(p.total)*p.perWork - elapsed
	if done > 0.05 {
		left = time.Duration(float64(elapsed) * (1 - done) / done)
	}
	left = max(left, 0)
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %s: %s, about %s left", u.Index+1, u.Total, u.Workload, what, left.Round(time.Second))
	p.drawn = true
}

// clear removes the status line so the result starts on a clean line.
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
