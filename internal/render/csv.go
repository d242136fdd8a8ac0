package render

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"

	"github.com/benchy-dev/benchy/internal/result"
)

// writeCSV writes one row per sample: experiment, index (from 0, in the
// order taken), iters, ns_total, ns_per_op (empty without iterations),
// cpu, then one column per counter any sample carries, sorted by name,
// empty where a sample lacks it.
func writeCSV(w io.Writer, r *result.Result) error {
	counters := counterNames(r)
	cw := csv.NewWriter(w)
	header := append([]string{"experiment", "index", "iters", "ns_total", "ns_per_op", "cpu"}, counters...)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, e := range r.Experiments {
		for i, s := range e.Samples {
			perOp := ""
			if s.Iters > 0 {
				perOp = strconv.FormatFloat(s.NsPerOp(), 'g', -1, 64)
			}
			row := []string{e.Label(), strconv.Itoa(i), strconv.FormatInt(s.Iters, 10),
				strconv.FormatInt(s.Ns, 10), perOp, strconv.Itoa(s.CPU)}
			for _, c := range counters {
				v, ok := s.Counters[c]
				if ok {
					row = append(row, strconv.FormatInt(v, 10))
				} else {
					row = append(row, "")
				}
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// counterNames returns the sorted names of every counter in r's samples.
func counterNames(r *result.Result) []string {
	var names []string
	for _, e := range r.Experiments {
		for _, s := range e.Samples {
			for c := range s.Counters {
				if !slices.Contains(names, c) {
					names = append(names, c)
				}
			}
		}
	}
	slices.Sort(names)
	return names
}
