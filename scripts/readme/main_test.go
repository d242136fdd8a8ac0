package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

func TestParseCommand(t *testing.T) {
	for _, tt := range []struct {
		line  string
		args  [][]string
		shown []string
		ok    bool
	}{
		{"run --smoke", [][]string{{"run", "--smoke"}}, []string{"run --smoke"}, true},
		{"run --bench '^sum/(a|b)$' | tail -n 3", [][]string{{"run", "--bench", "^sum/(a|b)$"}}, []string{"run --bench '^sum/(a|b)$' | tail -n 3"}, true},
		{"compare a b --fail-on-regression 5% > /dev/null; echo $?", [][]string{{"compare", "a", "b", "--fail-on-regression", "5%"}}, []string{"compare a b --fail-on-regression 5% > /dev/null; echo $?"}, true},
		{"run --out a.json && benchy report a.json -v", [][]string{{"run", "--out", "a.json"}, {"report", "a.json", "-v"}}, []string{"run --out a.json", "report a.json -v"}, true},
		{"cc -O2 -o x x.c && benchy exec ./x", [][]string{{"-O2", "-o", "x", "x.c"}, {"exec", "./x"}}, []string{"-O2 -o x x.c", "exec ./x"}, true},
		{"cc x.c && gcc y.c", nil, nil, false},
		{"run && report a.json", nil, nil, false},
		{"run | sort", nil, nil, false},
		{"run | tail -n 3; echo $?", nil, nil, false},
		{"run --bench 'x", nil, nil, false},
	} {
		segs, err := parseCommand(tt.line)
		if (err == nil) != tt.ok {
			t.Errorf("%q: error %v, want ok=%v", tt.line, err, tt.ok)
			continue
		}
		if tt.ok && len(segs) != len(tt.args) {
			t.Errorf("%q: %d segments, want %d", tt.line, len(segs), len(tt.args))
		}
		for i, s := range segs {
			if i < len(tt.args) && !slices.Equal(s.args, tt.args[i]) {
				t.Errorf("%q: segment %d args %q, want %q", tt.line, i, s.args, tt.args[i])
			}
			if i < len(tt.shown) && s.shown != tt.shown[i] {
				t.Errorf("%q: segment %d shown %q, want %q", tt.line, i, s.shown, tt.shown[i])
			}
		}
	}
}

func TestParseCommandPrograms(t *testing.T) {
	segs, err := parseCommand("cc -O2 -o x x.c && benchy exec ./x")
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	for _, s := range segs {
		progs = append(progs, s.prog)
	}
	if !slices.Equal(progs, []string{"cc", "benchy"}) {
		t.Errorf("programs %q, want cc then benchy", progs)
	}
}

func TestFilters(t *testing.T) {
	text := "a1\nb2\na3\nb4\n"
	for _, tt := range []struct {
		f    []string
		want string
	}{
		{[]string{"head", "-n", "2"}, "a1\nb2\n"},
		{[]string{"tail", "-1"}, "b4\n"},
		{[]string{"grep", "^a"}, "a1\na3\n"},
		{[]string{"grep", "-v", "-e", "^a"}, "b2\nb4\n"},
		{[]string{"head", "-n", "9"}, text},
		{[]string{"grep", "-e", "1", "-e", "4"}, "a1\nb4\n"},
	} {
		if got := apply(tt.f, text); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestParseDoc(t *testing.T) {
	in := "x\n<!-- benchy: list -->\n```text\nold\n```\ny\n"
	d, err := parse("f.md", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.blocks) != 1 || d.blocks[0].command != "list" || d.blocks[0].content != "old\n" {
		t.Fatalf("blocks %+v", d.blocks)
	}
	if d.String() != in {
		t.Errorf("round trip: %q", d.String())
	}
	d.blocks[0].content = "new\n"
	if want := "x\n<!-- benchy: list -->\n```text\nnew\n```\ny\n"; d.String() != want {
		t.Errorf("got %q, want %q", d.String(), want)
	}
	quoted := "````\n<!-- benchy: list -->\n```\n```\n````\n"
	if d, err := parse("f.md", quoted); err != nil || len(d.blocks) != 0 || d.String() != quoted {
		t.Errorf("a marker inside a code block: %v, %d blocks", err, len(d.blocks))
	}
	if _, err := parse("f.md", "<!-- benchy: list -->\ntext\n"); err == nil {
		t.Error("a marker without a code block is accepted")
	}
}

func TestParseSegment(t *testing.T) {
	for _, tt := range []struct {
		line string
		want segment // args, merge, drops, filters and echoStatus
		err  bool
	}{
		{line: "run", want: segment{args: []string{"run"}}},
		{line: "run 2>&1 | head -n 2", want: segment{args: []string{"run"}, merge: true, filters: [][]string{{"head", "-n", "2"}}}},
		{line: "run > /dev/null", want: segment{args: []string{"run"}, dropOut: true}},
		{line: "run >/dev/null 2>/dev/null", want: segment{args: []string{"run"}, dropOut: true, dropErr: true}},
		{line: "run 2> /dev/null; echo $?", want: segment{args: []string{"run"}, dropErr: true, echoStatus: true}},
		{line: "run | grep -v x | tail -1", want: segment{args: []string{"run"}, filters: [][]string{{"grep", "-v", "x"}, {"tail", "-1"}}}},
		{line: "run '|' ';'", want: segment{args: []string{"run", "|", ";"}}},
		{line: "run; echo $?", want: segment{args: []string{"run"}, echoStatus: true}},
		{line: "> /dev/null", err: true},
		{line: "run > out.txt", err: true},
		{line: "run 2>&1 > /dev/null", err: true},
		{line: "run |", err: true},
		{line: "run | head -n x", err: true},
		{line: "run | grep -F", err: true},
		{line: "run | grep a b", err: true},
		{line: "run | grep '('", err: true},
		{line: "run; echo hi", err: true},
		{line: "run; echo $? x", err: true},
		{line: "run 2>&1 'x'", err: true},
	} {
		words, raws, _, err := split(tt.line)
		if err != nil {
			t.Fatalf("%q: %v", tt.line, err)
		}
		s, err := parseSegment(words, raws)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want error %v", tt.line, err, tt.err)
			continue
		}
		if tt.err {
			continue
		}
		if !slices.Equal(s.args, tt.want.args) || s.merge != tt.want.merge || s.dropOut != tt.want.dropOut ||
			s.dropErr != tt.want.dropErr || s.echoStatus != tt.want.echoStatus ||
			!slices.EqualFunc(s.filters, tt.want.filters, slices.Equal[[]string]) {
			t.Errorf("%q: got %+v, want %+v", tt.line, s, tt.want)
		}
	}
}

// TestPassFile reruns the blocks of a file with a fake benchy that prints
// its arguments and fails when asked: a changed block takes the output, an
// up-to-date one is left, a failed one keeps its content, a block the
// -run pattern skips is not run, and -check writes nothing.
func TestPassFile(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "benchy")
	script := "#!/bin/sh\necho \"args: $*\"\n[ \"$1\" = fail ] && exit 3\nexit 0\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	in := "# doc\n" +
		"<!-- benchy: list -->\n```\nold\n```\n" +
		"<!-- benchy: report x -->\n```\n$ benchy report x\nargs: report x\n```\n" +
		"<!-- benchy: fail now -->\n```\nkept\n```\n" +
		"<!-- benchy: skipped -->\n```\nskipped\n```\n"
	want := "# doc\n" +
		"<!-- benchy: list -->\n```\n$ benchy list\nargs: list\n```\n" +
		"<!-- benchy: report x -->\n```\n$ benchy report x\nargs: report x\n```\n" +
		"<!-- benchy: fail now -->\n```\nkept\n```\n" +
		"<!-- benchy: skipped -->\n```\nskipped\n```\n"
	for _, check := range []bool{true, false} {
		file := filepath.Join(dir, "doc.md")
		if err := os.WriteFile(file, []byte(in), 0o640); err != nil {
			t.Fatal(err)
		}
		p := &pass{runner: &runner{bin: fake, work: work}, match: regexp.MustCompile("^(list|report|fail)"), check: check}
		if err := p.file(file); err != nil {
			t.Fatalf("check=%v: %v", check, err)
		}
		if p.total != 3 || p.changed != 1 || p.failed != 1 {
			t.Errorf("check=%v: %d blocks, %d changed, %d failed; want 3, 1, 1", check, p.total, p.changed, p.failed)
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if expect := map[bool]string{true: in, false: want}[check]; string(got) != expect {
			t.Errorf("check=%v: the file is now\n%s\nwant\n%s", check, got, expect)
		}
		if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("check=%v: mode %v (%v), want 0640", check, fi.Mode().Perm(), err)
		}
	}
}
