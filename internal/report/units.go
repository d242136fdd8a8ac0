package report

import (
	"math"
	"strconv"
	"strings"
)

// fmtNs formats a duration in nanoseconds with three significant digits and
// the unit that keeps the number between 1 and 1000 (ns below 1 ns too).
func fmtNs(ns float64) string {
	units := []struct {
		name  string
		scale float64
	}{{"ns", 1}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}}
	i := 0
	for i < len(units)-1 && math.Abs(ns) >= units[i+1].scale {
		i++
	}
	v := ns / units[i].scale
	s := sig(v, 3)
	// Rounding may reach 1000 (999.7 ns -> "1000"): use the next unit.
	if i < len(units)-1 && math.Abs(roundSig(v, 3)) >= 1000 {
		i++
		s = sig(ns/units[i].scale, 3)
	}
	return s + " " + units[i].name
}

// sig formats x with n significant digits in plain decimal notation,
// without trailing zeros after the point: sig(0.1414, 2) = "0.14",
// sig(4096, 2) = "4096", sig(0.00000005, 2) = "0.00000005".
func sig(x float64, n int) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	d := n - 1 - int(math.Floor(math.Log10(math.Abs(x))))
	if d < 0 {
		d = 0
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	v, _ := strconv.ParseFloat(sig(x, n), 64)
	return v
}

// FormatHz formats a clock rate as "2.95 GHz" (three significant digits above
// 1 GHz, MHz below).
func FormatHz(hz float64) string {
	if hz >= 1e9 {
		return sig(hz/1e9, 3) + " GHz"
	}
	return sig(hz/1e6, 3) + " MHz"
}

// plural returns the plural of an English noun for a unit of work:
// "add" -> "adds", "multiply" -> "multiplies", "pass" -> "passes".
func plural(noun string) string {
	switch {
	case noun == "":
		return "units"
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"),
		strings.HasSuffix(noun, "sh"), strings.HasSuffix(noun, "ch"):
		return noun + "es"
	}
	return noun + "s"
}

// count formats "1 sample" / "3 samples".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + plural(noun)
}

// pct formats a ratio as a percentage with two significant digits.
func pct(ratio float64) string {
	return sig(100*ratio, 2) + "%"
}

// pctOver is pct of a ratio that exceeds limit, with as many digits as it
// takes not to print the same figure as the limit ("10.4% (over 10%)",
// not "10% (over 10%)").
func pctOver(ratio, limit float64) string {
	for n := 2; n < 6; n++ {
		if s := sig(100*ratio, n); s != sig(100*limit, n) {
			return s + "%"
		}
	}
	return sig(100*ratio, 6) + "%"
}
