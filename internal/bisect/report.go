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

// Report is what a bisection came to, as every format writes it: the
// benchmark it followed, GOOD and the commits after it up to BAD, every
// step measured, and the answer. Interrupted says a stop ended it early:
// Steps are those done before it.
type Report struct {
	Benchmark   string   `json:"benchmark"`
	Good        Commit   `json:"good"`
	Commits     []Commit `json:"commits"`
	Steps       []Step   `json:"steps"`
	Answer      Answer   `json:"answer"`
	Threshold   float64  `json:"threshold"`
	Interrupted bool     `json:"interrupted,omitempty"`
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
