package cli

import "github.com/benchy-dev/benchy/internal/finding"

// strictLevel turns a --strict value into the least severity that fails:
// "" means never, "error" (plain --strict) errors only, "warn" warnings too.
func strictLevel(v string) (finding.Severity, bool) {
	switch v {
	case "error":
		return finding.Error, true
	case "warn":
		return finding.Warn, true
	}
	return 0, false
}
