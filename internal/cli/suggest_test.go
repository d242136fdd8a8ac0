package cli

import (
	"bytes"
	"strings"
	"testing"
)

// Typos get a suggestion on one readable line and exit 2; `version` and
// --version print the version, and -v is never the version (it is
// --verbose, which version refuses).
func TestSuggestionsAndVersion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{[]string{"runn"}, ExitUsage, "", `unknown command "runn" for "benchy"; did you mean run?`},
		{[]string{"run", "--compare", "concat/quadratc,concat/builder"}, ExitUsage, "", "(did you mean concat/quadratic?)"},
		{[]string{"asm", "sum/snk"}, ExitUsage, "", "(did you mean sum/sink?)"},
		{[]string{"run", "--compare", "zzzzzz,concat/builder"}, ExitUsage, "", `no experiment "zzzzzz" (see benchy list)`},
		{[]string{"version"}, 0, "benchy " + Version, ""},
		{[]string{"--version"}, 0, "benchy " + Version, ""},
		{[]string{"-v", "version"}, ExitUsage, "", "-v/--verbose: version has nothing more to show; -v is for exec, report, run"},
	} {
		var stdout, stderr bytes.Buffer
		code := testMain(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String(), tt.out) || !strings.Contains(stderr.String(), tt.err) ||
			strings.Count(stderr.String(), "\n") > 1 {
			t.Errorf("benchy %v: exit %d, stdout %q, stderr %q; want exit %d, %q, %q",
				tt.args, code, stdout.String(), stderr.String(), tt.code, tt.out, tt.err)
		}
	}
}

// --target-ci names its own bounds, whatever is wrong with the value.
func TestTargetCIBounds(t *testing.T) {
	for _, v := range []string{"0", "100%", "2000%", "-1%"} {
		var stdout, stderr bytes.Buffer
		code := testMain([]string{"run", "--target-ci", v}, &stdout, &stderr)
		if code != ExitUsage || !strings.Contains(stderr.String(), "must be more than 0% and less than 100%") {
			t.Errorf("--target-ci %s: exit %d, %q", v, code, stderr.String())
		}
	}
}
