// Package units formats numbers for people, one way each: durations,
// clock rates, percentages, significant digits and English plurals. Every
// writer of benchy uses these, so one number reads the same everywhere.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Sig formats x with n significant digits in plain decimal notation,
// without trailing zeros after the point: Sig(0.1414, 2) = "0.14",
// Sig(4096, 2) = "4096", Sig(0.00000005, 2) = "0.00000005".
func Sig(x float64, n int) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	d := max(n-1-int(math.Floor(math.Log10(math.Abs(x)))), 0)
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	v, _ := strconv.ParseFloat(Sig(x, n), 64)
	return v
}

// Duration formats a time in nanoseconds with three significant digits and
// the unit that keeps the number between 1 and 1000 (ns down to 0.01 ns;
// ps and fs below, for a loop that does nothing): "0.272 ns", "1.12 µs",
// "12.8 ms", "4.66 ps".
func Duration(ns float64) string {
	name, scale := DurationUnit(ns)
	return Sig(ns/scale, 3) + " " + name
}

// DurationUnit is the unit Duration uses for ns, its name and how many ns
// it holds, so several times can be written in one unit. Rounding may
// reach 1000 (999.7 ns is "1 µs", not "1000 ns"): then the next unit.
func DurationUnit(ns float64) (name string, scale float64) {
	switch a := math.Abs(ns); {
	case a > 0 && a < 1e-3:
		return "fs", 1e-6
	case a > 0 && a < 0.01:
		return "ps", 1e-3
	}
	names := []string{"ns", "µs", "ms", "s"}
	i := 0
	for i < len(names)-1 && math.Abs(ns) >= math.Pow(1000, float64(i+1)) {
		i++
	}
	if i < len(names)-1 && math.Abs(roundSig(ns/math.Pow(1000, float64(i)), 3)) >= 1000 {
		i++
	}
	return names[i], math.Pow(1000, float64(i))
}

// Bytes formats a size with three significant digits in the binary unit
// that keeps it below 1024: "812 KiB", "1.5 MiB", "210 MiB".
func Bytes(b float64) string {
	names := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for i < len(names)-1 && math.Abs(b) >= 1024 {
		b /= 1024
		i++
	}
	return Sig(b, 3) + " " + names[i]
}

// Hz formats a clock rate as "2.95 GHz" (three significant digits above
// 1 GHz, MHz below).
func Hz(hz float64) string {
	if hz >= 1e9 {
		return Sig(hz/1e9, 3) + " GHz"
	}
	return Sig(hz/1e6, 3) + " MHz"
}

// Plural returns the plural of an English noun: "add" -> "adds",
// "multiply" -> "multiplies", "pass" -> "passes"; "units" for none.
func Plural(noun string) string {
	switch {
	case noun == "":
		return "units"
	case noun == "series", strings.HasSuffix(noun, " series"):
		return noun // the same in the plural
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"),
		strings.HasSuffix(noun, "sh"), strings.HasSuffix(noun, "ch"):
		return noun + "es"
	}
	return noun + "s"
}

// Rate formats events per second with four significant digits, as
// --rate is written: "1000/s", "999.8/s", "12.5/s".
func Rate(perSecond float64) string { return Sig(perSecond, 4) + "/s" }

// Count formats "1 sample", "3 samples".
func Count[N int | int64 | uint32 | uint64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %s", n, Plural(noun))
}

// Pct formats a ratio as a percentage with two significant digits:
// 0.053 -> "5.3%".
func Pct(ratio float64) string {
	return Sig(100*ratio, 2) + "%"
}

// PctOver is Pct of a ratio that exceeds limit, with as many digits as it
// takes not to print the same figure as the limit ("10.4% (over 10%)",
// not "10% (over 10%)").
func PctOver(ratio, limit float64) string {
	for n := 2; n < 6; n++ {
		if s := Sig(100*ratio, n); s != Sig(100*limit, n) {
			return s + "%"
		}
	}
	return Sig(100*ratio, 6) + "%"
}

// Percent formats a fraction exactly as the user would write it: 0.05 ->
// "5%", 0.005 -> "0.5%".
func Percent(f float64) string {
	return strconv.FormatFloat(100*f, 'f', -1, 64) + "%"
}

// Change formats a relative change as a signed percentage: "+12.3%",
// "-0.48%" (two decimals below 1%).
func Change(x float64) string {
	v := 100 * x
	if math.Abs(v) < 0.005 {
		return "+0.0%" // not "-0.00%": a change too small to sign
	}
	if math.Abs(v) < 1 {
		return fmt.Sprintf("%+.2f%%", v)
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// Window writes a window of time to the millisecond: "1s", "1.002s".
func Window(d time.Duration) string { return d.Round(time.Millisecond).String() }

// Clip shortens text quoted in a message, such as garbage read from a
// file, to 40 bytes and "...".
func Clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// OneLine folds s onto one line: every run of white space, newlines
// included, becomes one space, so a message from a child or a file never
// breaks the line it is quoted in.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// PValue formats a p-value with two significant digits: 0.41, 0.041,
// 0.0012 (0 and NaN as 0.00 and NaN).
func PValue(p float64) string {
	if p >= 0.1 || p == 0 || math.IsNaN(p) {
		return strconv.FormatFloat(p, 'f', 2, 64)
	}
	d := 1 - int(math.Floor(math.Log10(p)))
	return strconv.FormatFloat(p, 'f', d, 64)
}
