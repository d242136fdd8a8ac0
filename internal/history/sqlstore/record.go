package sqlstore

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Record is one result as the store keeps it: the whole result, what it
// measured (Source), where (Machine), when, and a Point per experiment and
// basis it can be judged on.
type Record struct {
	// Hash is the SHA-256 of the result's JSON as Encode writes it after
	// a round trip through Decode: the same result has one hash however
	// it was formatted, copied or imported.
	Hash     string
	Machine  Machine
	Source   history.Source
	Measured time.Time // when the result was measured (its start), or --time
	Tool     string
	Package  string
	Settings []byte // the result's settings, JSON
	Body     []byte // the whole result, gzipped JSON
	Points   []history.Point
}

// maxPerOp bounds a point's value. From 2^53 up float64 no longer holds
// consecutive integers, so neither a median nor a chart's axis can tell
// values apart; and no op a run measures is that long (2^53 ns is 104
// days) or counts that much (2^53 cycles is a day at 100 GHz).
const maxPerOp = 1 << 53

// checkPoint refuses a point no run can produce: a value that is not above 0
// and below maxPerOp (NaN, ±Inf, 0 included), or an interval that does
// not hold its median.
func checkPoint(p history.Point) error {
	for _, v := range []float64{p.Median, p.Lo, p.Hi} {
		if !(v > 0 && v < maxPerOp) {
			return fmt.Errorf("%q (%s): a value of %g per op, which no run measures (each must be above 0 and below 2^53)", p.Benchmark, p.Basis, v)
		}
	}
	if !(p.Lo <= p.Median && p.Median <= p.Hi) {
		return fmt.Errorf("%q (%s): median %g outside its interval [%g, %g]", p.Benchmark, p.Basis, p.Median, p.Lo, p.Hi)
	}
	return nil
}

// NewRecord makes the record of r: its hash and body from the canonical
// JSON, the machine identity from its snapshot, a point per experiment
// that has samples and no error, on every basis the samples allow.
func NewRecord(r *result.Result, src history.Source, measured time.Time) (Record, error) {
	if err := checkResult(r, src, measured); err != nil {
		return Record{}, err
	}
	canon, err := canonical(r)
	if err != nil {
		return Record{}, err
	}
	sum := sha256.Sum256(canon)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(canon)
	if err := zw.Close(); err != nil {
		return Record{}, err
	}
	settings, err := json.Marshal(r.Settings)
	if err != nil {
		return Record{}, err
	}
	points := Points(r)
	for _, p := range points {
		if err := checkPoint(p); err != nil {
			return Record{}, err
		}
	}
	if measured.IsZero() {
		measured = r.Start
	}
	return Record{
		Hash: hex.EncodeToString(sum[:]), Machine: Identify(r), Source: src, Measured: measured.UTC(),
		Tool: r.Tool, Package: r.Package, Settings: settings, Body: z.Bytes(), Points: points,
	}, nil
}

// checkResult refuses a result that is no point of its commit's series:
// one interrupted (it measured part of what it was asked, as --store on a
// run refuses it), one that ends before it starts, and times the store
// cannot hold (storable).
func checkResult(r *result.Result, src history.Source, measured time.Time) error {
	if r.Interrupted {
		return errors.New("the run was interrupted: its result measured part of what was asked, and is not the commit's")
	}
	if !r.End.IsZero() && r.End.Before(r.Start) {
		return fmt.Errorf("the result ends (%s) before it starts (%s)", r.End.Format(time.RFC3339), r.Start.Format(time.RFC3339))
	}
	if measured.IsZero() {
		measured = r.Start
	}
	for _, t := range []struct {
		what string
		t    time.Time
	}{{"start", measured}, {"commit time", src.Time}} {
		if !t.t.IsZero() && !storable(t.t) {
			return fmt.Errorf("its %s %s is outside %s, the times a store holds", t.what, t.t.UTC().Format(time.RFC3339), storableRange)
		}
	}
	return nil
}

// canonical is r as Encode writes it after a round trip through Decode,
// which drops what a file cannot carry: a run's result in memory and the
// file it wrote hash alike.
func canonical(r *result.Result) ([]byte, error) {
	var b bytes.Buffer
	if err := result.Encode(&b, r); err != nil {
		return nil, err
	}
	back, err := result.Decode(&b)
	if err != nil {
		return nil, fmt.Errorf("the result does not read back: %v", err)
	}
	b.Reset()
	if err := result.Encode(&b, back); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeBody reads a record's body back into a result.
func DecodeBody(body []byte) (*result.Result, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return result.Decode(io.LimitReader(zr, result.MaxFileBytes+1))
}

// Points are the values of r's experiments on every basis their samples
// allow. An experiment that failed, or has no samples, has none: a
// partial measurement is not a point of a trend.
func Points(r *result.Result) []history.Point {
	var out []history.Point
	for _, e := range r.Experiments {
		if e.Error != "" {
			continue
		}
		codes := codesOf(e)
		for _, basis := range []string{history.BasisTime, history.BasisOnCPU, history.BasisCycles, history.BasisOnCPUCycles, history.BasisInstructions} {
			xs, ok := perOp(e, basis)
			if !ok || len(xs) == 0 {
				continue
			}
			slices.Sort(xs)
			p := history.Point{Benchmark: e.Name, Basis: basis, Median: stats.MedianSorted(xs), N: len(xs), ClockHz: e.ClockHz(), Codes: codes}
			p.Lo, p.Hi = p.Median, p.Median
			if lo, hi, _ := stats.MedianCI(xs, 0.95); lo > 0 && hi >= lo {
				p.Lo, p.Hi = lo, hi
			}
			if p.Median > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// perOp is e's per-op values on basis, false when its samples lack what
// the basis needs.
func perOp(e result.Experiment, basis string) ([]float64, bool) {
	switch basis {
	case history.BasisTime:
		return result.PerOp(e, result.BasisWall)
	case history.BasisOnCPU:
		return result.PerOp(e, result.BasisOnCPU)
	case history.BasisCycles:
		return result.PerOp(e, result.BasisCycles)
	case history.BasisOnCPUCycles:
		return result.PerOp(e, result.BasisOnCPUCycles)
	case history.BasisInstructions:
		var xs []float64
		for _, s := range e.Samples {
			if s.Iters <= 0 {
				continue
			}
			v, ok := s.Counters[result.CounterInstructions]
			if !ok || v <= 0 {
				return nil, false
			}
			xs = append(xs, float64(v)/float64(s.Iters))
		}
		return xs, len(xs) > 0
	}
	return nil, false
}

// codesOf is the codes of e's findings, sorted, comma-separated.
func codesOf(e result.Experiment) string {
	var cs []string
	for _, f := range e.Findings {
		if !slices.Contains(cs, f.Code) {
			cs = append(cs, f.Code)
		}
	}
	slices.Sort(cs)
	return strings.Join(cs, ",")
}
