//go:build !purego

#include "textflag.h"

// The basis values and target terms of four rows (basis4AVX). Registers:
// Y0 the four row sums, Y1 curv, Y2 ones, Y3…Y6 the rows' center
// coordinates, Y7 four points' x, Y8 their a, Y9 kernel values, Y10 the
// differences c − x, Y11 scratch, Y12…Y15 the four rows' terms.

// DIFF loads row kt's kernel values at the four points and forms c − x.
#define DIFF(kt, C) \
	VMOVUPD (kt)(AX*1), Y9; \
	VSUBPD  Y7, C, Y10

// PSI stores the basis values (c − x)·k to the row at p.
#define PSI(p) \
	VMULPD  Y9, Y10, Y11; \
	VMOVUPD Y11, (p)(AX*1)

// TERM sets T to ((c − x)²·curv − 1), rounding after each operation.
#define TERM(T) \
	VMULPD Y10, Y10, T; \
	VMULPD Y1, T, T; \
	VSUBPD Y2, T, T

// ATERM adds (c − x)·a to T.
#define ATERM(T) \
	VMULPD Y8, Y10, Y11; \
	VADDPD Y11, T, T

// KMUL multiplies T by the kernel values.
#define KMUL(T) VMULPD Y9, T, T

// SUM4 transposes the four rows' terms (row r, four points) into four
// points' terms (one per row in each lane) and adds them to the sums in
// the order of the points.
#define SUM4 \
	VUNPCKLPD  Y13, Y12, Y9; \
	VUNPCKHPD  Y13, Y12, Y10; \
	VUNPCKLPD  Y15, Y14, Y11; \
	VUNPCKHPD  Y15, Y14, Y7; \
	VPERM2F128 $0x20, Y11, Y9, Y12; \
	VADDPD     Y12, Y0, Y0; \
	VPERM2F128 $0x20, Y7, Y10, Y13; \
	VADDPD     Y13, Y0, Y0; \
	VPERM2F128 $0x31, Y11, Y9, Y14; \
	VADDPD     Y14, Y0, Y0; \
	VPERM2F128 $0x31, Y7, Y10, Y15; \
	VADDPD     Y15, Y0, Y0

// func basis4AVX(psi []float64, ldp int, kt []float64, ldk int, c *[4]float64, x, a []float64, curv float64, n int, s *[4]float64)
//
// For the four rows r < 4 and the points p < n (n a multiple of 4):
// psi[r·ldp+p] = (c_r − x_p)·k_rp unless psi is empty, and
// s[r] += ((c_r − x_p)²·curv − 1 [+ (c_r − x_p)·a_p])·k_rp in the order of
// p, with k_rp = kt[r·ldk+p] and the a term only if a is not empty. The
// operations and their order are those of FillBasis's loops, each lane
// one row, so the results are the same bits.
TEXT ·basis4AVX(SB), NOSPLIT, $0-144
	MOVQ ldp+24(FP), R8
	SHLQ $3, R8
	MOVQ psi_base+0(FP), DI
	LEAQ (DI)(R8*1), R9   // psi row 1
	LEAQ (DI)(R8*2), R10  // psi row 2
	LEAQ (R10)(R8*1), R8  // psi row 3
	MOVQ ldk+56(FP), DX
	SHLQ $3, DX
	MOVQ kt_base+32(FP), SI
	LEAQ (SI)(DX*1), BX   // kt row 1
	LEAQ (SI)(DX*2), R13  // kt row 2
	ADDQ R13, DX          // kt row 3
	MOVQ c+64(FP), R11
	VBROADCASTSD 0(R11), Y3
	VBROADCASTSD 8(R11), Y4
	VBROADCASTSD 16(R11), Y5
	VBROADCASTSD 24(R11), Y6
	MOVQ x_base+72(FP), R11
	MOVQ a_base+96(FP), R12
	MOVQ a_len+104(FP), CX
	VBROADCASTSD curv+120(FP), Y1
	MOVQ $0x3ff0000000000000, AX
	MOVQ AX, X2
	VBROADCASTSD X2, Y2
	MOVQ s+136(FP), AX
	VMOVUPD (AX), Y0
	MOVQ psi_len+8(FP), AX
	TESTQ AX, AX
	JZ   sumsonly
	TESTQ CX, CX
	JZ   psinoa

	// psi and a
	MOVQ n+128(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
loopPA:
	CMPQ AX, CX
	JGE  done
	VMOVUPD (R11)(AX*1), Y7
	VMOVUPD (R12)(AX*1), Y8
	DIFF(SI, Y3)
	PSI(DI)
	TERM(Y12)
	ATERM(Y12)
	KMUL(Y12)
	DIFF(BX, Y4)
	PSI(R9)
	TERM(Y13)
	ATERM(Y13)
	KMUL(Y13)
	DIFF(R13, Y5)
	PSI(R10)
	TERM(Y14)
	ATERM(Y14)
	KMUL(Y14)
	DIFF(DX, Y6)
	PSI(R8)
	TERM(Y15)
	ATERM(Y15)
	KMUL(Y15)
	SUM4
	ADDQ $32, AX
	JMP  loopPA

psinoa:
	MOVQ n+128(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
loopP:
	CMPQ AX, CX
	JGE  done
	VMOVUPD (R11)(AX*1), Y7
	DIFF(SI, Y3)
	PSI(DI)
	TERM(Y12)
	KMUL(Y12)
	DIFF(BX, Y4)
	PSI(R9)
	TERM(Y13)
	KMUL(Y13)
	DIFF(R13, Y5)
	PSI(R10)
	TERM(Y14)
	KMUL(Y14)
	DIFF(DX, Y6)
	PSI(R8)
	TERM(Y15)
	KMUL(Y15)
	SUM4
	ADDQ $32, AX
	JMP  loopP

sumsonly:
	TESTQ CX, CX
	JZ   nopsinoa
	MOVQ n+128(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
loopA:
	CMPQ AX, CX
	JGE  done
	VMOVUPD (R11)(AX*1), Y7
	VMOVUPD (R12)(AX*1), Y8
	DIFF(SI, Y3)
	TERM(Y12)
	ATERM(Y12)
	KMUL(Y12)
	DIFF(BX, Y4)
	TERM(Y13)
	ATERM(Y13)
	KMUL(Y13)
	DIFF(R13, Y5)
	TERM(Y14)
	ATERM(Y14)
	KMUL(Y14)
	DIFF(DX, Y6)
	TERM(Y15)
	ATERM(Y15)
	KMUL(Y15)
	SUM4
	ADDQ $32, AX
	JMP  loopA

nopsinoa:
	MOVQ n+128(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
loopN:
	CMPQ AX, CX
	JGE  done
	VMOVUPD (R11)(AX*1), Y7
	DIFF(SI, Y3)
	TERM(Y12)
	KMUL(Y12)
	DIFF(BX, Y4)
	TERM(Y13)
	KMUL(Y13)
	DIFF(R13, Y5)
	TERM(Y14)
	KMUL(Y14)
	DIFF(DX, Y6)
	TERM(Y15)
	KMUL(Y15)
	SUM4
	ADDQ $32, AX
	JMP  loopN

done:
	MOVQ s+136(FP), AX
	VMOVUPD Y0, (AX)
	VZEROUPPER
	RET
