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
		return Program{}, fmt.Errorf("%s: %w", p.Args[0], err)
	}
	p.Path = abs
	return p, nil
}

// lookPath is exec.LookPath with errors a person can act on.
func lookPath(name string) (string, error) {
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, exec.ErrDot):
		return "", fmt.Errorf("%s is found only through a relative directory in $PATH: write ./%s", name, name)
	case !strings.Contains(name, "/"):
		hint := ""
		if strings.Contains(name, "=") {
			hint = " (a variable assignment needs --shell, or env)"
		}
		return "", fmt.Errorf("%s: command not found in $PATH%s", name, hint)
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: no such file", name)
	case errors.Is(err, syscall.EISDIR):
		return "", fmt.Errorf("%s: is a directory", name)
	case errors.Is(err, fs.ErrPermission):
		return "", fmt.Errorf("%s: not executable (no permission to execute it)", name)
	}
	return "", fmt.Errorf("%s: %w", name, err)
}

// Description is how the result describes the program: what is executed,
// written so a shell would read it back ("/usr/bin/sleep 0.01",
// "/usr/bin/sh -c 'make -j4'").
func (p Program) Description() string {
	return Join(append([]string{p.Path}, p.Args[1:]...))
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
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("--input %s: %w", path, err)
	}
	st, err := f.Stat()
	f.Close()
	if err == nil && st.IsDir() {
		return fmt.Errorf("--input %s: is a directory", path)
	}
	return nil
}
