package analyze

import (
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
