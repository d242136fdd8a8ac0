package units

import "strconv"

// Level is a confidence level as a sentence gives it: "95%", "98.3%",
// "99.95%" (two significant digits of what the level leaves out). A level
// of 0, from a file written before levels were recorded, is the 95% every
// interval had then.
func Level(level float64) string {
	if level == 0 {
		level = 0.95
	}
	tail, _ := strconv.ParseFloat(strconv.FormatFloat(100*(1-level), 'g', 2, 64), 64)
	return strconv.FormatFloat(100-tail, 'f', -1, 64) + "%"
}
