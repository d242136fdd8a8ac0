package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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

// addStrictFlag defines --strict on f, bound to p: a bare --strict means
// "error", and --help shows it as --strict[=error] rather than pflag's
// --strict string[="error"].
func addStrictFlag(f *pflag.FlagSet, p *string, usage string) {
	f.Var((*strictValue)(p), "strict", usage)
	f.Lookup("strict").NoOptDefVal = "error"
}

// strictValue is a --strict level as a flag value. Its empty Type keeps
// the type's name out of --help; checkStrict judges the level.
type strictValue string

func (s *strictValue) String() string     { return string(*s) }
func (s *strictValue) Set(v string) error { *s = strictValue(v); return nil }
func (s *strictValue) Type() string       { return "" }
