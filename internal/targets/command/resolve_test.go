package command

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX system")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "prog")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("data"), 0o644)

	p, err := Resolve(Quote(script)+" 'a b'", false)
	if err != nil || p.Path != script || !slices.Equal(p.Args, []string{script, "a b"}) {
		t.Errorf("Resolve(script) = %+v, %v", p, err)
	}
	if d := p.Description(); d != script+" 'a b'" {
		t.Errorf("Description = %q", d)
	}
	p, err = Resolve("sleep 0.01", false)
	if err != nil || !filepath.IsAbs(p.Path) || p.Args[0] != "sleep" {
		t.Errorf("Resolve(sleep) = %+v, %v", p, err)
	}
	p, err = Resolve("ls | wc -l", true)
	if err != nil || !slices.Equal(p.Args, []string{"sh", "-c", "ls | wc -l"}) || !strings.HasSuffix(p.Description(), "sh -c 'ls | wc -l'") {
		t.Errorf("Resolve(shell) = %+v, %v", p, err)
	}
	for _, tc := range []struct {
		line  string
		shell bool
		err   string
	}{
		{"no-such-program-benchy", false, "no-such-program-benchy: command not found in $PATH"},
		{"FOO=1 prog", false, "variable assignment needs --shell"},
		{filepath.Join(dir, "missing"), false, "missing: no such file"},
		{plain, false, "plain: not executable"},
		{dir, false, "is a directory"},
		{"ls | wc", false, "use --shell"},
		{"'unbalanced", false, "unterminated single quote"},
		{"", false, "empty command"},
		{"  ", true, "empty command"},
	} {
		_, err := Resolve(tc.line, tc.shell)
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Resolve(%q, %v) = %v, want one line with %q", tc.line, tc.shell, err, tc.err)
		}
	}
}

func TestNewChecksEverythingFirst(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs a POSIX system")
	}
	f := &FakeExecutor{}
	for _, tc := range []struct {
		cfg Config
		err string
	}{
		{Config{Command: "no-such-program-benchy"}, "command not found"},
		{Config{Command: "true", Input: filepath.Join(t.TempDir(), "none")}, "--input"},
		{Config{Command: "true", Input: t.TempDir()}, "is a directory"},
		{Config{Command: "true", Prepare: "   "}, "--prepare: empty command"},
	} {
		tc.cfg.Executor = f
		if _, err := New(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("New(%+v) = %v, want an error with %q", tc.cfg, err, tc.err)
		}
	}
	if _, err := New(context.Background(), Config{Command: "true"}); err == nil {
		t.Error("New without an executor succeeded")
	}
	if log := f.Log(); len(log) != 0 {
		t.Errorf("something ran: %q", log)
	}
}
