package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/benchy-dev/benchy/internal/redact"
	"github.com/benchy-dev/benchy/internal/units"
)

// Load reads the benchy result in the JSON file at path (ReadFile, then
// Unmarshal).
func Load(path string) (*Result, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, err := Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ReadFile reads the benchy document at path: a regular file, or a pipe
// (benchy report /dev/stdin). A device is refused before it is read
// (/dev/zero would be read for a gigabyte), and so is a regular file
// larger than any result. It reads the file once, so a reader that
// dispatches on the document's kind (Unmarshal's KindError) reads a pipe
// too.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory, not a result file", path)
	case fi.Mode().IsRegular() && fi.Size() > MaxFileBytes:
		return nil, fmt.Errorf("%s: %d bytes, more than benchy reads in a result (%s): not a result file, or one too large to read", path, fi.Size(), maxFileSize)
	case !fi.Mode().IsRegular() && fi.Mode()&os.ModeNamedPipe == 0:
		return nil, fmt.Errorf("%s: a device, not a result file (a regular file or a pipe)", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// MaxFileBytes bounds what Decode reads, a limit rather than a streaming
// decoder: a result is analysed whole (every sample of an experiment
// together), so a stream would save only the file's own bytes. Reading
// one takes several times its size in memory: `benchy report` peaked at
// 8x the file (145 MB for 18 MB of compact JSON, 181 MB for 36 MB as benchy
// writes it), `benchy compare` of two such at 12x; a report of a file
// made to cost the most was seen at 30x (issue 38). At 256 MiB that is a few GiB at most, where the
// 1 GiB before let one file take the memory of the machine. It stays
// generous: a sample with its counters takes about 360 bytes as benchy
// writes it, so 256 MiB is 750,000 samples, seven experiments of
// harness.MaxSamples each.
const MaxFileBytes = 256 << 20

// maxFileSize is MaxFileBytes as messages say it.
const maxFileSize = "256 MiB"

// Decode reads a JSON result written by `benchy run`. Its errors are one
// line and say what is wrong: not JSON, truncated, not a benchy result,
// written by a newer benchy, or holding what no run writes (no
// experiments, settings or cpu; a sample with negative iterations or
// time, named by experiment and index).
func Decode(rd io.Reader) (*Result, error) {
	data, err := readAll(rd)
	if err != nil {
		return nil, err
	}
	return Unmarshal(data)
}

// KindComparison is the "kind" of a comparison document (benchy compare
// --format json, gotest --against --format json): the rows, verdicts and
// gate of two sides, without their samples. A result has no "kind".
const KindComparison = "comparison"

// A KindError is a benchy document of another kind than a result: its
// schema is one this benchy reads, and Kind says what it holds.
type KindError struct{ Kind string }

func (e *KindError) Error() string {
	return fmt.Sprintf("a benchy %s, not a result", e.Kind)
}

// Unmarshal reads a JSON result from data, as Decode does. A document of
// another kind (a comparison) is a *KindError.
func Unmarshal(data []byte) (*Result, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("more than benchy reads in a result (%s): not a result file, or one too large to read", maxFileSize)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: not a benchy result")
	}
	if b := bytes.TrimLeft(data, " \t\r\n"); b[0] != '{' {
		// Not an object: say first whether it is JSON at all.
		if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
			return nil, syntaxError(err, len(data))
		}
		return nil, errors.New("not a benchy result: the JSON is not an object")
	}
	// The probe reads only the fields that say what the file is, so the
	// file is not decoded twice, once into a tree of maps: `benchy report`
	// of a 338 MB result peaked at 3.2 GB that way, 1.8 GB this way.
	var p probe
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, syntaxError(err, len(data)) // probe's fields take any value
	}
	var tool string
	var schema float64
	toolOK := json.Unmarshal(p.Tool, &tool) == nil && strings.HasPrefix(tool, "benchy")
	if json.Unmarshal(p.Schema, &schema) != nil || !toolOK {
		return nil, errors.New(`not a benchy result: no "schema" number and "tool": "benchy ..." fields`)
	}
	if schema != float64(int(schema)) || schema < 1 {
		return nil, fmt.Errorf("not a benchy result: schema %v is not a version", schema)
	}
	if int(schema) > SchemaVersion {
		return nil, fmt.Errorf("schema %d is newer than this benchy reads (%d): written by %s, upgrade benchy", int(schema), SchemaVersion, tool)
	}
	if kind := ""; json.Unmarshal(p.Kind, &kind) == nil && kind != "" {
		return nil, &KindError{Kind: kind}
	}
	// A run that ended before its first experiment writes "experiments":
	// null; settings and cpu it always writes with a value.
	for _, f := range []struct {
		name string
		ok   bool
	}{{"experiments", p.Experiments != absent}, {"settings", p.Settings == valued}, {"cpu", p.CPU == valued}} {
		if !f.ok {
			return nil, fmt.Errorf("not a valid benchy result: no %q field", f.name)
		}
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("not a valid benchy result: field %s holds a JSON %s, want %v", te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("not a valid benchy result: %v", units.OneLine(err.Error()))
	}
	if err := checkSamples(&r); err != nil {
		return nil, fmt.Errorf("not a valid benchy result: %w", err)
	}
	if err := checkValues(&r); err != nil {
		return nil, fmt.Errorf("not a valid benchy result: %w", err)
	}
	sanitize(reflect.ValueOf(&r))
	redactCommands(&r)
	return &r, nil
}

// redactCommands masks the PostgreSQL passwords in what r recorded of
// command lines: the one that made it (redact.Args), and each program
// exec ran, whose command line is its experiment's name and description
// and is quoted by its error and findings. A result written before benchy
// masked them may hold one: reading masks it, so a report, a comparison or
// a store's import does not show or write it again. A renamed experiment
// is renamed wherever the result names it, so it still matches. Masking
// is idempotent, so a name masked as the run made it reads unchanged.
func redactCommands(r *Result) {
	r.Command = redact.Args(r.Command)
	renamed := map[string]string{}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if e.Kind != KindProcess {
			continue // a Go benchmark's or a loop's name is no command line
		}
		if name := redact.String(e.Name); name != e.Name {
			renamed[e.Name] = name
			e.Name = name
		}
		e.Description, e.Error = redact.String(e.Description), redact.String(e.Error)
		for j := range e.Findings {
			e.Findings[j].Message = redact.String(e.Findings[j].Message)
		}
	}
	if len(renamed) == 0 {
		return
	}
	rename := func(s *string) {
		if m, ok := renamed[*s]; ok {
			*s = m
		}
	}
	for i := range r.Settings.Compare {
		rename(&r.Settings.Compare[i])
	}
	if r.Cause != nil {
		for i := range r.Cause.Experiments {
			rename(&r.Cause.Experiments[i])
		}
	}
	for i := range r.Comparison {
		p := &r.Comparison[i]
		rename(&p.Base)
		rename(&p.Candidate)
		p.Reason, p.Sentence = redact.String(p.Reason), redact.String(p.Sentence)
	}
}

// readAll reads rd whole, up to MaxFileBytes+1 bytes. When rd knows its
// size (a file, a bytes or strings reader) the buffer is made that large
// at once: io.ReadAll's doubling would allocate twice the file.
func readAll(rd io.Reader) ([]byte, error) {
	var size int64
	switch x := rd.(type) {
	case interface{ Stat() (os.FileInfo, error) }:
		if fi, err := x.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	case interface{ Len() int }:
		size = int64(x.Len())
	}
	var b bytes.Buffer
	b.Grow(int(min(max(size, 0), MaxFileBytes)) + bytes.MinRead)
	_, err := b.ReadFrom(io.LimitReader(rd, MaxFileBytes+1))
	return b.Bytes(), err
}

// probe holds the fields Decode looks at before decoding a whole Result.
type probe struct {
	Schema      json.RawMessage `json:"schema"`
	Tool        json.RawMessage `json:"tool"`
	Kind        json.RawMessage `json:"kind"`
	Experiments present         `json:"experiments"`
	Settings    present         `json:"settings"`
	CPU         present         `json:"cpu"`
}

// present records whether a field is in the JSON, without keeping its
// value.
type present int

const (
	absent present = iota // the key is missing
	null                  // "key": null
	valued                // "key": anything else
)

func (p *present) UnmarshalJSON(b []byte) error {
	*p = valued
	if string(b) == "null" {
		*p = null
	}
	return nil
}

// syntaxError says why data of n bytes is not JSON, in one line.
func syntaxError(err error, n int) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end") {
		return fmt.Errorf("truncated: the JSON ends early after %d bytes", n)
	}
	return fmt.Errorf("not JSON: %v", err)
}

// checkSamples rejects samples no run can produce: a negative count of
// iterations or a negative duration would print as a negative time per op.
func checkSamples(r *Result) error {
	for i, e := range r.Experiments {
		for j, s := range e.Samples {
			if !(s.RefNs >= 0 && s.RefNs <= maxRefNs) { // NaN too
				return fmt.Errorf("experiment %q (experiments[%d]), samples[%d]: ref_ns is %v, outside 0 to %g", e.Name, i, j, s.RefNs, maxRefNs)
			}
			what := ""
			switch {
			case s.Iters < 0:
				what = fmt.Sprintf("iters is %d", s.Iters)
			case s.Ns < 0:
				what = fmt.Sprintf("ns is %d", s.Ns)
			default:
				continue
			}
			return fmt.Errorf("experiment %q (experiments[%d]), samples[%d]: %s, below 0", e.Name, i, j, what)
		}
		if err := checkProbes(e); err != nil {
			return fmt.Errorf("experiment %q (experiments[%d]): %v", e.Name, i, err)
		}
	}
	return nil
}

// Bounds of the probes a run can write: no core runs at 100 GHz, and a
// reference-loop iteration of a millisecond is a stopped thread, not a
// measurement. A value outside would decide findings for the whole run.
const (
	maxProbeHz = 1e11
	maxRefNs   = 1e6
)

// checkProbes rejects probe readings no run can produce.
func checkProbes(e Experiment) error {
	inRange := func(x, hi float64) bool { return x > 0 && x <= hi } // false for NaN too
	if c := e.Clock; c != nil && !(inRange(c.BeforeHz, maxProbeHz) && inRange(c.AfterHz, maxProbeHz)) {
		return fmt.Errorf("clock %v Hz before, %v after: each must be above 0 and at most %g", c.BeforeHz, c.AfterHz, maxProbeHz)
	}
	if r := e.Reference; r != nil && !(inRange(r.BeforeNs, maxRefNs) && inRange(r.AfterNs, maxRefNs)) {
		return fmt.Errorf("reference %v ns before, %v after: each must be above 0 and at most %g", r.BeforeNs, r.AfterNs, maxRefNs)
	}
	return nil
}
