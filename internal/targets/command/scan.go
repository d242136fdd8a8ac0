package command

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Scan is one parameter and the values it takes, in order: -P NAME LOW
// HIGH [-D STEP] or -L NAME A,B,C.
type Scan struct {
	Name   string
	Values []string
}

// Param is one parameter's value in one expanded command.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// maxValues bounds the values of one scan and the commands of an
// expansion: more is a typo (a step of 0.0001), not a benchmark.
const maxValues = 10000

// ParseRange is -P NAME LOW HIGH [-D STEP]: the numbers from low to high
// by step ("" for 1). The numbers are decimal, with or without a fraction,
// and are stepped exactly (0.1 three times is 0.3, not 0.30000000000000004):
// each is written with as many decimals as the inputs have, trailing zeros
// dropped.
func ParseRange(name, low, high, step string) (Scan, error) {
	if err := checkName(name); err != nil {
		return Scan{}, err
	}
	if step == "" {
		step = "1"
	}
	lo, ldec, err := parseDecimal(low)
	if err != nil {
		return Scan{}, fmt.Errorf("-P %s: low %w", name, err)
	}
	hi, hdec, err := parseDecimal(high)
	if err != nil {
		return Scan{}, fmt.Errorf("-P %s: high %w", name, err)
	}
	st, sdec, err := parseDecimal(step)
	if err != nil {
		return Scan{}, fmt.Errorf("-P %s: step %w", name, err)
	}
	dec := max(ldec, hdec, sdec)
	if lo, err = scale(lo, dec-ldec); err == nil {
		if hi, err = scale(hi, dec-hdec); err == nil {
			st, err = scale(st, dec-sdec)
		}
	}
	switch {
	case err != nil:
		return Scan{}, fmt.Errorf("-P %s: %w", name, err)
	case st <= 0:
		return Scan{}, fmt.Errorf("-P %s: step %s is not positive", name, step)
	case lo > hi:
		return Scan{}, fmt.Errorf("-P %s: low %s is above high %s", name, low, high)
	case (hi-lo)/st >= maxValues:
		return Scan{}, fmt.Errorf("-P %s: %s to %s by %s is more than %d values", name, low, high, step, maxValues)
	}
	s := Scan{Name: name}
	for v := lo; v <= hi; v += st {
		s.Values = append(s.Values, formatDecimal(v, dec))
	}
	return s, nil
}

// ParseList is -L NAME A,B,C. A value may be empty (-L opt ,-O2 runs
// once without the option); the same value twice is an error.
func ParseList(name, list string) (Scan, error) {
	if err := checkName(name); err != nil {
		return Scan{}, err
	}
	if list == "" {
		return Scan{}, fmt.Errorf("-L %s: no values", name)
	}
	values := strings.Split(list, ",")
	if len(values) > maxValues {
		return Scan{}, fmt.Errorf("-L %s: more than %d values", name, maxValues)
	}
	for i, v := range values {
		if slices.Contains(values[:i], v) {
			return Scan{}, fmt.Errorf("-L %s: value %q is listed twice", name, v)
		}
	}
	return Scan{Name: name, Values: values}, nil
}

// checkName accepts the names {NAME} can refer to: a letter or underscore,
// then letters, digits and underscores. Braces around anything else (awk's
// '{print $1}', find's {}) are left alone.
func checkName(name string) error {
	if !isName(name) {
		return fmt.Errorf("parameter name %q: use letters, digits and _, not starting with a digit", name)
	}
	return nil
}

func isName(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && !('0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// parseDecimal reads [+-]digits[.digits] as an integer and its count of
// decimals: "-1.25" is (-125, 2).
func parseDecimal(s string) (v int64, decimals int, err error) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 {
		return 0, 0, fmt.Errorf("%q is not a number", s)
	}
	whole, frac, _ := strings.Cut(digits, ".")
	if whole == "" && frac == "" || strings.Trim(whole+frac, "0123456789") != "" {
		return 0, 0, fmt.Errorf("%q is not a number", s)
	}
	n := strings.TrimLeft(whole+frac, "0")
	if n == "" {
		n = "0"
	}
	if len(n) > 17 {
		return 0, 0, fmt.Errorf("%q has too many digits", s)
	}
	if v, err = strconv.ParseInt(n, 10, 64); err != nil {
		return 0, 0, fmt.Errorf("%q is not a number", s)
	}
	if strings.HasPrefix(s, "-") {
		v = -v
	}
	return v, len(frac), nil
}

// scale multiplies v by 10^n.
func scale(v int64, n int) (int64, error) {
	for range n {
		if v > 1e17 || v < -1e17 {
			return 0, errors.New("too many digits")
		}
		v *= 10
	}
	return v, nil
}

// formatDecimal writes v/10^dec with trailing fractional zeros dropped.
func formatDecimal(v int64, dec int) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	s := strconv.FormatInt(v, 10)
	if dec == 0 {
		return sign + s
	}
	if len(s) <= dec {
		s = strings.Repeat("0", dec-len(s)+1) + s
	}
	whole, frac := s[:len(s)-dec], strings.TrimRight(s[len(s)-dec:], "0")
	if frac == "" {
		return sign + whole
	}
	return sign + whole + "." + frac
}
