package command

import (
	"fmt"
	"strings"
)

// Expanded is one command of an expansion: a command line with every
// {NAME} replaced by one value of each scan.
type Expanded struct {
	// Name is what the result calls it: Command, or, when several
	// expansions share that command line (a parameter used only in
	// --prepare, say), Command followed by its values, "cmd (n=1)".
	Name    string
	Command string
	Params  []Param // one per scan, in the scans' order
	Index   int     // the index of the command line it comes from
}

// Expand replaces the parameters of scans in every command line, once
// for every combination of their values: the cartesian product, in a
// stable order (the command lines in order, then the first scan's values
// slowest, the last's fastest, as nested loops would). Without scans it
// returns the command lines as they are, after checking they refer to no
// parameter. A {NAME} no scan defines is an error, so a typo does not run
// the literal text.
func Expand(commands []string, scans []Scan) ([]Expanded, error) {
	total := 1
	for i, s := range scans {
		if err := checkName(s.Name); err != nil {
			return nil, err
		}
		if len(s.Values) == 0 {
			return nil, fmt.Errorf("parameter %s has no values", s.Name)
		}
		for _, o := range scans[:i] {
			if o.Name == s.Name {
				return nil, fmt.Errorf("parameter %s is defined twice: give each -P and -L a name of its own", s.Name)
			}
		}
		total *= len(s.Values)
		if total*len(commands) > maxValues {
			return nil, fmt.Errorf("the parameter scans make more than %d commands", maxValues)
		}
	}
	var out []Expanded
	for ci, line := range commands {
		for k := range total {
			params := make([]Param, len(scans))
			rest := k
			for i := len(scans) - 1; i >= 0; i-- {
				n := len(scans[i].Values)
				params[i] = Param{Name: scans[i].Name, Value: scans[i].Values[rest%n]}
				rest /= n
			}
			cmd, err := Substitute(line, params)
			if err != nil {
				return nil, err
			}
			out = append(out, Expanded{Name: cmd, Command: cmd, Params: params, Index: ci})
		}
	}
	seen := map[string]int{}
	for _, e := range out {
		seen[e.Command]++
	}
	for i, e := range out {
		if seen[e.Command] > 1 && len(e.Params) > 0 {
			out[i].Name = e.Command + " (" + paramList(e.Params) + ")"
		}
	}
	return out, nil
}

// paramList is "n=1, m=a".
func paramList(ps []Param) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Name + "=" + p.Value
	}
	return strings.Join(s, ", ")
}

// Substitute replaces every {NAME} in line by its value in params; the
// CLI applies it to --prepare, --setup and --cleanup with an expansion's
// Params. Braces around anything but a name are left as they are, and
// values are inserted as they are: a value with spaces becomes several
// words unless the command line quotes it ('{file}').
func Substitute(line string, params []Param) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '{')
		if i < 0 {
			b.WriteString(line)
			return b.String(), nil
		}
		j := strings.IndexByte(line[i+1:], '}')
		name := ""
		if j >= 0 {
			name = line[i+1 : i+1+j]
		}
		if !isName(name) {
			b.WriteString(line[:i+1])
			line = line[i+1:]
			continue
		}
		v, ok := lookup(params, name)
		if !ok {
			return "", unknownParam(name, params)
		}
		b.WriteString(line[:i])
		b.WriteString(v)
		line = line[i+2+j:]
	}
}

func lookup(params []Param, name string) (string, bool) {
	for _, p := range params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

func unknownParam(name string, params []Param) error {
	if len(params) == 0 {
		return fmt.Errorf("unknown parameter {%s}: no parameter is defined (define one with -P or -L)", name)
	}
	known := make([]string, len(params))
	for i, p := range params {
		known[i] = "{" + p.Name + "}"
	}
	return fmt.Errorf("unknown parameter {%s}: the parameters are %s", name, strings.Join(known, ", "))
}
