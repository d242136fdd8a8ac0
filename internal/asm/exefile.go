package asm

import (
	"debug/elf"
	"debug/gosym"
	"errors"
	"fmt"
)

// exeFile is an executable file that is not running. Its addresses are
// used as they are: nothing is loaded, so there is no load bias.
type exeFile struct {
	path string
	arch string // as GOARCH says it, or "" when benchy cannot decode it
	f    *elf.File
	syms []elf.Symbol // functions and data objects by address; nil if stripped
	// tab is .gopclntab: the source lines, and the functions' bounds and
	// names when the binary is stripped. It is read at once only then:
	// listing names needs no lines.
	tab *gosym.Table
}

// openExe opens the ELF file at path and reads its symbol table, or its
// .gopclntab when it is stripped.
func openExe(path string) (*exeFile, error) {
	f, err := elf.Open(path)
	if err != nil {
		if _, ok := errors.AsType[*elf.FormatError](err); ok {
			return nil, fmt.Errorf("asm: %s is not an ELF executable: %w", path, err)
		}
		return nil, fmt.Errorf("asm: %w", err)
	}
	e := &exeFile{path: path, f: f}
	switch {
	case f.Machine == elf.EM_X86_64 && f.Class == elf.ELFCLASS64:
		e.arch = "amd64"
	case f.Machine == elf.EM_AARCH64:
		e.arch = "arm64"
	}
	e.syms, err = elfSymbols(f)
	if errors.Is(err, elf.ErrNoSymbols) {
		if e.tab, err = readPclntab(f, nil); err != nil {
			err = fmt.Errorf("no symbol table and %w", err)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("asm: %s: %w (not a Go program?)", path, err)
	}
	return e, nil
}

// readLines reads .gopclntab, if openExe did not, for the source lines.
func (e *exeFile) readLines() error {
	if e.tab != nil {
		return nil
	}
	tab, err := readPclntab(e.f, e.syms)
	if err != nil {
		return fmt.Errorf("asm: %s: %w (not a Go program?)", e.path, err)
	}
	e.tab = tab
	return nil
}

// funcNames returns the names of all functions, in address order.
func (e *exeFile) funcNames() []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if e.syms != nil {
		for _, s := range e.syms {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
				add(s.Name)
			}
		}
		return names
	}
	for _, f := range e.tab.Funcs {
		add(f.Name)
	}
	return names
}

// lookup returns the entry of the function called name.
func (e *exeFile) lookup(name string) (uint64, error) {
	if e.syms == nil {
		f := e.tab.LookupFunc(name)
		switch {
		case f == nil:
			return 0, e.notFound(name)
		case f.End <= f.Entry:
			return 0, fmt.Errorf("asm: %s has size 0 in .gopclntab of %s: there is no code to show", name, e.path)
		}
		return f.Entry, nil
	}
	found := false
	for _, s := range e.syms {
		if s.Name != name || elf.ST_TYPE(s.Info) != elf.STT_FUNC {
			continue
		}
		if s.Size > 0 {
			return s.Value, nil
		}
		found = true
	}
	if found {
		// runtime.text and runtime.etext are such: marks, not functions.
		return 0, fmt.Errorf("asm: %s has size 0 in the symbol table of %s: it marks an address, there is no code to show", name, e.path)
	}
	return 0, e.notFound(name)
}

// The methods of a codeSource, for a file: bounds and names from the symbol
// table, or from .gopclntab when there is none; lines from .gopclntab; code
// from the file.

func (e *exeFile) function(entry uint64) (string, uint64, string, error) {
	if e.syms != nil {
		if s, ok := funcStartingAt(e.syms, entry); ok {
			return s.Name, entry + s.Size, "elf symbols", nil
		}
		return "", 0, "", fmt.Errorf("asm: no function symbol at %#x in %s", entry, e.path)
	}
	f := e.tab.PCToFunc(entry)
	if f == nil || f.Entry != entry || f.End <= f.Entry {
		return "", 0, "", fmt.Errorf("asm: no function at %#x in .gopclntab of %s", entry, e.path)
	}
	return f.Name, f.End, "gopclntab", nil
}

// code reads [entry, end) from the section that holds it in the file.
func (e *exeFile) code(entry, end uint64) ([]byte, error) {
	for _, s := range e.f.Sections {
		if s.Type != elf.SHT_PROGBITS || s.Flags&elf.SHF_EXECINSTR == 0 ||
			entry < s.Addr || end > s.Addr+s.Size {
			continue
		}
		b := make([]byte, end-entry)
		if _, err := s.ReadAt(b, int64(entry-s.Addr)); err != nil {
			return nil, fmt.Errorf("asm: reading %s at %#x: %w", e.path, entry, err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("asm: no code section of %s holds %#x-%#x", e.path, entry, end)
}

func (e *exeFile) fileLine(pc uint64) (string, int) {
	file, line, fn := e.tab.PCToLine(pc)
	if fn == nil || file == "" || file == "?" {
		return "", 0
	}
	return file, line
}

func (e *exeFile) funcName(pc uint64) string {
	if e.syms != nil {
		if s, ok := symbolAt(e.syms, pc); ok && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			return s.Name
		}
		return ""
	}
	if f := e.tab.PCToFunc(pc); f != nil {
		return f.Name
	}
	return ""
}

// symbolize names functions and data from the symbol table. A stripped
// file has names only for functions, in .gopclntab, like a stripped
// running program.
func (e *exeFile) symbolize(addr uint64) (string, uint64) {
	if addr == 0 {
		return "", 0
	}
	if e.syms == nil {
		if f := e.tab.PCToFunc(addr); f != nil {
			return f.Name, f.Entry
		}
		return "", 0
	}
	if s, ok := symbolAt(e.syms, addr); ok {
		return s.Name, s.Value
	}
	return "", 0
}
