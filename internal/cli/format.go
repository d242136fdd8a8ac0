package cli

import (
	"slices"
	"strings"
)

// CheckFormat is the one check of every command's --format: one line,
// exit 2, naming the formats that command writes.
func CheckFormat(format string, valid []string) error {
	if slices.Contains(valid, format) {
		return nil
	}
	return Usagef("--format %q: valid formats are %s", format, strings.Join(valid, ", "))
}

// textOrJSON are the formats of the commands that show one thing.
var textOrJSON = []string{"text", "json"}
