package gotest

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Program is a digest of what the test binary runs: the bytes and
// addresses of its machine code and data, and every file beside the
// package's Go sources that a benchmark may read at run time (testdata).
// Two commits whose test binaries have the same Program run the same
// program, so a benchmark cannot be faster in one than in the other,
// whatever a measurement reads: a bisection takes the level of one for
// the other instead of measuring it (many commits change only comments,
// documentation, or packages the test does not link).
//
// What it leaves out is what differs between two builds of the same code
// in different directories or with comments moved: the build IDs, the
// file and line tables (.gopclntab: the same tables of the same code,
// with the lines and paths in them changed and the rest moved, read for
// stack traces and when a stack is walked; and the read-only sections
// that move with its size) and the debugging sections.
func (b *Binary) Program() (string, error) {
	h := sha256.New()
	if err := hashCode(h, b.Path); err != nil {
		return "", err
	}
	if err := hashFiles(h, b.Package.Dir); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashCode writes to h what the program at path runs: each section loaded
// into memory, by its name, address and bytes, except the line tables and
// what their size moves. A file that is not ELF is written whole.
//
// The line tables (.gopclntab) grow with the length of the build's
// directory and with every line a comment adds, and the read-only
// sections the linker puts after them in the same segment (.typelink,
// .itablink: offsets the runtime reads once, at start) move with them:
// those are written by name, size and bytes, not by address; the module's
// table of where its tables are (.go.module, the runtime's moduledata) by
// name, address and size, not its bytes. Everything else that table holds
// is where the code and data are, and those are written with their
// addresses: a program whose data moved (the line tables grew across a
// page) may run differently.
func hashCode(h io.Writer, path string) error {
	f, err := elf.Open(path)
	var fe *elf.FormatError
	if errors.As(err, &fe) {
		return hashFile(h, path)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	afterLines := false // past .gopclntab, in its read-only segment
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 || s.Type == elf.SHT_NOTE {
			continue // not loaded, or the build IDs
		}
		readOnly := s.Flags&(elf.SHF_WRITE|elf.SHF_EXECINSTR) == 0
		afterLines = afterLines && readOnly
		switch {
		case s.Name == ".gopclntab":
			fmt.Fprintf(h, "%s\n", s.Name)
			afterLines = true
			continue
		case s.Name == ".go.module":
			fmt.Fprintf(h, "%s %x %x\n", s.Name, s.Addr, s.Size)
			continue
		case afterLines:
			fmt.Fprintf(h, "%s %x\n", s.Name, s.Size)
		default:
			fmt.Fprintf(h, "%s %x %x\n", s.Name, s.Addr, s.Size)
		}
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		if _, err := io.Copy(h, s.Open()); err != nil {
			return fmt.Errorf("%s: reading %s: %w", path, s.Name, err)
		}
	}
	return nil
}

// hashFiles writes to h every file under dir that is not Go source, by
// its path under dir and its bytes: what a benchmark may open at run time.
func hashFiles(h io.Writer, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := strings.HasPrefix(d.Name(), ".") // .git, an editor's files
		if d.IsDir() && path != dir && (hidden || d.Name() == "vendor") {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() || hidden || strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "file %q\n", rel)
		return hashFile(h, path)
	})
}

// hashFile writes the bytes of the file at path to h.
func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}
