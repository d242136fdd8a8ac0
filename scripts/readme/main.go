// Command readme regenerates the sample outputs in README.md and docs/*.md
// by running benchy, so that no example in the documentation can rot.
//
// Run it from the top of the repository:
//
//	go run ./scripts/readme            # rewrite every generated block
//	go run ./scripts/readme -check     # run every block's command, write nothing
//	go run ./scripts/readme -run asm docs/asm.md   # only some blocks, some files
//	go run ./scripts/readme -bin bin/benchy        # a binary you built, not a fresh one
//
// A generated block is an HTML comment naming a benchy command line,
// followed at once by a fenced code block:
//
//	<!-- benchy: compare testdata/compare/old.json testdata/compare/slower.json -->
//	```
//	$ benchy compare testdata/compare/old.json testdata/compare/slower.json
//	...output...
//	```
//
// A marker inside another fenced code block is an example, not a block.
//
// The tool builds benchy into a temporary directory, runs the command there
// (with COLUMNS=80, stdin from /dev/null, and the repository's testdata
// reachable as testdata/), and replaces the block's content with a "$ "
// line showing the command and what it wrote to stdout and stderr. The
// command line is read like a small shell line, and shown as written:
//
//   - words are split on spaces, ; and | are words of their own, and
//     '...' and "..." quote (no escapes);
//   - && benchy ... runs another benchy command in the same block, in the
//     same directory (a later command may read a file an earlier one wrote;
//     so may a later block);
//   - a command may be cc instead of benchy, to build a program that a
//     later command of the block times (cc -O2 -o x testdata/exec/x.c &&
//     benchy exec ./x)
//   - > /dev/null and 2> /dev/null drop stdout or stderr; 2>&1 sends
//     stderr into the pipe below;
//   - | head -n N, | tail -n N, | grep [-v] [-F] [-e PATTERN]... filter stdout
//     (stdout and stderr with 2>&1; else stderr follows the filtered
//     stdout), in order; a grep PATTERN is a Go regular expression, and a
//     line is kept when any -e PATTERN matches it;
//   - ; echo $? (last) prints the exit status.
//
// A command that exits non-zero fails the block unless it ends with
// "; echo $?". In a pipeline benchy's status is not shown, as in a shell,
// and only a usage error (exit 2) or a crash fails the block. A failed
// block keeps its old content. The tool says which blocks changed and
// exits 1 when any block failed. -check runs every command and writes
// nothing: it fails only on commands that fail, never on new output,
// since timings change on every run.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// module is the module path the tool must be run in.
const module = "github.com/benchy-dev/benchy"

// timeout bounds one benchy command.
const timeout = 10 * time.Minute

func main() {
	check := flag.Bool("check", false, "run every block's command and report failures; write nothing")
	only := flag.String("run", "", "only the blocks whose command matches this Go `regexp`")
	bin := flag.String("bin", "", "use this benchy `binary` instead of building one")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./scripts/readme [-check] [-run REGEXP] [-bin BINARY] [FILE.md...]\n\n"+
			"Reruns the benchy commands of the generated blocks in README.md and docs/*.md\n"+
			"(or in the files named) and puts their output in place.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*check, *only, *bin, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "readme: %v\n", err)
		os.Exit(1)
	}
}

func run(check bool, only, bin string, files []string) error {
	var match *regexp.Regexp
	if only != "" {
		var err error
		if match, err = regexp.Compile(only); err != nil {
			return fmt.Errorf("-run %q: %v", only, err)
		}
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	if len(files) == 0 {
		files = docFiles()
	}
	tmp, err := os.MkdirTemp("", "benchy-readme-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	r, err := newRunner(tmp, root, bin)
	if err != nil {
		return err
	}
	p := &pass{runner: r, match: match, check: check}
	for _, file := range files {
		if err := p.file(file); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "readme: %d blocks, %d %s, %d failed\n", p.total, p.changed, p.changedVerb(), p.failed)
	if p.failed > 0 {
		return fmt.Errorf("%d of %d blocks failed", p.failed, p.total)
	}
	return nil
}

// repoRoot is the working directory, which must be the top of benchy's
// repository: the blocks' paths are relative to it.
func repoRoot() (string, error) {
	root, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if gomod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.HasPrefix(gomod, []byte("module "+module+"\n")) {
		return "", fmt.Errorf("run me from the top of the %s repository (go run ./scripts/readme)", module)
	}
	return root, nil
}

// docFiles are the files with generated blocks: README.md and docs/*.md.
func docFiles() []string {
	docs, _ := filepath.Glob(filepath.Join("docs", "*.md"))
	slices.Sort(docs)
	return append([]string{"README.md"}, docs...)
}

// newRunner makes the directory the commands run in, under tmp, with the
// repository's testdata reachable from it, and builds benchy there unless
// bin names a binary.
func newRunner(tmp, root, bin string) (*runner, error) {
	var err error
	if bin == "" {
		bin = filepath.Join(tmp, "benchy")
		fmt.Fprintf(os.Stderr, "readme: go build -o %s ./cmd/benchy\n", bin)
		build := exec.Command("go", "build", "-o", bin, "./cmd/benchy")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return nil, fmt.Errorf("build benchy: %v", err)
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		return nil, err
	}
	if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(work, "testdata")); err != nil {
		return nil, err
	}
	return &runner{bin: bin, work: work}, nil
}

// A pass is one run of the tool over its files: the blocks it reruns,
// whether it writes their new content, and how many changed or failed.
type pass struct {
	*runner
	match *regexp.Regexp // nil: every block
	check bool           // write nothing

	total, changed, failed int
}

// file reruns the chosen blocks of one file and, unless p.check, writes
// the file back when a block changed.
func (p *pass) file(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	doc, err := parse(file, string(data))
	if err != nil {
		return err
	}
	for _, b := range doc.blocks {
		if p.match != nil && !p.match.MatchString(b.command) {
			continue
		}
		p.rerun(fmt.Sprintf("%s:%d", file, b.line), b)
	}
	text := doc.String()
	if p.check || text == string(data) {
		return nil
	}
	fi, err := os.Stat(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file, []byte(text), fi.Mode().Perm())
}

// rerun runs one block, takes its new content unless it failed (a failed
// block keeps its old content), and says what happened.
func (p *pass) rerun(where string, b *block) {
	p.total++
	start := time.Now()
	out, err := p.block(b.command)
	took := time.Since(start).Round(100 * time.Millisecond)
	switch {
	case err != nil:
		p.failed++
		fmt.Fprintf(os.Stderr, "%s: FAILED: %s: %v\n", where, shown(b.command), err)
	case out == b.content:
		fmt.Fprintf(os.Stderr, "%s: unchanged (%v): %s\n", where, took, shown(b.command))
	default:
		p.changed++
		b.content = out
		fmt.Fprintf(os.Stderr, "%s: %s (%v): %s\n", where, p.changedVerb(), took, shown(b.command))
	}
}

// changedVerb is what the tool did to a changed block.
func (p *pass) changedVerb() string {
	if p.check {
		return "would change"
	}
	return "changed"
}

// A doc is a Markdown file cut into plain text and generated blocks.
type doc struct {
	parts  []string // text before each block, and after the last
	blocks []*block
}

// A block is one generated code block: the command in its marker, and
// the lines between its fences.
type block struct {
	line    int    // of the marker, 1-based
	command string // after "benchy:"
	fence   string // the opening fence line
	content string // between the fences, each line ending in "\n"
}

var marker = regexp.MustCompile(`^<!-- benchy: (.+?) -->$`)

// parse finds the generated blocks of a file. A marker inside another
// fenced code block (an example of a marker) is text, not a block.
func parse(file, text string) (*doc, error) {
	lines := strings.SplitAfter(text, "\n")
	d := &doc{}
	var cur strings.Builder
	outer := "" // the fence of the ordinary code block we are in, if any
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r\n")
		cur.WriteString(lines[i])
		if f := fenceOf(line); outer != "" {
			if f == outer && strings.TrimSpace(line) == f {
				outer = ""
			}
			continue
		} else if f != "" {
			outer = f
			continue
		}
		m := marker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			return nil, fmt.Errorf("%s:%d: a benchy marker must be followed at once by a ``` code block", file, i+1)
		}
		b := &block{line: i + 1, command: strings.TrimSpace(m[1]), fence: lines[i+1]}
		ticks := fenceOf(strings.TrimRight(lines[i+1], "\r\n"))
		end := -1
		for j := i + 2; j < len(lines); j++ {
			if strings.TrimRight(lines[j], "\r\n") == ticks {
				end = j
				break
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("%s:%d: the code block after the benchy marker is not closed", file, i+1)
		}
		b.content = strings.Join(lines[i+2:end], "")
		d.parts = append(d.parts, cur.String())
		d.blocks = append(d.blocks, b)
		cur.Reset()
		cur.WriteString(lines[end])
		i = end
	}
	d.parts = append(d.parts, cur.String())
	return d, nil
}

// fenceOf is the fence a line opens or closes (its run of three or more
// backticks or tildes, after up to three spaces), "" when it is none.
func fenceOf(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// String puts the file back together with the blocks' current content.
func (d *doc) String() string {
	var b strings.Builder
	for i, p := range d.parts {
		b.WriteString(p)
		if i < len(d.blocks) {
			b.WriteString(d.blocks[i].fence)
			b.WriteString(d.blocks[i].content)
		}
	}
	return b.String()
}

// runner runs the commands of blocks.
type runner struct {
	bin  string // the benchy binary
	work string // the directory commands run in
}

// block runs every command of a block and returns the block's new content.
func (r *runner) block(command string) (string, error) {
	segs, err := parseCommand(command)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, s := range segs {
		text, err := r.segment(s)
		if err != nil {
			return "", err
		}
		out.WriteString("$ " + s.prog + " " + s.shown + "\n")
		out.WriteString(text)
	}
	if strings.Contains(out.String(), "```") {
		return "", errors.New("the output holds ```, which would end the code block")
	}
	return out.String(), nil
}

// shown is a block's command line as a shell would read it.
func shown(command string) string {
	if strings.HasPrefix(command, "cc ") {
		return command
	}
	return "benchy " + command
}

// A segment is one benchy command of a block, with its redirections,
// filters and whether its status is printed.
type segment struct {
	prog       string   // "benchy", or "cc" to build a program a later command times
	shown      string   // as written, for the "$ " line
	args       []string // benchy's arguments
	merge      bool     // 2>&1
	dropOut    bool     // > /dev/null
	dropErr    bool     // 2> /dev/null
	filters    [][]string
	echoStatus bool // ; echo $?
}

// parseCommand reads a block's command line into segments.
func parseCommand(command string) ([]segment, error) {
	words, raws, spans, err := split(command)
	if err != nil {
		return nil, err
	}
	var segs []segment
	start := 0
	for i := 0; i <= len(words); i++ {
		if i < len(words) && !(words[i] == "&&" && raws[i] == "&&") {
			continue
		}
		ws, rs := words[start:i], raws[start:i]
		prog := "benchy"
		switch {
		case len(ws) > 0 && (ws[0] == "benchy" || ws[0] == "cc"):
			prog, ws, rs = ws[0], ws[1:], rs[1:]
		case len(segs) > 0:
			return nil, errors.New("&& must be followed by another benchy (or cc) command")
		}
		s, err := parseSegment(ws, rs)
		if err != nil {
			return nil, err
		}
		s.prog = prog
		if first := i - len(ws); len(ws) > 0 {
			s.shown = command[spans[first][0]:spans[i-1][1]]
		}
		segs = append(segs, s)
		start = i + 1
	}
	return segs, nil
}

// parseSegment reads one benchy command: arguments, then redirections,
// then filters, then "; echo $?".
func parseSegment(words, raws []string) (segment, error) {
	s := segment{shown: strings.Join(raws, " ")}
	i := 0
	for i < len(words) && !(words[i] == raws[i] && slices.Contains(operators, words[i])) {
		i++
	}
	s.args = words[:i]
	if len(s.args) == 0 {
		return s, errors.New("no benchy arguments")
	}
	for i < len(words) {
		n, err := s.operator(words[i:], raws[i:])
		if err != nil {
			return s, err
		}
		i += n
	}
	if s.merge && (s.dropOut || s.dropErr) {
		return s, errors.New("2>&1 together with a /dev/null redirection is not understood: use one")
	}
	return s, nil
}

// operators are the unquoted words that end a command's arguments.
var operators = []string{"|", ";", "2>&1", ">", "2>", ">/dev/null", "2>/dev/null"}

// operator reads the redirection, filter or "; echo $?" that words start
// with, and returns how many words it took.
func (s *segment) operator(words, raws []string) (int, error) {
	switch w := words[0]; {
	case w != raws[0]:
		return 0, fmt.Errorf("unexpected %q", raws[0])
	case w == "2>&1":
		s.merge = true
		return 1, nil
	case w == ">/dev/null", w == "2>/dev/null":
		s.drop(w == ">/dev/null")
		return 1, nil
	case (w == ">" || w == "2>") && len(words) > 1 && words[1] == "/dev/null":
		s.drop(w == ">")
		return 2, nil
	case w == "|":
		return s.filter(words, raws)
	case w == ";" && len(words) == 3 && words[1] == "echo" && words[2] == "$?":
		if len(s.filters) > 0 {
			return 0, errors.New("; echo $? after a pipeline would print the filter's status, not benchy's")
		}
		s.echoStatus = true
		return 3, nil
	}
	return 0, fmt.Errorf("unexpected %q (see go doc ./scripts/readme)", raws[0])
}

// drop sends stdout, or else stderr, to /dev/null.
func (s *segment) drop(stdout bool) {
	if stdout {
		s.dropOut = true
	} else {
		s.dropErr = true
	}
}

// filter reads "| COMMAND ARGS..." up to the next unquoted | or ;, and
// returns how many words it took.
func (s *segment) filter(words, raws []string) (int, error) {
	j := 1
	for j < len(words) && !(words[j] == raws[j] && (words[j] == "|" || words[j] == ";")) {
		j++
	}
	f := words[1:j]
	if err := checkFilter(f); err != nil {
		return 0, err
	}
	s.filters = append(s.filters, f)
	return j, nil
}

// split cuts a command line into words, as a shell does for the subset
// the blocks use: spaces separate, ; and | are words of their own, and
// '...' and "..." quote. raws are the words as written, quotes included,
// and spans where each starts and ends in line.
func split(line string) (words, raws []string, spans [][2]int, err error) {
	var w strings.Builder
	in, quote, started, from := false, byte(0), false, 0
	flush := func(to int) {
		if started {
			words, raws = append(words, w.String()), append(raws, line[from:to])
			spans = append(spans, [2]int{from, to})
		}
		w.Reset()
		started = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !started && !(c == ' ' || c == '\t') {
			started, from = true, i
		}
		switch {
		case in && c == quote:
			in = false
		case in:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			in, quote = true, c
		case c == ' ' || c == '\t':
			flush(i)
		case c == ';' || c == '|':
			// Operators stand alone, as in a shell: "/dev/null;" is
			// two words.
			if w.Len() > 0 || from < i {
				flush(i)
				started, from = true, i
			}
			w.WriteByte(c)
			flush(i + 1)
		default:
			w.WriteByte(c)
		}
	}
	if in {
		return nil, nil, nil, fmt.Errorf("unclosed %c in %q", quote, line)
	}
	flush(len(line))
	return words, raws, spans, nil
}

// checkFilter accepts the filters apply knows.
func checkFilter(f []string) error {
	if len(f) == 0 {
		return errors.New("| with no command after it")
	}
	switch f[0] {
	case "head", "tail":
		if _, err := lineCount(f); err != nil {
			return err
		}
		return nil
	case "grep":
		_, err := grepper(f)
		return err
	}
	return fmt.Errorf("| %s: only head, tail and grep are understood", f[0])
}

// lineCount reads "head -n N", "head -N" (and tail's).
func lineCount(f []string) (int, error) {
	var s string
	switch {
	case len(f) == 3 && f[1] == "-n":
		s = f[2]
	case len(f) == 2 && strings.HasPrefix(f[1], "-"):
		s = f[1][1:]
	default:
		return 0, fmt.Errorf("| %s: write %s -n N", strings.Join(f, " "), f[0])
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("| %s: %q is not a line count", strings.Join(f, " "), s)
	}
	return n, nil
}

// grepper reads "grep [-v] [-F] [-E] [-e PATTERN]... [PATTERN]" into a
// line test: a line matches when any pattern does.
func grepper(f []string) (func(string) bool, error) {
	invert, fixed := false, false
	var patterns []string
	bare := false // a pattern given without -e: nothing may follow it
	for i := 1; i < len(f); i++ {
		switch {
		case bare:
			return nil, fmt.Errorf("| %s: write grep [-v] [-F] [-e PATTERN]... [PATTERN]", strings.Join(f, " "))
		case f[i] == "-v":
			invert = true
		case f[i] == "-F":
			fixed = true
		case f[i] == "-E":
		case f[i] == "-e" && i+1 < len(f):
			patterns = append(patterns, f[i+1])
			i++
		case len(patterns) == 0 && !strings.HasPrefix(f[i], "-"):
			patterns, bare = append(patterns, f[i]), true
		default:
			return nil, fmt.Errorf("| %s: write grep [-v] [-F] [-e PATTERN]... [PATTERN]", strings.Join(f, " "))
		}
	}
	if len(patterns) == 0 {
		return nil, errors.New("| grep: no pattern")
	}
	var res []*regexp.Regexp
	for _, p := range patterns {
		if fixed {
			p = regexp.QuoteMeta(p)
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("| grep %q: %v", p, err)
		}
		res = append(res, re)
	}
	return func(line string) bool {
		hit := slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(line) })
		return hit != invert
	}, nil
}

// apply runs one filter over text.
func apply(f []string, text string) string {
	lines := strings.SplitAfter(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	switch f[0] {
	case "head":
		n, _ := lineCount(f)
		lines = lines[:min(n, len(lines))]
	case "tail":
		n, _ := lineCount(f)
		lines = lines[max(0, len(lines)-n):]
	case "grep":
		keep, _ := grepper(f)
		lines = slices.DeleteFunc(lines, func(l string) bool { return !keep(strings.TrimRight(l, "\n")) })
	}
	return strings.Join(lines, "")
}

// segment runs one command and returns what the block shows of it.
func (r *runner) segment(s segment) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	bin := r.bin
	if s.prog != "benchy" {
		bin = s.prog
	}
	cmd := exec.CommandContext(ctx, bin, s.args...)
	cmd.Dir = r.work
	cmd.Env = environment()
	// The stream the filters read: stdout, and stderr with 2>&1 (or when
	// nothing filters it). One writer for both keeps their order exactly.
	var pipe, errb bytes.Buffer
	pipeline := len(s.filters) > 0
	if !s.dropOut {
		cmd.Stdout = &pipe
	}
	switch {
	case s.dropErr:
	case s.merge || !pipeline:
		cmd.Stderr = &pipe
	default:
		cmd.Stderr = &errb
	}
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("did not finish in %v", timeout)
	case errors.As(err, &ee) && ee.Exited():
		code = ee.ExitCode()
	case err != nil:
		return "", err // did not start, or killed by a signal
	}
	text := pipe.String()
	for _, f := range s.filters {
		text = apply(f, text)
	}
	text += errb.String()
	text = clean(strings.ReplaceAll(text, r.work+string(filepath.Separator), ""))
	switch {
	case s.echoStatus:
		text += strconv.Itoa(code) + "\n"
	case pipeline && code == 2:
		return "", fmt.Errorf("exit 2 (bad usage): %s", firstLine(pipe.String()+errb.String()))
	case !pipeline && code != 0:
		return "", fmt.Errorf("exit %d (end the command with '; echo $?' if that is meant): %s", code, firstLine(pipe.String()))
	}
	return text, nil
}

// environment is this process's environment for benchy: a fixed width,
// and no BENCHY_SYSROOT from the caller's shell.
func environment() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "BENCHY_SYSROOT=") || strings.HasPrefix(kv, "COLUMNS=")
	})
	return append(env, "COLUMNS=80")
}

// clean ends every line without trailing spaces and the text with one
// newline (none when it is empty).
func clean(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	out := strings.Join(lines, "\n")
	if out == "" {
		return ""
	}
	return out + "\n"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "no output"
	}
	return s
}
