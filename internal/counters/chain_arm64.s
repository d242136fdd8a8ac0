#include "textflag.h"

// func addChain(turns, a, b uint64) uint64
//
// Each turn is 16 ADDs into R2, of a and b in turn, each reading the R2 of
// the one before: a dependency chain of 16 one-cycle adds. SUBS/BNE is a separate one-cycle
// chain that runs in parallel.
TEXT ·addChain(SB), NOSPLIT, $0-32
	MOVD turns+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R3
	MOVD $0, R2
	CBZ R0, done
loop:
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	ADD R1, R2, R2
	ADD R3, R2, R2
	SUBS $1, R0, R0
	BNE loop
done:
	MOVD R2, ret+24(FP)
	RET
