package workload

import (
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// The concat family builds the same 8000-line text two ways. `s = s + line`
// copies everything built so far for every line, so its cost grows with the
// square of the length; strings.Builder grows its buffer geometrically.

// concatLineCount is the number of lines in the text one op builds.
const concatLineCount = 8000

// concatLines are the lines: the numbers 0..7999, one per line, about 5
// bytes each. Short lines keep the quadratic variant to about 150 MB of
// copying and allocation per op, which is already plenty to show the point.
var concatLines = func() []string {
	lines := make([]string, concatLineCount)
	for i := range lines {
		lines[i] = strconv.Itoa(i) + "\n"
	}
	return lines
}()

// concatTextLen is the length of the text one op builds.
var concatTextLen = func() int {
	n := 0
	for _, l := range concatLines {
		n += len(l)
	}
	return n
}()

var (
	concatQuadratic = inproc.Workload{
		Name:        "concat/quadratic",
		Description: "an 8000-line text built with s = s + line: every line copies the whole text so far; expect tens of ms and ~160 MB allocated per op",
		Units:       concatLineCount,
		Unit:        "line",
		ReadsMemory: true,
		Loop:        concatQuadraticLoop,
	}
	concatBuilder = inproc.Workload{
		Name:        "concat/builder",
		Description: "the same text with strings.Builder: the buffer grows geometrically; expect tens of microseconds, hundreds of times faster than concat/quadratic",
		Units:       concatLineCount,
		Unit:        "line",
		ReadsMemory: true,
		Loop:        concatBuilderLoop,
	}
)

func concatQuadraticLoop(n int) {
	for i := 0; i < n; i++ {
		s := ""
		for _, line := range concatLines {
			s = s + line
		}
		sink.SinkStr = s
	}
}

func concatBuilderLoop(n int) {
	for i := 0; i < n; i++ {
		var b strings.Builder
		for _, line := range concatLines {
			b.WriteString(line)
		}
		sink.SinkStr = b.String()
	}
}
