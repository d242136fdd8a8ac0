package sysread

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestGoCPUInfoName(t *testing.T) {
	long := strings.Repeat("flags\t\t: fpu vme de pse tsc msr pae mce\n", 13) // 520 bytes
	for _, tt := range []struct {
		name, cpuinfo, want string
	}{
		{"x86", "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2096.007\n", "AMD EPYC @ 2096.007MHz"},
		{"frequency in the name", "model name\t: Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz\ncpu MHz\t\t: 800.000\n", "Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz"},
		{"no MHz", "processor\t: 0\nmodel name\t: ARMv7 Processor rev 4 (v7l)\n", "ARMv7 Processor rev 4 (v7l)"},
		{"Model Name", "Model Name: RISC-V U74\n", "RISC-V U74"},
		{"trailing spaces kept", "model name\t: Oxide  \n", "Oxide  "},
		{"arm64 has none", "processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n", ""},
		{"beyond 512 bytes", long + "model name\t: late\n", ""},
		{"empty", "", ""},
	} {
		if got := goCPUInfoName([]byte(tt.cpuinfo)); got != tt.want {
			t.Errorf("%s: goCPUInfoName = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// BenchmarkCPUBrandHeader does nothing: TestCPUBrandIsGoTests runs it in
// a child test process so that testing prints its benchmark header.
func BenchmarkCPUBrandHeader(b *testing.B) {
	for b.Loop() {
	}
}

// The brand is what testing itself prints as "cpu:" on this machine,
// byte for byte, or unknown where testing prints no cpu line.
func TestCPUBrandIsGoTests(t *testing.T) {
	out, err := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkCPUBrandHeader$", "-test.benchtime=1x").CombinedOutput()
	if err != nil {
		t.Fatalf("the benchmark header: %v\n%s", err, out)
	}
	var header []string
	want, printed := "", false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ": ")
		if strings.HasPrefix(k, "Benchmark") {
			break
		}
		header = append(header, k)
		if k == "cpu" {
			want, printed = v, true
		}
	}
	if len(header) < 2 || header[0] != "goos" {
		t.Fatalf("no benchmark header in the child's output:\n%s", out)
	}
	got := readCPUBrand(FS("/"), true)
	if brand, ok := got.Get(); ok != printed || brand != want {
		t.Errorf("brand %q (%s), testing's cpu line %q (printed: %v)", brand, got, want, printed)
	}
	if tree := readCPUBrand(FS("/"), false); tree.Known() {
		t.Errorf("a tree's brand is known: %q", tree.Value)
	}
}
