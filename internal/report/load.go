package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Load reads the benchy result in the JSON file at path.
func Load(path string) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// maxResultBytes bounds what Decode reads: 100000 samples of a dozen
// experiments with counters stay far below it.
const maxResultBytes = 1 << 30

// Decode reads a JSON result written by `benchy run`. Its errors are one
// line and say what is wrong: not JSON, truncated, not a benchy result, or
// written by a newer benchy.
func Decode(rd io.Reader) (*Result, error) {
	data, err := io.ReadAll(io.LimitReader(rd, maxResultBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResultBytes {
		return nil, fmt.Errorf("larger than %d bytes: not a benchy result", maxResultBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty: not a benchy result")
	}
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end") {
			return nil, fmt.Errorf("truncated: the JSON ends early after %d bytes", len(data))
		}
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	obj, ok := probe.(map[string]any)
	if !ok {
		return nil, errors.New("not a benchy result: the JSON is not an object")
	}
	tool, _ := obj["tool"].(string)
	schema, ok := obj["schema"].(float64)
	if !ok || !strings.HasPrefix(tool, "benchy") {
		return nil, errors.New(`not a benchy result: no "schema" number and "tool": "benchy ..." fields`)
	}
	if schema != float64(int(schema)) || schema < 1 {
		return nil, fmt.Errorf("not a benchy result: schema %v is not a version", schema)
	}
	if int(schema) > SchemaVersion {
		return nil, fmt.Errorf("schema %d is newer than this benchy reads (%d): written by %s, upgrade benchy", int(schema), SchemaVersion, tool)
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("not a valid benchy result: field %s holds a JSON %s, want %v", te.Field, te.Value, te.Type)
		}
		return nil, fmt.Errorf("not a valid benchy result: %v", oneLine(err.Error()))
	}
	return &r, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
