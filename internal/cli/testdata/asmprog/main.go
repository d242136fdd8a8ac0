// Command asmprog is a program on the public package with benchy's
// built-in experiments, and nothing of benchy's own commands or stores:
// TestAsmBinaries builds it stripped and position-independent, which
// needs every package it links compiled again that way, and this
// program links a third of what cmd/benchy does (no SQLite, no pgx).
package main

import (
	"github.com/benchy-dev/benchy"
	"github.com/benchy-dev/benchy/internal/workload"
)

func main() {
	for _, w := range workload.All() {
		benchy.Register(benchy.Experiment(w))
	}
	benchy.Main()
}
