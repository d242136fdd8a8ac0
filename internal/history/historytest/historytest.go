// Package historytest holds what the tests of the history's packages
// share: the commits of a made-up history.
package historytest

import (
	"time"

	"github.com/benchy-dev/benchy/internal/history"
)

// Source is the source of the k-th commit of a made-up history, an hour
// after the one before it.
func Source(k int) history.Source {
	return history.Source{Commit: Hash(k), Branch: "main", Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(k) * time.Hour)}
}

// Hash is the k-th commit's hash: 40 hex digits whose first three are k's
// last three, so that the short hashes of up to 4096 commits differ.
func Hash(k int) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 40)
	for i := range b {
		b[i] = hex[(k*7+i*13+k/16)%16]
	}
	b[0], b[1], b[2] = hex[k/256%16], hex[k/16%16], hex[k%16]
	return string(b)
}
