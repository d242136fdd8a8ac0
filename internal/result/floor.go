package result

// DefaultFloorCycles is the floor per unit when an experiment declares
// none: adding one uint64 streamed from L1 with the widest vectors
// (AVX-512: 8 lanes, two adds per cycle) takes about 1/16 cycle; nothing
// simpler is worth measuring.
const DefaultFloorCycles = 1.0 / 16

// Floor returns a declared floor per unit, or DefaultFloorCycles for none.
func Floor(declared float64) float64 {
	if declared > 0 {
		return declared
	}
	return DefaultFloorCycles
}
