package asm

import (
	"debug/elf"
	"debug/gosym"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// image is what benchy knows of its own executable: function sizes and data
// symbol names from the ELF symbol table, or function bounds from
// .gopclntab when the binary is stripped. It is read once per process.
type image struct {
	syms []elf.Symbol // functions and data objects, sorted by Value
	tab  *gosym.Table // only when there is no symbol table
	// bias is added to a file address to get the address in memory; it
	// is not zero for position-independent executables.
	bias uint64
	err  error
}

var (
	imageOnce sync.Once
	self      image
)

// loadImage reads /proc/self/exe once.
func loadImage() *image {
	imageOnce.Do(func() { self = readImage("/proc/self/exe") })
	return &self
}

// biasProbe is a function whose address in memory and in the file are
// compared to find the load bias.
func biasProbe() {}

func readImage(path string) image {
	f, err := elf.Open(path)
	if err != nil {
		return image{err: fmt.Errorf("reading own executable: %w", err)}
	}
	defer f.Close()
	probe := runtime.FuncForPC(reflect.ValueOf(biasProbe).Pointer())
	probeName, probePC := probe.Name(), uint64(probe.Entry())

	var im image
	syms, err := elfSymbols(f)
	if err == nil {
		for _, s := range syms {
			if s.Name == probeName && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
				im.syms, im.bias = syms, probePC-s.Value
				return im
			}
		}
		// symbols without ours: fall back as if stripped
	}
	// Stripped (-ldflags=-s): the runtime's own table is still there.
	tab, err := readPclntab(f, nil)
	if err != nil {
		return image{err: fmt.Errorf("own executable has no symbol table and %w", err)}
	}
	pf := tab.LookupFunc(probeName)
	if pf == nil {
		return image{err: fmt.Errorf(".gopclntab has no %s", probeName)}
	}
	im.tab = tab
	im.bias = probePC - pf.Entry
	return im
}

// funcEnd returns the first address after the function at entry (an
// address in memory), and where that came from. It looks the function up by
// address: the runtime abbreviates the names of generic functions
// ("slices.Sort[...]"), the symbol table does not.
func funcEnd(entry uint64) (uint64, string, error) {
	im := loadImage()
	if im.err != nil {
		return 0, "", im.err
	}
	file := entry - im.bias
	if im.tab == nil {
		if s, ok := funcStartingAt(im.syms, file); ok {
			return entry + s.Size, "elf symbols", nil
		}
		return 0, "", fmt.Errorf("asm: no function symbol at %#x", entry)
	}
	f := im.tab.PCToFunc(file)
	if f == nil || f.Entry != file || f.End <= f.Entry {
		return 0, "", fmt.Errorf("asm: no function at %#x in .gopclntab", entry)
	}
	return entry + (f.End - f.Entry), "gopclntab", nil
}

// symbolize names an address for the disassembler: functions through the
// runtime (which works in stripped binaries), data through the symbol table.
func symbolize(addr uint64) (string, uint64) {
	if f := runtime.FuncForPC(uintptr(addr)); f != nil && addr != 0 {
		return f.Name(), uint64(f.Entry())
	}
	im := loadImage()
	if len(im.syms) == 0 {
		return "", 0
	}
	s, ok := symbolAt(im.syms, addr-im.bias)
	if !ok {
		return "", 0
	}
	return s.Name, s.Value + im.bias
}

// textBytes returns the code in [entry, end) straight from memory: the text
// of the running program is mapped readable, and it is exactly what runs.
func textBytes(entry, end uint64) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&entry))
	return unsafe.Slice((*byte)(p), end-entry)
}
