package gotest

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// output is what benchy reads of a test process's own output (its stdout
// and stderr, which the benchmark may write to as it likes): never a
// result, only the words of a failure the records found.
type output struct {
	// failures are the lines testing indented under "--- FAIL: NAME",
	// by NAME as testing printed it (with or without -GOMAXPROCS).
	failures map[string]string
	panic    string   // the first line starting "panic: " or "fatal error: " (fatalPrefixes)
	tail     []string // the last lines that are not blank
}

// Bounds of what is kept of the output: a benchmark may print without
// end, and only a message is wanted of it.
const (
	maxLine    = 4 << 10 // bytes of one line
	maxMessage = 4 << 10 // bytes of one failure's message
	tailLines  = 4
)

// scanOutput reads a test process's output, keeping the failure blocks,
// the first panic line and the last lines.
func scanOutput(rd io.Reader) output {
	o := output{failures: map[string]string{}}
	br := bufio.NewReaderSize(rd, 64<<10)
	var cur string // the benchmark whose failure block is being read
	var msg strings.Builder
	flush := func() {
		if cur != "" {
			o.failures[cur] = msg.String()
		}
		cur = ""
		msg.Reset()
	}
	for {
		line, ok := readLine(br)
		if !ok {
			break
		}
		if strings.TrimSpace(line) != "" {
			o.tail = append(o.tail, line)
			if len(o.tail) > tailLines {
				o.tail = o.tail[1:]
			}
		}
		switch {
		case strings.HasPrefix(line, "--- FAIL: "):
			flush()
			cur, _, _ = strings.Cut(strings.TrimPrefix(line, "--- FAIL: "), " ")
		case cur != "" && strings.HasPrefix(line, "    "):
			if msg.Len() < maxMessage {
				if msg.Len() > 0 {
					msg.WriteByte('\n')
				}
				msg.WriteString(strings.TrimSpace(line))
			}
		default:
			flush()
			if o.panic == "" && isFatal(line) {
				o.panic = line
			}
		}
	}
	flush()
	return o
}

// fatalPrefixes start the line that says why a Go program died: a panic,
// or a fatal error of the runtime, which no recover stops (concurrent map
// writes, out of memory, a deadlock), and which is followed, as a panic
// is, by a dump of every goroutine whose last lines say nothing.
var fatalPrefixes = []string{"panic: ", "fatal error: "}

func isFatal(line string) bool {
	for _, p := range fatalPrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// why is how a message about the process's end ends: ": " and its panic
// or fatal error when it had one, else its last lines (lastWords).
func (o output) why() string {
	if o.panic != "" {
		return ": " + o.panic
	}
	return o.lastWords()
}

// readLine is the next line of br without its end, cut at maxLine bytes;
// false at the end of the output.
func readLine(br *bufio.Reader) (string, bool) {
	var b []byte
	for {
		frag, err := br.ReadSlice('\n')
		b = append(b, frag[:min(len(frag), max(0, maxLine-len(b)))]...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(b) == 0 {
			return "", false
		}
		return strings.TrimRight(string(b), "\r\n"), true
	}
}

// failure is testing's message for the failed benchmark name: testing
// prints the name as it is where the first call failed, and with its
// -GOMAXPROCS suffix (none when it is 1) where a later one did.
func (o output) failure(name string, gomaxprocs int) (string, bool) {
	if m, ok := o.failures[name]; ok {
		return m, true
	}
	if gomaxprocs != 1 {
		m, ok := o.failures[name+"-"+strconv.Itoa(gomaxprocs)]
		return m, ok
	}
	return "", false
}

// tailLine is the last lines of the output, on one line.
func (o output) tailLine() string { return strings.Join(o.tail, " | ") }

// lastWords are the last lines of the output after ": ", to end a
// message with; "" when there was no output.
func (o output) lastWords() string {
	if len(o.tail) == 0 {
		return ""
	}
	return ": " + o.tailLine()
}
