package machine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// UnknownPrefix starts the JSON and text form of a fact that could not be read.
const UnknownPrefix = "unknown: "

// NotRecorded is the reason of a fact that a file written by an older
// benchy, which did not read it, lacks.
const NotRecorded = "not recorded (written by an older benchy)"

// Fact is one value read from the machine, or the reason it could not be
// read. A fact that cannot be read must never look like a value (0, "",
// false), so it carries its reason instead.
//
// In JSON a known fact is its plain value ("powersave", 4700000, true,
// "0-7"); an unknown fact is the string "unknown: <reason>".
type Fact[T any] struct {
	Value T
	// Reason is why the value is unknown; empty when the value is known.
	Reason string
}

// Known makes a fact that holds v.
func Known[T any](v T) Fact[T] { return Fact[T]{Value: v} }

// Unknown makes a fact that could not be read, with the reason.
func Unknown[T any](format string, args ...any) Fact[T] {
	r := fmt.Sprintf(format, args...)
	if r == "" {
		r = "not read"
	}
	return Fact[T]{Reason: r}
}

// Known reports whether the fact holds a value.
func (f Fact[T]) Known() bool { return f.Reason == "" }

// Get returns the value and whether it is known.
func (f Fact[T]) Get() (T, bool) { return f.Value, f.Reason == "" }

// String is the value, or "unknown: <reason>".
func (f Fact[T]) String() string {
	if !f.Known() {
		return UnknownPrefix + f.Reason
	}
	return fmt.Sprint(f.Value)
}

// MarshalJSON writes the value, or the string "unknown: <reason>".
func (f Fact[T]) MarshalJSON() ([]byte, error) {
	if !f.Known() {
		return json.Marshal(UnknownPrefix + f.Reason)
	}
	return json.Marshal(f.Value)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (f *Fact[T]) UnmarshalJSON(b []byte) error {
	var s string
	if bytes.HasPrefix(b, []byte(`"`)) && json.Unmarshal(b, &s) == nil && strings.HasPrefix(s, UnknownPrefix) {
		*f = Fact[T]{Reason: strings.TrimPrefix(s, UnknownPrefix)}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Fact[T]{Value: v}
	return nil
}
