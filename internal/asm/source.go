package asm

import (
	"fmt"
	"runtime"
)

// A codeSource is where the code of a listing comes from: the running
// program (process) or an executable file that is not running (exeFile).
// Decoding, finding loops and summing them up are the same for both; only
// the bytes, the bounds, the names and the source lines are looked up in
// different places.
type codeSource interface {
	// function returns the name of the function that starts at entry,
	// the first address after it, and where that end came from ("elf
	// symbols" or "gopclntab").
	function(entry uint64) (name string, end uint64, bounds string, err error)
	// code returns the bytes of [entry, end).
	code(entry, end uint64) ([]byte, error)
	// fileLine returns the source position of the instruction at pc, or
	// "", 0 when there is none.
	fileLine(pc uint64) (file string, line int)
	// funcName names the function that holds pc (the target of a call),
	// or returns "".
	funcName(pc uint64) string
	// symbolize names the symbol that holds addr and returns its start,
	// for the disassembler's text: see x86asm.SymLookup.
	symbolize(addr uint64) (name string, base uint64)
}

// process is the running program. Addresses are addresses in memory; names
// and lines come from the runtime, which knows them even when the binary
// is stripped, and sizes from the executable file (locate.go).
type process struct{}

func (process) function(entry uint64) (string, uint64, string, error) {
	rf := runtime.FuncForPC(uintptr(entry))
	if rf == nil {
		return "", 0, "", fmt.Errorf("asm: no function at %#x", entry)
	}
	if uint64(rf.Entry()) != entry {
		return "", 0, "", fmt.Errorf("asm: %#x is inside %s, not at its entry (a method value?)", entry, rf.Name())
	}
	end, how, err := funcEnd(entry)
	return rf.Name(), end, how, err
}

// code reads the code from memory: see textBytes.
func (process) code(entry, end uint64) ([]byte, error) { return textBytes(entry, end), nil }

func (process) fileLine(pc uint64) (string, int) {
	rf := runtime.FuncForPC(uintptr(pc))
	if rf == nil {
		return "", 0
	}
	file, line := rf.FileLine(uintptr(pc))
	if file == "?" {
		return "", 0
	}
	return file, line
}

func (process) funcName(pc uint64) string {
	if rf := runtime.FuncForPC(uintptr(pc)); rf != nil {
		return rf.Name()
	}
	return ""
}

func (process) symbolize(addr uint64) (string, uint64) { return symbolize(addr) }
