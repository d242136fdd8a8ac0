package cli

import (
	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/finding"
)

// checkStrict refuses a --strict value that is not a level: --strict=
// (empty) and anything but error and warn.
func checkStrict(cmd *cobra.Command, v string) error {
	if cmd.Flags().Changed("strict") && v == "" {
		return Usagef("--strict=: give a level: error (the default) or warn")
	}
	if _, ok := strictLevel(v); v != "" && !ok {
		return Usagef("--strict %s: valid values are error (the default) and warn", v)
	}
	return nil
}

// isStrictLevel reports whether a word is a --strict level, as the word
// after a bare --strict may be (strictArgs).
func isStrictLevel(w string) bool {
	_, ok := strictLevel(w)
	return ok
}

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
