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
	var (
		words  []string
		word   strings.Builder
		inWord bool // a word has begun, perhaps empty ('' or "")
	)
	end := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == 0:
			return nil, errors.New("a NUL byte cannot be passed to a program")
		case c == ' ' || c == '\t':
			end()
		case c == '\n':
			if strings.Trim(line[i:], " \t\n") != "" {
				return nil, errors.New("an unquoted newline starts a second command in a shell: put the command on one line, or use --shell")
			}
			end()
			i = len(line)
		case c == '\\':
			if i+1 == len(line) {
				return nil, errors.New("trailing backslash")
			}
			i++
			if line[i] != '\n' {
				word.WriteByte(line[i])
				inWord = true
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			n, err := doubleQuoted(line[i+1:], &word)
			if err != nil {
				return nil, err
			}
			inWord = true
			i += n + 1
		case c == '#' && !inWord:
			for i+1 < len(line) && line[i+1] != '\n' {
				i++ // the newline, if any, is read next
			}
		default:
			if what := shellSyntax(line, i, inWord); what != "" {
				return nil, fmt.Errorf("unquoted %q is %s: quote it, or use --shell", c, what)
			}
			word.WriteByte(c)
			inWord = true
		}
	}
	end()
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
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
			return 0, errors.New("a NUL byte cannot be passed to a program")
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
