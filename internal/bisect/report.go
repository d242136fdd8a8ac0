package bisect

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
)

// Commit is a commit as a person quotes it.
type Commit struct {
	Hash       string    `json:"commit"`
	Subject    string    `json:"subject"`
	AuthorDate time.Time `json:"author_date"`
}

// Short is the commit's hash as people read it (history's).
func (c Commit) Short() string { return history.Short(c.Hash) }

// Report is what a bisection came to, as every format writes it: GOOD
// and the commits after it up to BAD, and for each benchmark followed its
// steps and answer. Runs counts the interleaved measurements made, each
// of one commit for every benchmark that needed it. Interrupted says a
// stop ended it early: the steps are those done before it.
type Report struct {
	Good        Commit      `json:"good"`
	Commits     []Commit    `json:"commits"`
	Benchmarks  []Benchmark `json:"benchmarks"`
	Runs        int         `json:"runs"`
	Threshold   float64     `json:"threshold"`
	Interrupted bool        `json:"interrupted,omitempty"`
}

// Benchmark is the walk of one benchmark: every step measured for it,
// and its answer.
type Benchmark struct {
	Name   string `json:"benchmark"`
	Steps  []Step `json:"steps"`
	Answer Answer `json:"answer"`
}

// Worst is the verdict the exit follows over the benchmarks: Found when
// any found a slowdown, else CannotJudge when any could not judge (or did
// not finish), else NoSlowdown.
func (r *Report) Worst() Verdict {
	v := NoSlowdown
	for _, b := range r.Benchmarks {
		switch b.Answer.Verdict {
		case Found:
			return Found
		case CannotJudge, NotFinished:
			v = CannotJudge
		}
	}
	return v
}

// MarshalText writes the side as a word ("fast"), for JSON.
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (s *Side) UnmarshalText(b []byte) error { return fromWord(s, b, Between) }

// MarshalText writes the verdict as a word ("found"), for JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (v *Verdict) UnmarshalText(b []byte) error { return fromWord(v, b, Found) }

// fromWord sets *x to the value of 0..last whose String is word.
func fromWord[T interface {
	~int
	String() string
}](x *T, word []byte, last T) error {
	for v := T(0); v <= last; v++ {
		if v.String() == string(word) {
			*x = v
			return nil
		}
	}
	return fmt.Errorf("unknown %T %q", *x, word)
}

func (v Verdict) String() string {
	return [...]string{"not finished", "no slowdown", "cannot judge", "found"}[v]
}

// MarshalJSON writes the answer with its commits as indexes into the
// report's Commits, -1 where none, and empty lists as [].
func (a Answer) MarshalJSON() ([]byte, error) {
	type plain Answer
	p := plain(a)
	if p.Skipped == nil {
		p.Skipped = []int{}
	}
	if p.Undecided == nil {
		p.Undecided = []int{}
	}
	return json.Marshal(p)
}
