package asm

import (
	"cmp"
	"debug/elf"
	"debug/gosym"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// This file reads what an ELF executable says about its code, for both the
// running program (locate.go) and a file that is not running (file.go): the
// symbol table, with the size of every function, and .gopclntab, the table
// the Go runtime itself uses for function names and source lines, which
// survives stripping.

// elfSymbols returns the functions and data objects of the symbol table,
// sorted by address. It returns elf.ErrNoSymbols for a stripped binary.
func elfSymbols(f *elf.File) ([]elf.Symbol, error) {
	all, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	var syms []elf.Symbol
	for _, s := range all {
		if t := elf.ST_TYPE(s.Info); t == elf.STT_FUNC || t == elf.STT_OBJECT {
			syms = append(syms, s)
		}
	}
	// At one address the largest symbol goes last, so that symbolAt finds
	// the function that starts at the beginning of .text rather than the
	// zero-size marker runtime.text beside it.
	slices.SortFunc(syms, func(a, b elf.Symbol) int {
		return cmp.Or(cmp.Compare(a.Value, b.Value), cmp.Compare(a.Size, b.Size))
	})
	return syms, nil
}

// readPclntab parses the .gopclntab section. Its addresses are relative to
// the start of Go's code, which is runtime.text when the symbol table has
// it (an externally linked binary may put C code first) and otherwise the
// start of .text.
func readPclntab(f *elf.File, syms []elf.Symbol) (*gosym.Table, error) {
	text := f.Section(".text")
	pcln := f.Section(".gopclntab")
	if pcln == nil {
		pcln = f.Section(".data.rel.ro.gopclntab") // position-independent
	}
	if pcln == nil || text == nil {
		return nil, errors.New("no .gopclntab section")
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, fmt.Errorf("reading .gopclntab: %w", err)
	}
	start := text.Addr
	for _, s := range syms {
		if s.Name == "runtime.text" {
			start = s.Value
			break
		}
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, start))
	if err != nil {
		return nil, fmt.Errorf("parsing .gopclntab: %w", err)
	}
	return tab, nil
}

// funcStartingAt returns the function symbol with a size that starts at
// addr.
func funcStartingAt(syms []elf.Symbol, addr uint64) (elf.Symbol, bool) {
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Value >= addr })
	for ; i < len(syms) && syms[i].Value == addr; i++ {
		if s := syms[i]; elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 {
			return s, true
		}
	}
	return elf.Symbol{}, false
}

// symbolAt returns the symbol that holds addr. A symbol of size zero (a
// marker such as runtime.data) holds only its own address.
func symbolAt(syms []elf.Symbol, addr uint64) (elf.Symbol, bool) {
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Value > addr }) - 1
	if i < 0 {
		return elf.Symbol{}, false
	}
	s := syms[i]
	if addr >= s.Value+max(s.Size, 1) {
		return elf.Symbol{}, false
	}
	return s, true
}
