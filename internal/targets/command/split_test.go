package command

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
		err  string // a part of the error; "" for none
	}{
		{line: "sleep 0.01", want: []string{"sleep", "0.01"}},
		{line: "  a \t b  ", want: []string{"a", "b"}},
		{line: "a b\n", want: []string{"a", "b"}},
		{line: "a b \n\t\n ", want: []string{"a", "b"}},
		{line: "echo 'a\nb'\n", want: []string{"echo", "a\nb"}},
		{line: `echo 'a b' "c d"`, want: []string{"echo", "a b", "c d"}},
		{line: `echo a'b'"c"d`, want: []string{"echo", "abcd"}},
		{line: `echo '' ""`, want: []string{"echo", "", ""}},
		{line: `echo 'it''s'`, want: []string{"echo", "its"}},
		{line: `echo 'a\nb'`, want: []string{"echo", `a\nb`}},
		{line: `echo "a\"b" "c\\d" "e\f" "\$x" "\` + "`" + `"`, want: []string{"echo", `a"b`, `c\d`, `e\f`, "$x", "`"}},
		{line: `echo a\ b \'c\' \"`, want: []string{"echo", "a b", "'c'", `"`}},
		{line: "echo a\\\nb", want: []string{"echo", "ab"}},
		{line: "echo \"a\\\nb\"", want: []string{"echo", "ab"}},
		{line: "echo \"multi\nline\"", want: []string{"echo", "multi\nline"}},
		{line: "prog # a comment", want: []string{"prog"}},
		{line: "prog a#b", want: []string{"prog", "a#b"}},
		{line: "prog #c\n", want: []string{"prog"}},
		{line: "awk '{print $1}' f", want: []string{"awk", "{print $1}", "f"}},
		{line: "cost 5$ $", want: []string{"cost", "5$", "$"}},
		{line: `echo "5$"`, want: []string{"echo", "5$"}},
		{line: "a~b ./x=y,z:w@v%u+t", want: []string{"a~b", "./x=y,z:w@v%u+t"}},
		{line: "héllo wörld", want: []string{"héllo", "wörld"}},
		{line: "'|' '>' '*' \\;", want: []string{"|", ">", "*", ";"}},

		{line: "", err: "empty command"},
		{line: "   \n\t", err: "empty command"},
		{line: "# only a comment", err: "empty command"},
		{line: "echo 'abc", err: "unterminated single quote"},
		{line: `echo "abc`, err: "unterminated double quote"},
		{line: `echo "a\"`, err: "unterminated double quote"},
		{line: `echo abc\`, err: "trailing backslash"},
		{line: "a\x00b", err: "NUL"},
		{line: "ls | wc", err: "shell operator"},
		{line: "a && b", err: "shell operator"},
		{line: "a; b", err: "shell operator"},
		{line: "(a)", err: "shell operator"},
		{line: "sort < f", err: "redirection"},
		{line: "echo x>f", err: "redirection"},
		{line: "echo `date`", err: "command substitution"},
		{line: `echo "` + "`date`" + `"`, err: "command substitution"},
		{line: "echo $HOME", err: "parameter expansion"},
		{line: "echo ${x}", err: "parameter expansion"},
		{line: "echo $(date)", err: "parameter expansion"},
		{line: `echo "$HOME"`, err: "parameter expansion"},
		{line: "echo $1 $?", err: "parameter expansion"},
		{line: "ls *.go", err: "glob"},
		{line: "ls a?", err: "glob"},
		{line: "ls [ab]", err: "glob"},
		{line: "ls ~/x", err: "tilde"},
		// A shell runs two commands; one program cannot.
		{line: "echo a\nrm b", err: "unquoted newline"},
		{line: "  a \t b\nc  ", err: "unquoted newline"},
		{line: "prog #c\nsecond", err: "unquoted newline"},
		{line: "a\n\u00a0", err: "unquoted newline"},
	} {
		got, err := Split(tc.line)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Split(%q) = %q, %v; want an error with %q", tc.line, got, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("Split(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"abc", "abc"}, {"/usr/bin/sleep", "/usr/bin/sleep"}, {"0.01", "0.01"}, {"-n", "-n"},
		{"", "''"}, {"a b", "'a b'"}, {"it's", `'it'\''s'`}, {"$x", "'$x'"}, {"~", "'~'"}, {"#c", "'#c'"},
	} {
		if got := Quote(tc.word); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.word, got, tc.want)
		}
	}
}

// FuzzSplit: Split never panics, what it accepts is never empty, and
// joining its words back (Join) reads back as the same words.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"sleep 0.01", `a 'b c' "d\"e" f\ g`, "x # y\nz", `"$"`, "a\\\nb", "'", `\`, "", "ls|x", "~a a~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := Split(line)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("Split(%q) = no words and no error", line)
		}
		again, err := Split(Join(words))
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("Split(%q) = %q; Join = %s; split again = %q, %v", line, words, Join(words), again, err)
		}
	})
}
