#include "textflag.h"

// func addChain(turns, a, b uint64) uint64
//
// Each turn is 16 ADDQ into AX, of a and b in turn, each reading the AX of
// the one before: a dependency chain of 16 one-cycle adds. The adds are
// register-register, not immediate, because a core may execute adds of
// small immediates at rename (Intel's Golden Cove is reported to) and run
// such a chain faster than one add per cycle. DECQ/JNZ (macro-fused on most
// cores) is a separate one-cycle chain that runs beside it.
TEXT ·addChain(SB), NOSPLIT, $0-32
	MOVQ turns+0(FP), CX
	MOVQ a+8(FP), DX
	MOVQ b+16(FP), BX
	XORQ AX, AX
	TESTQ CX, CX
	JZ done
loop:
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	ADDQ DX, AX
	ADDQ BX, AX
	DECQ CX
	JNZ loop
done:
	MOVQ AX, ret+24(FP)
	RET
