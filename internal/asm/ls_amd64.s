//go:build !purego

#include "textflag.h"

// func dot4x2AVX(x []float64, ldx int, y []float64, ldy, n int, out *[8]float64)
//
// Eight accumulators, Y0…Y7 = row a of x times row c of y for (a, c) in
// the order of out, four points per step; n is a multiple of 4.
TEXT ·dot4x2AVX(SB), NOSPLIT, $0-80
	MOVQ x_base+0(FP), SI
	MOVQ ldx+24(FP), BX
	SHLQ $3, BX
	MOVQ y_base+32(FP), DI
	MOVQ ldy+56(FP), R9
	SHLQ $3, R9
	MOVQ n+64(FP), CX
	SHLQ $3, CX
	MOVQ out+72(FP), DX
	LEAQ (SI)(BX*1), R10 // x row 1
	LEAQ (SI)(BX*2), R8  // x row 2
	LEAQ (R8)(BX*1), R11 // x row 3
	ADDQ DI, R9          // y row 1
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ AX, AX

loop:
	CMPQ AX, CX
	JGE  sum
	VMOVUPD (DI)(AX*1), Y8
	VMOVUPD (R9)(AX*1), Y9
	VMOVUPD (SI)(AX*1), Y10
	VFMADD231PD Y10, Y8, Y0
	VFMADD231PD Y10, Y9, Y1
	VMOVUPD (R10)(AX*1), Y11
	VFMADD231PD Y11, Y8, Y2
	VFMADD231PD Y11, Y9, Y3
	VMOVUPD (R8)(AX*1), Y12
	VFMADD231PD Y12, Y8, Y4
	VFMADD231PD Y12, Y9, Y5
	VMOVUPD (R11)(AX*1), Y13
	VFMADD231PD Y13, Y8, Y6
	VFMADD231PD Y13, Y9, Y7
	ADDQ $32, AX
	JMP  loop

sum:
	// Horizontal sums, two accumulators at a time: HADD gives
	// (a0+a1, b0+b1, a2+a3, b2+b3); adding its halves gives (Σa, Σb).
	VHADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VMOVUPD X0, 0(DX)
	VHADDPD Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X3
	VADDPD X3, X2, X2
	VMOVUPD X2, 16(DX)
	VHADDPD Y5, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPD X5, X4, X4
	VMOVUPD X4, 32(DX)
	VHADDPD Y7, Y6, Y6
	VEXTRACTF128 $1, Y6, X7
	VADDPD X7, X6, X6
	VMOVUPD X6, 48(DX)
	VZEROUPPER
	RET

// R2DOT updates the four entries of the row at byte off past column AX
// (DI the row, DX w, SI v, Y0 = v_{i+1}, Y1 = w_{i+1}), keeping them in
// tmp, and adds their products with u (R12) to acc.
#define R2DOT(off, tmp, acc) \
	VMOVUPD      off(DI)(AX*8), tmp; \
	VFNMADD231PD off(DX)(AX*8), Y0, tmp; \
	VFNMADD231PD off(SI)(AX*8), Y1, tmp; \
	VMOVUPD      tmp, off(DI)(AX*8); \
	VFMADD231PD  off(R12)(AX*8), tmp, acc

// func rank2dotAVX(a []float64, lda, rows, n int, v, w, u, out []float64)
//
// Row i < rows of the block: a[i·lda+c] −= v_{i+1}·w_c + w_{i+1}·v_c for
// c < n, then out[i] = Σ_c a[i·lda+c]·u_c over the updated row: eight c
// per step in two accumulators, then four, then one at a time.
TEXT ·rank2dotAVX(SB), NOSPLIT, $0-144
	MOVQ a_base+0(FP), DI
	MOVQ lda+24(FP), BX
	SHLQ $3, BX
	MOVQ rows+32(FP), R9
	MOVQ n+40(FP), CX
	MOVQ v_base+48(FP), SI
	MOVQ w_base+72(FP), DX
	MOVQ u_base+96(FP), R12
	MOVQ out_base+120(FP), R13
	MOVQ CX, R8
	ANDQ $-8, R8
	MOVQ CX, R10
	ANDQ $-4, R10
	XORQ R11, R11

rows:
	CMPQ R11, R9
	JGE  done
	VBROADCASTSD 8(SI)(R11*8), Y0 // v_{i+1}
	VBROADCASTSD 8(DX)(R11*8), Y1 // w_{i+1}
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	XORQ         AX, AX

cols8:
	CMPQ AX, R8
	JGE  cols4
	R2DOT(0, Y4, Y2)
	R2DOT(32, Y5, Y3)
	ADDQ $8, AX
	JMP  cols8

cols4:
	CMPQ AX, R10
	JGE  hsum
	R2DOT(0, Y4, Y2)
	ADDQ $4, AX

hsum:
	VADDPD       Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X3
	VADDPD       X3, X2, X2
	VHADDPD      X2, X2, X2

cols1:
	CMPQ         AX, CX
	JGE          next
	VMOVSD       (DI)(AX*8), X4
	VFNMADD231SD (DX)(AX*8), X0, X4
	VFNMADD231SD (SI)(AX*8), X1, X4
	VMOVSD       X4, (DI)(AX*8)
	VFMADD231SD  (R12)(AX*8), X4, X2
	INCQ         AX
	JMP          cols1

next:
	VMOVSD X2, (R13)(R11*8)
	ADDQ   BX, DI
	INCQ   R11
	JMP    rows

done:
	VZEROUPPER
	RET
