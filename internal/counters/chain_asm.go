//go:build amd64 || arm64

package counters

// addChain makes turns*16 dependent adds, of a and b in turn, and returns
// their sum (chain_amd64.s, chain_arm64.s).
func addChain(turns, a, b uint64) uint64
