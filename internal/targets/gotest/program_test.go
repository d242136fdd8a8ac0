package gotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Two builds of a package in directories of the same length run the same
// program when only a comment moved (shifting every line after it);
// changing what the code does, or a file the benchmark may read, makes
// another program.
func TestProgram(t *testing.T) {
	notUnderRace(t)
	if testing.Short() {
		t.Skip("builds four test binaries")
	}
	t.Parallel()
	const code = "package p\n\n// Sum adds.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"
	const test = "package p\n\nimport \"testing\"\n\nfunc BenchmarkSum(b *testing.B) {\n\tfor b.Loop() {\n\t\tSum([]int{1, 2})\n\t}\n}\n"
	root := t.TempDir()
	// write writes the package into root/name.
	write := func(name, src, data string) string {
		dir := filepath.Join(root, name)
		files := map[string]string{"go.mod": "module example.com/p\n\ngo 1.24\n", "p.go": src, "p_test.go": test, "testdata/in": data}
		for f, s := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	program := func(bin, dir string) string {
		p, err := (&Binary{Path: bin, Package: Package{Dir: dir}}).Program()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// build writes the package and builds its test binary: its program,
	// and the binary's path.
	build := func(name, src, data string) (string, string) {
		dir := write(name, src, data)
		bin := filepath.Join(root, name+".test")
		cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return program(bin, dir), bin
	}
	base, baseBin := build("a", code, "1 2 3\n")
	for _, tt := range []struct {
		name, src string
		same      bool
	}{
		{"b", "// A comment that moves every line.\n\n" + code, true},
		// Built in a directory whose longer path makes the line tables
		// longer (gotest --against builds the old side in a worktree),
		// which moves the sections after them.
		{"a-directory-whose-path-is-much-longer-than-the-first", code, true},
		{"c", code[:len(code)-len("\treturn s\n}\n")] + "\treturn s + 1\n}\n", false},
	} {
		if p, _ := build(tt.name, tt.src, "1 2 3\n"); (p == base) != tt.same {
			t.Errorf("%s: the same program as a: %v, want %v", tt.name, p == base, tt.same)
		}
	}
	// d is a's code with another testdata/in: a's own binary read beside
	// it (a build of d would be a's program but for the file, as b's is)
	// is another program.
	if program(baseBin, write("d", code, "1 2 4\n")) == base {
		t.Errorf("d: a's binary beside other testdata is the same program as a, want another")
	}
}
