package analyze

import (
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// fixtureResult is the shared fixture, analysed.
func fixtureResult() *result.Result {
	r := resulttest.Fixture()
	Analyze(r)
	return r
}
