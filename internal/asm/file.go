package asm

import (
	"cmp"
	"debug/elf"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// FuncNames lists the function symbols of the executable whose names have
// the given prefix, in address order (so a caller can find the closures of
// a function: "pkg.BenchmarkSum.func1", "pkg.BenchmarkSum.func2", ...).
// It reads the executable of any architecture.
func FuncNames(path, prefix string) ([]string, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.FuncNames(prefix), nil
}

// A File is an executable opened to read many of its functions: its symbol
// table is read once, and its source lines once, when a function is first
// inspected. They are what costs: a test binary's lines take longer to read
// than any one function takes to decode. A File is not safe for concurrent
// use; Close it when done.
type File struct {
	e *exeFile
}

// OpenFile opens the executable at path, of any architecture, and reads
// its symbol table (its .gopclntab when it is stripped).
func OpenFile(path string) (*File, error) {
	e, err := openExe(path)
	if err != nil {
		return nil, err
	}
	return &File{e: e}, nil
}

// Close closes the executable.
func (f *File) Close() error { return f.e.f.Close() }

// Inspect disassembles the function named name (a Go symbol name as the
// linker writes it, e.g. "example.com/m/pkg.BenchmarkSum.func1") in the
// open executable, and the functions called directly from its loops.
//
// The executable is read, not run, so a test binary built by "go test -c"
// can be checked before it is timed, and one built for the other
// architecture too. It must be an ELF file (Linux, the BSDs), for amd64 or
// arm64, stripped or not. Its addresses are those of the file. Names are
// the symbol table's, which spells out what the runtime, and so the
// package's Inspect, abbreviates: "pkg.F[go.shape.int]" for "pkg.F[...]",
// and "runtime.morestack.abi0" for an assembly function; a stripped file
// has only the runtime's table, with the type arguments but no ".abi0".
func (f *File) Inspect(name string) (*Listing, error) {
	e := f.e
	if _, ok := newDecoders[e.arch]; !ok {
		return nil, &archError{path: e.path, machine: e.f.Machine}
	}
	entry, err := e.lookup(name)
	if err != nil {
		return nil, err
	}
	if err := e.readLines(); err != nil {
		return nil, err
	}
	return inspect(e, e.arch, entry)
}

// FuncNames is FuncNames of the open executable.
func (f *File) FuncNames(prefix string) []string {
	return withPrefix(f.e.funcNames(), prefix)
}

// archError says that an executable is for a machine benchy cannot decode.
// It is ErrUnsupportedArch for errors.Is, with the file's own machine in
// its message (ErrUnsupportedArch names the machine benchy runs on).
type archError struct {
	path    string
	machine elf.Machine
}

func (e *archError) Error() string {
	return fmt.Sprintf("asm: %s is code for %v: benchy asm supports amd64 and arm64", e.path, e.machine)
}

func (e *archError) Is(target error) bool { return target == ErrUnsupportedArch }

// maxSimilar bounds the names a "not found" error suggests.
const maxSimilar = 5

// notFound says that there is no function called name, and suggests those
// in the same package or of the same type (the names that share the part
// before the last dot), or failing that the names that end like it (the
// package path left out). The names that begin most like it come first.
func (e *exeFile) notFound(name string) error {
	msg := fmt.Sprintf("asm: no function %s in %s", name, e.path)
	all := e.funcNames()
	var similar []string
	if p := scope(name); p != "" {
		similar = withPrefix(all, p)
	}
	if len(similar) == 0 {
		for _, n := range all {
			if strings.HasSuffix(n, "/"+name) || strings.HasSuffix(n, "."+name) {
				similar = append(similar, n)
			}
		}
	}
	if len(similar) == 0 {
		return errors.New(msg)
	}
	slices.SortStableFunc(similar, func(a, b string) int {
		return cmp.Compare(commonPrefix(b, name), commonPrefix(a, name))
	})
	more := ""
	if len(similar) > maxSimilar {
		more = fmt.Sprintf(" (and %d more)", len(similar)-maxSimilar)
		similar = similar[:maxSimilar]
	}
	return fmt.Errorf("%s; similar: %s%s", msg, strings.Join(similar, ", "), more)
}

// scope returns a name up to and including its last dot outside the
// package path and type arguments: "example.com/m.BenchmarkX.func1" ->
// "example.com/m.BenchmarkX.".
func scope(name string) string {
	head, _, _ := strings.Cut(name, "[")
	slash := strings.LastIndex(head, "/")
	dot := strings.LastIndex(head[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return head[:slash+1+dot+1]
}

func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
