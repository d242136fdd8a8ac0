package command

import (
	"errors"
	"fmt"
	"strings"
)

// Split splits a command line into words the way a POSIX shell does, so a
// command runs without a shell in between (whose start-up would be timed
// with it): words are separated by blanks; single quotes keep
// everything up to the next single quote; double quotes keep everything up
// to the next unescaped double quote, where a backslash escapes only $ ` "
// \ and newline; elsewhere a backslash escapes any character, and a
// backslash-newline joins lines. A # that begins a word starts a comment,
// to the end of the line.
//
// Split performs no expansion, and rather than run something other than
// what a shell would, it rejects what a shell would expand or interpret
// when it is not quoted: operators and redirections (| & ; < > ( )),
// command substitution (`), parameters ($NAME, ${...}, $(...)), globs
// (* ? [) and a leading ~. The error says to quote it or to use --shell.
// An unquoted newline is refused too: a shell reads it as the end of one
// command and the start of another, and a single program cannot do that.
// Only white space may follow the last one (a trailing newline, as a
// heredoc or $(cat file) leaves, ends the command as in a shell).
func Split(line string) ([]string, error) {
	var s splitter
	for i := 0; i < len(line); i++ {
		c, rest := line[i], line[i+1:]
		n, err := 0, error(nil) // n: the bytes of rest read with c
		switch {
		case c == 0:
			err = errNUL
		case c == ' ' || c == '\t':
			s.end()
		case c == '\n':
			n, err = s.newline(rest)
		case c == '\\':
			n, err = s.escaped(rest)
		case c == '\'':
			n, err = s.singleQuoted(rest)
		case c == '"':
			n, err = s.doubleQuoted(rest)
		case c == '#' && !s.inWord:
			n = comment(rest)
		default:
			err = s.plain(line, i)
		}
		if err != nil {
			return nil, err
		}
		i += n
	}
	s.end()
	if len(s.words) == 0 {
		return nil, errors.New("empty command")
	}
	return s.words, nil
}

var errNUL = errors.New("a NUL byte cannot be passed to a program")

// splitter holds the words Split has read and the one it is reading.
// Each of its readers is given the rest of the line after the byte that
// called it, and returns how many bytes of it it read.
type splitter struct {
	words  []string
	word   strings.Builder
	inWord bool // a word has begun, perhaps empty ('' or "")
}

// end ends the word being read, if one has begun.
func (s *splitter) end() {
	if s.inWord {
		s.words = append(s.words, s.word.String())
		s.word.Reset()
		s.inWord = false
	}
}

// newline ends the command at an unquoted newline, which only white space
// may follow.
func (s *splitter) newline(rest string) (int, error) {
	if strings.Trim(rest, " \t\n") != "" {
		return 0, errors.New("an unquoted newline starts a second command in a shell: put the command on one line, or use --shell")
	}
	s.end()
	return len(rest), nil
}

// escaped reads the byte after a backslash as itself; a backslash-newline
// joins lines.
func (s *splitter) escaped(rest string) (int, error) {
	if rest == "" {
		return 0, errors.New("trailing backslash")
	}
	if rest[0] != '\n' {
		s.word.WriteByte(rest[0])
		s.inWord = true
	}
	return 1, nil
}

// singleQuoted reads everything up to the next single quote as itself.
func (s *splitter) singleQuoted(rest string) (int, error) {
	j := strings.IndexByte(rest, '\'')
	if j < 0 {
		return 0, errors.New("unterminated single quote")
	}
	s.word.WriteString(rest[:j])
	s.inWord = true
	return j + 1, nil
}

// doubleQuoted reads a double-quoted string (doubleQuoted).
func (s *splitter) doubleQuoted(rest string) (int, error) {
	n, err := doubleQuoted(rest, &s.word)
	if err != nil {
		return 0, err
	}
	s.inWord = true
	return n + 1, nil
}

// comment is the length of a comment, up to the newline, if any, which
// is read next.
func comment(rest string) int {
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		return j
	}
	return len(rest)
}

// plain reads the unquoted byte line[i], refused where a shell would
// read it as more than itself.
func (s *splitter) plain(line string, i int) error {
	if what := shellSyntax(line, i, s.inWord); what != "" {
		return fmt.Errorf("unquoted %q is %s: quote it, or use --shell", line[i], what)
	}
	s.word.WriteByte(line[i])
	s.inWord = true
	return nil
}

// doubleQuoted copies the text of a double-quoted string, s starting just
// after the opening quote, into w, and returns the index of the closing
// quote in s.
func doubleQuoted(s string, w *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, nil
		case 0:
			return 0, errNUL
		case '\\':
			if i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				i++
				if s[i] != '\n' {
					w.WriteByte(s[i])
				}
				continue
			}
			w.WriteByte(c)
		case '`', '$':
			if what := shellSyntax(s, i, true); what != "" {
				return 0, fmt.Errorf("%q inside double quotes is %s: use single quotes, or --shell", c, what)
			}
			w.WriteByte(c)
		default:
			w.WriteByte(c)
		}
	}
	return 0, errors.New("unterminated double quote")
}

// shellSyntax says what the unquoted byte s[i] would mean to a shell when
// it means more than itself ("" when it does not); inWord says a word has
// begun before it.
func shellSyntax(s string, i int, inWord bool) string {
	switch s[i] {
	case '|', '&', ';', '(', ')':
		return "a shell operator"
	case '<', '>':
		return "a redirection"
	case '`':
		return "command substitution"
	case '*', '?', '[':
		return "a glob"
	case '~':
		if !inWord {
			return "tilde expansion"
		}
	case '$':
		if i+1 < len(s) && expands(s[i+1]) {
			return "a parameter expansion"
		}
	}
	return ""
}

// expands reports whether a shell expands $ followed by c: a name, a
// positional or special parameter, ${...} or $(...).
func expands(c byte) bool {
	return c == '_' || c == '{' || c == '(' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' ||
		'0' <= c && c <= '9' || strings.IndexByte("@*#?$!-", c) >= 0
}

// Quote returns word as a shell would need it written to read it back as
// one word: unchanged when it holds only characters no shell treats
// specially, else in single quotes.
func Quote(word string) string {
	if word != "" && strings.Trim(word, safeChars) == "" {
		return word
	}
	return "'" + strings.ReplaceAll(word, "'", `'\''`) + "'"
}

const safeChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-"

// Join quotes every word and joins them with spaces: the inverse of Split,
// and of a shell, for words without NUL bytes.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
