// Package gotest measures a Go package's own testing.B benchmarks the
// benchy way, without changing a line of the user's code: each package's
// test binary is built with `go test -c`, its test files rewritten through
// -overlay so every benchmark runs on a pinned thread (Rewrite,
// helperSource); testing's own ramp calibrates one iteration count per
// benchmark; and a target's sample batch is one process of the binary
// running the benchmark a few times at that count. The process is the
// unit: each has its own heap and layout, and benchy compares process
// medians (see compare.Runs).
package gotest

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
)

// Package is a Go package with test files, as go list describes it.
type Package struct {
	ImportPath   string
	Dir          string
	Name         string
	TestGoFiles  []string
	XTestGoFiles []string
	Module       *struct{ Path, Dir string }
	Standard     bool // a package of Go's standard library: no module
	Error        *struct{ Err string }
}

// UsageError is a problem with what the user asked for (a package that
// does not exist, a build error, no benchmark): nothing was measured.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// List resolves the package patterns in dir (go list, with the build
// flags) to the packages with test files; a package named alone without
// any is an error.
func List(ch *Children, dir string, patterns, buildFlags []string) ([]Package, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,Name,TestGoFiles,XTestGoFiles,Module,Standard,Error"}, buildFlags...)
	// After "--" a pattern that begins with '-' is a pattern (go list
	// refuses it), never a flag.
	cmd := exec.Command("go", append(append(args, "--"), patterns...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := ch.run(cmd); err != nil {
		return nil, stopOr(err, usagef("go list %s: %s", strings.Join(patterns, " "), firstLine(stderr.String(), err)))
	}
	var pkgs []Package
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var p Package
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, usagef("%s", firstLine(p.Error.Err, nil))
		}
		if p.Module == nil && !p.Standard {
			return nil, usagef("%s is not in a module: benchy gotest builds with modules (go mod init)", p.Dir)
		}
		pkgs = append(pkgs, p)
	}
	// A pattern of many packages (./...) takes those with test files; a
	// package named alone must have some.
	var tested []Package
	for _, p := range pkgs {
		if len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 {
			tested = append(tested, p)
		}
	}
	switch {
	case len(pkgs) == 0:
		return nil, usagef("no package matches %s", strings.Join(patterns, " "))
	case len(pkgs) == 1 && len(tested) == 0:
		return nil, usagef("%s has no test files, so no benchmarks", pkgs[0].ImportPath)
	case len(tested) == 0:
		return nil, usagef("none of the %d packages of %s has test files, so no benchmarks", len(pkgs), strings.Join(patterns, " "))
	}
	return tested, nil
}

// firstLine is the first line of a go command's error output.
func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" && err != nil {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimPrefix(line, "go: ")
}

// A Binary is a package's test binary, built with every benchmark wrapped.
type Binary struct {
	Package Package
	Path    string
	// Debug, when not empty, says the binary was built to be debugged or
	// instrumented (-N -l, -race, -cover, -asan, -msan): it measures
	// another program than the one that ships.
	Debug string

	codes map[string][]finding.Finding // codeFindings by function
	src   *sources                     // the source files codeFindings read
}

// codeFindings are the findings on the machine code of the benchmark
// function fn, read from the binary once per function: the sub-benchmarks
// of one table loop share a closure.
func (b *Binary) codeFindings(fn string) []finding.Finding {
	fs, ok := b.codes[fn]
	if !ok {
		fs = b.readCodeFindings(fn)
		if b.codes == nil {
			b.codes = map[string][]finding.Finding{}
		}
		b.codes[fn] = fs
	}
	return slices.Clone(fs)
}

// BuildError is a build that failed: the compiler's lines (pointing at the
// user's files), then one line.
type BuildError struct {
	Package string
	Output  string
	Hint    string // what may be the cause, when benchy knows more than the compiler
}

func (e *BuildError) Error() string {
	msg := fmt.Sprintf("%s: the test binary does not build (the compiler's messages are above)", e.Package)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// BuildWith builds p's test binary into dir as o says, with its test
// files rewritten (through an overlay: the user's files are only read)
// and the helper added to every test package that has benchmarks. It
// returns an error without building when p has no benchmark at all, and
// context.Canceled when the build was stopped (its messages are then those of a
// killed compiler, not the user's errors).
func BuildWith(ch *Children, p Package, dir string, buildFlags []string, o BuildOptions) (*Binary, error) {
	ov, err := writeOverlay(p, dir, o)
	if err != nil {
		return nil, err
	}
	ovPath := filepath.Join(dir, "overlay-"+strings.ReplaceAll(p.ImportPath, "/", "_")+".json")
	if err := ov.write(ovPath); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, strings.ReplaceAll(p.ImportPath, "/", "_")+".test")
	// -vet=off: go test -c runs go vet's checks before it links, which
	// measure nothing and would refuse to build code that compiles.
	args := append([]string{"test", "-c", "-vet=off", "-o", bin, "-overlay", ovPath}, buildFlags...)
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = p.Dir
	// go's own temporary directory ($WORK) goes in dir, which benchy
	// removes however the build ends: a go stopped by a signal (Ctrl-C,
	// then SIGKILL after the grace) leaves its $WORK behind otherwise, in
	// the system's temporary directory, where nothing removes it.
	gotmp := filepath.Join(dir, "gotmp")
	if err := os.MkdirAll(gotmp, 0o700); err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), "GOTMPDIR="+gotmp)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := ch.run(cmd); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, &BuildError{Package: p.ImportPath, Output: ov.userNames(out.String(), p.Dir)}
	}
	b := &Binary{Package: p, Path: bin}
	b.Debug = debugBuild(bin)
	return b, nil
}

// An overlay is go build's -overlay: each file of the package the build
// reads instead, by the file's path.
type overlay map[string]string

// writeOverlay writes p's test files that have benchmarks, rewritten, the
// helper of each test package that has one, and with o.Profile the
// profiler, under dir; an error without benchmarks in p.
func writeOverlay(p Package, dir string, o BuildOptions) (overlay, error) {
	ov := overlay{}
	names := map[string]bool{} // the package names that got a benchmark
	var firstErr error
	for _, name := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		src, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil {
			return nil, err
		}
		out, pkg, changed, err := Rewrite(filepath.Join(p.Dir, name), src)
		if err != nil {
			firstErr = cmpErr(firstErr, err) // the compiler says it better: build anyway
			continue
		}
		if !changed {
			continue
		}
		if err := ov.add(p, dir, name, out); err != nil {
			return nil, err
		}
		names[pkg] = true
	}
	if len(names) == 0 && firstErr == nil {
		return nil, usagef("%s has no benchmarks (no func BenchmarkXxx(*testing.B) in its test files)", p.ImportPath)
	}
	for pkg := range names {
		if err := ov.add(p, dir, strings.TrimSuffix(helperFile, "_test.go")+"_"+pkg+"_test.go", helper(p, pkg)); err != nil {
			return nil, err
		}
	}
	if o.Profile {
		for pkg, src := range profilers(p, names) {
			if err := ov.add(p, dir, strings.TrimSuffix(profilerFile, "_test.go")+"_"+pkg+"_test.go", src); err != nil {
				return nil, err
			}
		}
	}
	return ov, nil
}

// add writes src under dir as the file name of p's directory.
func (ov overlay) add(p Package, dir, name string, src []byte) error {
	tmp := filepath.Join(dir, "src", p.ImportPath, name)
	if err := writeFile(tmp, src); err != nil {
		return err
	}
	ov[filepath.Join(p.Dir, name)] = tmp
	return nil
}

// write writes the overlay's file for go build -overlay to path.
func (ov overlay) write(path string) error {
	b, err := json.Marshal(map[string]any{"Replace": map[string]string(ov)})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// userNames puts the user's files, in pkgDir, in place of the copies the
// compiler's message msg names, by their full path or relative to pkgDir.
func (ov overlay) userNames(msg, pkgDir string) string {
	for orig, tmp := range ov {
		msg = strings.ReplaceAll(msg, tmp, orig)
		if rel, err := filepath.Rel(pkgDir, tmp); err == nil {
			o, _ := filepath.Rel(pkgDir, orig)
			msg = strings.ReplaceAll(msg, rel, o)
		}
	}
	return msg
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// debugBuild says how the binary at path was built to be debugged or
// instrumented, from its build information; "" for a normal build.
func debugBuild(path string) string {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return ""
	}
	var why []string
	for _, s := range bi.Settings {
		switch {
		case s.Key == "-gcflags" && (hasFlag(s.Value, "-N") || hasFlag(s.Value, "-l")):
			why = append(why, "-gcflags="+s.Value+" (optimisations or inlining off)")
		case (s.Key == "-race" || s.Key == "-cover" || s.Key == "-asan" || s.Key == "-msan") && s.Value == "true":
			why = append(why, s.Key)
		}
	}
	return strings.Join(why, ", ")
}

// hasFlag reports whether a -gcflags value holds flag ("all=-N -l" has
// -N and -l).
func hasFlag(value, flag string) bool {
	for _, f := range strings.Fields(value) {
		if _, rest, ok := strings.Cut(f, "="); ok {
			f = rest
		}
		if f == flag {
			return true
		}
	}
	return false
}

// BuildOptions say what a test binary is built with besides the helper.
type BuildOptions struct {
	// Profile adds the profiler (profilers) that --profile needs.
	Profile bool
}

// profilerFile is the name of the file --profile adds.
const profilerFile = "zz_benchy_profiler_test.go"
