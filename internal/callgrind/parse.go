package callgrind

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Profile is what one callgrind output file says of the whole run: the
// events counted and their totals, the tool that wrote it and the caches
// it simulated. The per-function lines are not read: collection was on
// only inside the measured function, so the totals are its counts.
type Profile struct {
	Creator string   // "callgrind-3.19.0"
	Command string   // the program and its arguments, as callgrind saw them
	Events  []string // "Ir", and with --cache-sim=yes "Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"
	Totals  map[string]int64
	// Caches are the simulated caches ("I1" -> "32768 B, 64 B, 8-way
	// associative"), when --cache-sim=yes: callgrind's model of the CPU it
	// emulates, not the host's caches.
	Caches map[string]string
	// Dumps is how many dumps the end mark wrote (Options.End); 0 for a
	// whole program.
	Dumps int
}

// SyntaxError is a callgrind file that is not what callgrind writes.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("callgrind output line %d: %s", e.Line, e.Msg)
}

// maxLine bounds one line of a callgrind file: function names can be
// long (Go's generic instantiations), but no line of a real file is near
// this.
const maxLine = 1 << 20

// Parse reads a callgrind output file (format version 1). The totals are
// the "summary:" line, or where a file has none, the "totals:" line; a
// file with neither, or without an "events:" line, is an error: nothing
// was counted that can be trusted.
func Parse(r io.Reader) (*Profile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	ps := &parser{p: &Profile{Totals: map[string]int64{}}}
	n := 0
	for sc.Scan() {
		n++
		if err := ps.line(n, sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &SyntaxError{n + 1, err.Error()}
	}
	return ps.end(n)
}

// A parser is what Parse has read so far: the profile's header, and the
// first summary: and totals: lines with where each stood.
type parser struct {
	p                       *Profile
	summary, totals         []string
	summaryLine, totalsLine int
}

// line reads line n of the file. Only "key: value" lines are read; cost
// lines and blank lines are not.
func (ps *parser) line(n int, line string) error {
	key, value, ok := strings.Cut(strings.TrimSpace(line), ":")
	if !ok {
		return nil
	}
	value = strings.TrimSpace(value)
	p := ps.p
	switch key {
	case "version":
		if value != "1" {
			return &SyntaxError{n, fmt.Sprintf("format version %q, only version 1 is known", value)}
		}
	case "creator":
		p.Creator = value
	case "cmd":
		p.Command = value
	case "events":
		if p.Events != nil {
			return nil // a later part repeats the events: the first part's are the file's
		}
		p.Events = strings.Fields(value)
		if len(p.Events) == 0 {
			return &SyntaxError{n, "events: names no event"}
		}
	case "summary":
		if ps.summary == nil {
			ps.summary, ps.summaryLine = strings.Fields(value), n
		}
	case "totals":
		if ps.totals == nil {
			ps.totals, ps.totalsLine = strings.Fields(value), n
		}
	case "desc":
		p.addCache(value)
	}
	return nil
}

// addCache records a "desc: I1 cache: ..." line; other descriptions
// (a time range, a trigger) are not kept.
func (p *Profile) addCache(desc string) {
	name, cfg, ok := strings.Cut(desc, " cache:")
	if !ok || strings.TrimSpace(cfg) == "" {
		return
	}
	if p.Caches == nil {
		p.Caches = map[string]string{}
	}
	p.Caches[strings.TrimSpace(name)] = strings.TrimSpace(cfg)
}

// end checks, after the last line n, that the file named its events and
// their totals, and reads the totals.
func (ps *parser) end(n int) (*Profile, error) {
	p := ps.p
	if p.Events == nil {
		return nil, &SyntaxError{n, "no events: line (not a callgrind output file)"}
	}
	values, at := ps.summary, ps.summaryLine
	if values == nil {
		values, at = ps.totals, ps.totalsLine
	}
	if values == nil {
		return nil, &SyntaxError{n, "no summary: or totals: line (callgrind did not finish writing)"}
	}
	if len(values) > len(p.Events) {
		return nil, &SyntaxError{at, fmt.Sprintf("%d values for %d events", len(values), len(p.Events))}
	}
	// Callgrind leaves out trailing zeros of a cost line.
	for i, ev := range p.Events {
		var v int64
		if i < len(values) {
			x, err := strconv.ParseInt(values[i], 10, 64)
			if err != nil || x < 0 {
				return nil, &SyntaxError{at, fmt.Sprintf("%s: %q is not a count", ev, values[i])}
			}
			v = x
		}
		p.Totals[ev] = v
	}
	return p, nil
}

// Counts are the profile's totals under benchy's names: Ir is
// result.EventInstructions, the cache events keep callgrind's names.
func (p *Profile) Counts() map[string]int64 {
	out := make(map[string]int64, len(p.Totals))
	for k, v := range p.Totals {
		if k == "Ir" {
			k = "instructions"
		}
		out[k] = v
	}
	return out
}
