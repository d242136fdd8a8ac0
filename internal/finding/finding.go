// Package finding is the shared vocabulary of benchy's advice: a finding is
// one reason to doubt (or to note) something about a measurement, with the
// numbers that triggered it.
//
// Advice is data, not a print: the machine checks, the result checks and the
// comparison all return []Finding, and only the writers turn them into text.
package finding

import (
	"fmt"
	"strings"
)

// Severity orders findings by how much they undermine a number.
type Severity int

const (
	// Info is worth knowing but does not make a number doubtful.
	Info Severity = iota
	// Warn makes a number doubtful: it may be right, but the evidence says check.
	Warn
	// Error makes a number not believable: the evidence shows it cannot be right.
	Error
)

var severityNames = [...]string{Info: "info", Warn: "warn", Error: "error"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity is the inverse of String.
func ParseSeverity(name string) (Severity, error) {
	for i, n := range severityNames {
		if n == name {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (valid: %s)", name, strings.Join(severityNames[:], ", "))
}

// MarshalText writes the severity by name so JSON stays readable and stable.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Finding is one piece of advice. Code is stable so scripts can match on it;
// Message is for a person and carries the numbers; Evidence carries the same
// numbers as data.
type Finding struct {
	Code     string         `json:"code"`
	Severity Severity       `json:"severity"`
	Message  string         `json:"message"`
	Evidence map[string]any `json:"evidence,omitempty"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message)
}

// Worst returns the highest severity among fs, and false when fs is empty.
func Worst(fs []Finding) (Severity, bool) {
	if len(fs) == 0 {
		return Info, false
	}
	w := fs[0].Severity
	for _, f := range fs[1:] {
		if f.Severity > w {
			w = f.Severity
		}
	}
	return w, true
}

// Has reports whether fs holds a finding with the given code.
func Has(fs []Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}
