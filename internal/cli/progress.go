package cli

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/units"
)

// Progress draws one status line on a terminal, rewritten in place: what
// is being done and about how long is left. It is never wider than the
// terminal (a wrapped line cannot be rewritten), and it is cleared before
// anything else is printed.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	width   int // of the terminal; 0 when unknown (80 is assumed)
	start   time.Time
	perWork time.Duration // rough time one experiment takes, from the settings
	window  time.Duration // the busy window read before measuring
	total   int
	left    time.Duration // smoothed estimate of the time left
	drawn   bool
}

// Estimate is what a command tells the progress line of how long each
// target may take: its warm-up, samples and their least length, and the
// busy window read first.
type Estimate struct {
	Warmup, SampleTime, Window time.Duration
	Samples                    int
}

// NewProgress starts a progress line on w for experiments targets of
// about e each.
func NewProgress(w io.Writer, experiments int, e Estimate) *Progress {
	// Warm-up, ~5 calibration runs and the samples, each at least the
	// sample time, plus the probes around it: a rough guess, good enough
	// for "time left" until there is progress to go by.
	per := e.Warmup + time.Duration(e.Samples+5)*e.SampleTime + 20*time.Millisecond
	return &Progress{w: w, width: TerminalWidth(w), start: time.Now(), perWork: per, window: e.Window, total: experiments}
}

// smoothing is the weight of a new estimate of the time left: estimates
// from the fraction done jump with every phase; a moving average of them
// reads steadily and still follows a run that is slower than planned.
const smoothing = 0.2

func (p *Progress) Update(u pipeline.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start)
	var line string
	switch u.Phase {
	case "reading the machine":
		line = fmt.Sprintf("reading the machine (%v), then %s", p.window, units.Count(p.total, "experiment"))
	case "process": // run --processes: one process after another
		line = fmt.Sprintf("benchy: process %d of %d", u.Index+1, u.Total)
	default:
		what := u.Phase
		if u.Phase == "sampling" {
			what = fmt.Sprintf("sample %d of %d", u.Sample+1, u.Samples)
		}
		done := (float64(u.Index) + float64(u.Sample)/float64(max(u.Samples, 1))) / float64(max(u.Total, 1))
		Estimate := time.Duration(p.total)*p.perWork + p.window - elapsed
		if done > 0.05 {
			Estimate = time.Duration(float64(elapsed) * (1 - done) / done)
		}
		if p.left == 0 {
			p.left = Estimate
		} else {
			p.left = time.Duration(smoothing*float64(Estimate) + (1-smoothing)*float64(p.left))
		}
		line = fmt.Sprintf("[%d/%d] %s: %s, about %s left", u.Index+1, u.Total, u.Workload, what, max(p.left, 0).Round(time.Second))
	}
	p.draw(line)
}

// show draws line as the status line, in place of the one before.
func (p *Progress) show(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw(line)
}

// draw is show with p.mu held: the line clipped to the terminal, never
// wrapped.
func (p *Progress) draw(line string) {
	width := p.width
	if width <= 0 {
		width = 80
	}
	if utf8.RuneCountInString(line) > width-1 {
		line = string([]rune(line)[:width-2]) + "…"
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.drawn = true
}

// Clear removes the status line so whatever comes next starts on a clean
// line.
func (p *Progress) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
