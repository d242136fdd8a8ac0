package analyze

import (
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// goldenDir holds the golden outputs of the fixture result.
var goldenDir = resulttest.GoldenDir

// fixtureResult is the shared fixture, analysed.
func fixtureResult() *result.Result {
	r := resulttest.Fixture()
	Analyze(r)
	return r
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	resulttest.CheckGolden(t, name, got)
}

func spread(n int, iters int64, nsPerOp float64, perMille ...float64) []result.Sample {
	return resulttest.Spread(n, iters, nsPerOp, perMille...)
}
