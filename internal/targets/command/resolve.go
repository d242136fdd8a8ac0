package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/benchy-dev/benchy/internal/result"
)

// Program is a command line resolved to the program it starts.
type Program struct {
	Line  string   // as written, parameters substituted
	Shell bool     // run as sh -c Line
	Path  string   // the absolute path executed
	Args  []string // its argument vector; Args[0] as written
}

// Resolve splits line (see Split), or wraps it in sh -c when shell is
// set, and finds the program it starts the way a shell would (exec.LookPath
// for a bare name, the file itself for a name with a slash). It is called
// before anything runs, so a typo is one line of error, not a failed run
// after minutes of setup; the error names the command and what is wrong.
func Resolve(line string, shell bool) (Program, error) {
	p := Program{Line: line, Shell: shell}
	if shell {
		if strings.TrimSpace(line) == "" {
			return Program{}, errors.New("empty command")
		}
		path, err := exec.LookPath("sh")
		if err != nil {
			return Program{}, errors.New("sh, which runs --shell commands and hooks, is not in $PATH")
		}
		p.Path, p.Args = path, []string{"sh", "-c", line}
	} else {
		words, err := Split(line)
		if err != nil {
			return Program{}, fmt.Errorf("command %q: %w", line, err)
		}
		path, err := lookPath(words[0])
		if err != nil {
			return Program{}, err
		}
		p.Path, p.Args = path, words
	}
	abs, err := filepath.Abs(p.Path)
	if err != nil {
		return Program{}, fmt.Errorf("%s: %w", result.Printable(p.Args[0]), err)
	}
	p.Path = abs
	return p, nil
}

// lookPath is exec.LookPath with errors a person can act on.
func lookPath(name string) (string, error) {
	path, err := exec.LookPath(name)
	shown := result.Printable(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, exec.ErrDot):
		return "", fmt.Errorf("%s is found only through a relative directory in $PATH: write ./%s", shown, shown)
	case !strings.Contains(name, "/"):
		hint := ""
		if strings.Contains(name, "=") {
			hint = " (a variable assignment needs --shell, or env)"
		}
		return "", fmt.Errorf("%s: command not found in $PATH%s", shown, hint)
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: no such file", shown)
	case errors.Is(err, syscall.EISDIR):
		return "", fmt.Errorf("%s: is a directory", shown)
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("%s: not executable (no permission to execute it)", shown)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // its message holds the name raw
	}
	return "", fmt.Errorf("%s: %w", shown, err)
}

// Description is how the result describes the program: what is executed,
// written so a shell would read it back ("/usr/bin/sleep 0.01",
// "/usr/bin/sh -c 'make -j4'"), as Shown.
func (p Program) Description() string {
	return Shown(Join(append([]string{p.Path}, p.Args[1:]...)))
}

// job is a run of p.
func (p Program) job(input string, show bool) Job {
	return Job{Line: p.Line, Path: p.Path, Args: p.Args, Input: input, ShowOutput: show}
}

// checkInput says whether the file given as every run's stdin can be
// read, before anything runs.
func checkInput(path string) error {
	if path == "" {
		return nil
	}
	f, err := openInput(path)
	if err != nil {
		return err
	}
	f.Close()
	return nil
}

// openInput opens the file every run reads as stdin. It never waits: a
// FIFO with no writer would hold a plain open(2) until one came, deaf to
// a stop, so the file is opened with O_NONBLOCK (which a run must not
// inherit: the caller clears it) and a FIFO is refused, since every run
// reads its input from the start and a pipe gives it once. Any other
// file is read as it is, devices included (/dev/zero).
func openInput(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // its message holds the name raw
		}
		return nil, fmt.Errorf("--input %s: %w", result.Printable(path), err)
	}
	st, err := f.Stat()
	switch {
	case err != nil:
	case st.IsDir():
		err = errors.New("is a directory")
	case st.Mode()&fs.ModeNamedPipe != 0:
		err = errors.New("is a FIFO (a named pipe): every run reads its input from the start, and a pipe gives it once; give a regular file")
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--input %s: %w", result.Printable(path), err)
	}
	return f, nil
}
