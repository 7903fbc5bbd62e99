//go:build !purego

#include "textflag.h"

// AVX2 and FMA versions of the lane kernels of lanes.go: each row of a
// lane matrix is one YMM register (Lanes = 4 float64 values). The
// element kernels follow sincos.go step by step.

// C4 stores the 8-byte value v four times from byte off of sym: one YMM
// register's worth, for memory operands.
#define C4(sym, off, v) DATA sym<>+(off)(SB)/8, v; DATA sym<>+(off+8)(SB)/8, v; DATA sym<>+(off+16)(SB)/8, v; DATA sym<>+(off+24)(SB)/8, v

// The constants of sincos.go, each repeated in four lanes.
C4(kc, 0, $0x4338000000000000) // roundMagic
C4(kc, 32, $0x3fe45f306dc9c883) // twoOverPi
C4(kc, 64, $0x3ff921fb54400000) // pio2a
C4(kc, 96, $0x3dd0b4611a600000) // pio2b
C4(kc, 128, $0x3ba3198a2e037073) // pio2c
C4(kc, 160, $0x3fe62e42fefa2000) // ln2Hi
C4(kc, 192, $0x3d69ef35793c7673) // ln2Lo
C4(kc, 224, $0x3ff71547652b82fe) // log₂e
C4(kc, 256, $0xc086200000000000) // expMin
C4(kc, 288, $0x412e848000000000) // sincosMax
C4(kc, 320, $0x3ff0000000000000) // 1
C4(kc, 352, $0x4000000000000000) // 2
C4(kc, 384, $0x4008000000000000) // 3
C4(kc, 416, $0xbfe0000000000000) // −1/2
C4(kc, 448, $0xc000000000000000) // −2
C4(kc, 480, $0x7fffffffffffffff) // all bits but the sign
C4(kc, 512, $0x8000000000000000) // the sign bit
C4(kc, 544, $0x0000000000000001) // integer 1
C4(kc, 576, $0x00000000000003ff) // integer 1023, the exponent bias
GLOBL kc<>(SB), RODATA|NOPTR, $608

#define MAGIC kc<>+0(SB)
#define TWOOVERPI kc<>+32(SB)
#define PIO2A kc<>+64(SB)
#define PIO2B kc<>+96(SB)
#define PIO2C kc<>+128(SB)
#define LN2HI kc<>+160(SB)
#define LN2LO kc<>+192(SB)
#define LOG2E kc<>+224(SB)
#define EXPMIN kc<>+256(SB)
#define SINCOSMAX kc<>+288(SB)
#define ONE kc<>+320(SB)
#define TWO kc<>+352(SB)
#define THREE kc<>+384(SB)
#define NEGHALF kc<>+416(SB)
#define NEGTWO kc<>+448(SB)
#define ABSMASK kc<>+480(SB)
#define SIGNBIT kc<>+512(SB)
#define IONE kc<>+544(SB)
#define IBIAS kc<>+576(SB)

// sinCoef, cosCoef and expCoef of sincos.go.
C4(sinc, 0, $0xbfc5555555555555)
C4(sinc, 32, $0x3f81111111111111)
C4(sinc, 64, $0xbf2a01a01a01a01a)
C4(sinc, 96, $0x3ec71de3a556c734)
C4(sinc, 128, $0xbe5ae64567f544e4)
C4(sinc, 160, $0x3de6124613a86d09)
C4(sinc, 192, $0xbd6ae7f3e733b81f)
C4(sinc, 224, $0x3ce952c77030ad4a)
GLOBL sinc<>(SB), RODATA|NOPTR, $256

C4(cosc, 0, $0xbfe0000000000000)
C4(cosc, 32, $0x3fa5555555555555)
C4(cosc, 64, $0xbf56c16c16c16c17)
C4(cosc, 96, $0x3efa01a01a01a01a)
C4(cosc, 128, $0xbe927e4fb7789f5c)
C4(cosc, 160, $0x3e21eed8eff8d898)
C4(cosc, 192, $0xbda93974a8c07c9d)
C4(cosc, 224, $0x3d2ae7f3e733b81f)
GLOBL cosc<>(SB), RODATA|NOPTR, $256

C4(expc, 0, $0x3fe0000000000000)
C4(expc, 32, $0x3fc5555555555555)
C4(expc, 64, $0x3fa5555555555555)
C4(expc, 96, $0x3f81111111111111)
C4(expc, 128, $0x3f56c16c16c16c17)
C4(expc, 160, $0x3f2a01a01a01a01a)
C4(expc, 192, $0x3efa01a01a01a01a)
C4(expc, 224, $0x3ec71de3a556c734)
C4(expc, 256, $0x3e927e4fb7789f5c)
C4(expc, 288, $0x3e5ae64567f544e4)
C4(expc, 320, $0x3e21eed8eff8d898)
C4(expc, 352, $0x3de6124613a86d09)
GLOBL expc<>(SB), RODATA|NOPTR, $384

// EXPPARTS sets Y9 = q and Y5 = 2ᵏ with e^a = 2ᵏ(1 + q) for a = Y3
// (expParts in sincos.go; a already clamped). Clobbers Y6–Y8 and Y10.
#define EXPPARTS \
	VMOVUPD MAGIC, Y6; \
	VFMADD231PD LOG2E, Y3, Y6; \
	VSUBPD MAGIC, Y6, Y7; \
	VMOVAPD Y3, Y8; \
	VFNMADD231PD LN2HI, Y7, Y8; \
	VFNMADD231PD LN2LO, Y7, Y8; \
	VMOVUPD expc<>+352(SB), Y9; \
	VFMADD213PD expc<>+320(SB), Y8, Y9; \
	VFMADD213PD expc<>+288(SB), Y8, Y9; \
	VFMADD213PD expc<>+256(SB), Y8, Y9; \
	VFMADD213PD expc<>+224(SB), Y8, Y9; \
	VFMADD213PD expc<>+192(SB), Y8, Y9; \
	VFMADD213PD expc<>+160(SB), Y8, Y9; \
	VFMADD213PD expc<>+128(SB), Y8, Y9; \
	VFMADD213PD expc<>+96(SB), Y8, Y9; \
	VFMADD213PD expc<>+64(SB), Y8, Y9; \
	VFMADD213PD expc<>+32(SB), Y8, Y9; \
	VFMADD213PD expc<>+0(SB), Y8, Y9; \
	VMULPD Y8, Y8, Y10; \
	VFMADD213PD Y8, Y10, Y9; \
	VPADDQ IBIAS, Y6, Y5; \
	VPSLLQ $52, Y5, Y5

// func projectAVX(y []float64, stride int, w, z []float64)
TEXT ·projectAVX(SB), NOSPLIT, $0-80
	MOVQ y_base+0(FP), SI
	MOVQ stride+24(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R9
	MOVQ w_base+32(FP), BX
	MOVQ w_len+40(FP), R10
	SHRQ $2, R10
	MOVQ z_base+56(FP), DI
	MOVQ z_len+64(FP), CX
	SHRQ $2, CX
	TESTQ R10, R10
	JZ   done
	CMPQ CX, $4
	JL   tail

rows4: // four rows at a time, one accumulator each
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ SI, AX
	MOVQ BX, DX
	MOVQ R10, R11

cols4:
	VMOVUPD      (DX), Y4
	VBROADCASTSD (AX), Y5
	VFMADD231PD  Y5, Y4, Y0
	VBROADCASTSD (AX)(R8*1), Y6
	VFMADD231PD  Y6, Y4, Y1
	VBROADCASTSD (AX)(R8*2), Y7
	VFMADD231PD  Y7, Y4, Y2
	VBROADCASTSD (AX)(R9*1), Y8
	VFMADD231PD  Y8, Y4, Y3
	ADDQ $8, AX
	ADDQ $32, DX
	DECQ R11
	JNZ  cols4
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	LEAQ (SI)(R8*4), SI
	ADDQ $128, DI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  rows4

tail:
	TESTQ CX, CX
	JZ    done

row1:
	VXORPD Y0, Y0, Y0
	MOVQ SI, AX
	MOVQ BX, DX
	MOVQ R10, R11

col1:
	VBROADCASTSD (AX), Y5
	VFMADD231PD  (DX), Y5, Y0
	ADDQ $8, AX
	ADDQ $32, DX
	DECQ R11
	JNZ  col1
	VMOVUPD Y0, (DI)
	ADDQ R8, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  row1

done:
	VZEROUPPER
	RET

// func gatherAVX(y []float64, stride int, s, beta []float64)
TEXT ·gatherAVX(SB), NOSPLIT, $0-80
	MOVQ y_base+0(FP), SI
	MOVQ stride+24(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R9
	MOVQ s_base+32(FP), BX
	MOVQ s_len+40(FP), R10
	SHRQ $2, R10
	MOVQ beta_base+56(FP), DI
	MOVQ beta_len+64(FP), CX
	SHRQ $2, CX

col4: // columns j…j+3 of y against all rows of s: each row of s is loaded
	// once for four columns; two row phases make eight partial sums
	CMPQ CX, $4
	JL   col1
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ SI, AX
	MOVQ BX, DX
	MOVQ R10, R11
	CMPQ R11, $2
	JL   c4rest

c4rows2:
	VMOVUPD      (DX), Y8
	VBROADCASTSD (AX), Y9
	VFMADD231PD  Y9, Y8, Y0
	VBROADCASTSD 8(AX), Y10
	VFMADD231PD  Y10, Y8, Y1
	VBROADCASTSD 16(AX), Y11
	VFMADD231PD  Y11, Y8, Y2
	VBROADCASTSD 24(AX), Y12
	VFMADD231PD  Y12, Y8, Y3
	VMOVUPD      32(DX), Y13
	VBROADCASTSD (AX)(R8*1), Y9
	VFMADD231PD  Y9, Y13, Y4
	VBROADCASTSD 8(AX)(R8*1), Y10
	VFMADD231PD  Y10, Y13, Y5
	VBROADCASTSD 16(AX)(R8*1), Y11
	VFMADD231PD  Y11, Y13, Y6
	VBROADCASTSD 24(AX)(R8*1), Y12
	VFMADD231PD  Y12, Y13, Y7
	LEAQ         (AX)(R8*2), AX
	ADDQ         $64, DX
	SUBQ         $2, R11
	CMPQ         R11, $2
	JGE          c4rows2

c4rest:
	TESTQ R11, R11
	JZ    c4sum
	VMOVUPD      (DX), Y8
	VBROADCASTSD (AX), Y9
	VFMADD231PD  Y9, Y8, Y0
	VBROADCASTSD 8(AX), Y10
	VFMADD231PD  Y10, Y8, Y1
	VBROADCASTSD 16(AX), Y11
	VFMADD231PD  Y11, Y8, Y2
	VBROADCASTSD 24(AX), Y12
	VFMADD231PD  Y12, Y8, Y3

c4sum:
	VADDPD  Y4, Y0, Y0
	VADDPD  Y5, Y1, Y1
	VADDPD  Y6, Y2, Y2
	VADDPD  Y7, Y3, Y3
	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD  32(DI), Y1, Y1
	VMOVUPD Y1, 32(DI)
	VADDPD  64(DI), Y2, Y2
	VMOVUPD Y2, 64(DI)
	VADDPD  96(DI), Y3, Y3
	VMOVUPD Y3, 96(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	SUBQ $4, CX
	JMP  col4

col1:
	TESTQ CX, CX
	JZ    done

col: // column j of y against all rows of s, eight partial sums
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ SI, AX
	MOVQ BX, DX
	MOVQ R10, R11
	CMPQ R11, $8
	JL   rest

rows8:
	LEAQ         (AX)(R8*4), R12
	VBROADCASTSD (AX), Y8
	VFMADD231PD  (DX), Y8, Y0
	VBROADCASTSD (AX)(R8*1), Y9
	VFMADD231PD  32(DX), Y9, Y1
	VBROADCASTSD (AX)(R8*2), Y10
	VFMADD231PD  64(DX), Y10, Y2
	VBROADCASTSD (AX)(R9*1), Y11
	VFMADD231PD  96(DX), Y11, Y3
	VBROADCASTSD (R12), Y12
	VFMADD231PD  128(DX), Y12, Y4
	VBROADCASTSD (R12)(R8*1), Y13
	VFMADD231PD  160(DX), Y13, Y5
	VBROADCASTSD (R12)(R8*2), Y14
	VFMADD231PD  192(DX), Y14, Y6
	VBROADCASTSD (R12)(R9*1), Y15
	VFMADD231PD  224(DX), Y15, Y7
	LEAQ         (R12)(R8*4), AX
	ADDQ         $256, DX
	SUBQ         $8, R11
	CMPQ         R11, $8
	JGE          rows8

rest:
	TESTQ R11, R11
	JZ    sum

row1:
	VBROADCASTSD (AX), Y8
	VFMADD231PD  (DX), Y8, Y0
	ADDQ R8, AX
	ADDQ $32, DX
	DECQ R11
	JNZ  row1

sum:
	VADDPD  Y1, Y0, Y0
	VADDPD  Y3, Y2, Y2
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VADDPD  Y2, Y0, Y0
	VADDPD  Y6, Y4, Y4
	VADDPD  Y4, Y0, Y0
	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ $8, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  col

done:
	VZEROUPPER
	RET

// func sincosAVX(z []float64, p *[4]float64, q0 uint64, s, ds []float64, sum *[4]float64) (over int)
TEXT ·sincosAVX(SB), NOSPLIT, $0-104
	MOVQ         z_base+0(FP), SI
	MOVQ         z_len+8(FP), CX
	SHRQ         $2, CX
	MOVQ         p+24(FP), AX
	VMOVUPD      (AX), Y15
	VPBROADCASTQ q0+32(FP), Y12
	MOVQ         s_base+40(FP), DI
	MOVQ         ds_base+64(FP), DX
	VXORPD       Y14, Y14, Y14 // lane sums of ds
	VXORPD       Y13, Y13, Y13 // lanes with |x| beyond sincosMax
	TESTQ        CX, CX
	JZ           done

loop:
	VMULPD       (SI), Y15, Y0 // x = p·z
	VANDPD       ABSMASK, Y0, Y1
	VCMPPD       $6, SINCOSMAX, Y1, Y1 // not (|x| ≤ sincosMax)
	VORPD        Y1, Y13, Y13
	VMOVUPD      MAGIC, Y2
	VFMADD231PD  TWOOVERPI, Y0, Y2 // t = x·2/π + roundMagic
	VSUBPD       MAGIC, Y2, Y3 // k
	VMOVAPD      Y0, Y4
	VFNMADD231PD PIO2A, Y3, Y4
	VFNMADD231PD PIO2B, Y3, Y4
	VFNMADD231PD PIO2C, Y3, Y4 // r
	VMULPD       Y4, Y4, Y5 // r²
	VMOVUPD sinc<>+224(SB), Y6
	VFMADD213PD sinc<>+192(SB), Y5, Y6
	VFMADD213PD sinc<>+160(SB), Y5, Y6
	VFMADD213PD sinc<>+128(SB), Y5, Y6
	VFMADD213PD sinc<>+96(SB), Y5, Y6
	VFMADD213PD sinc<>+64(SB), Y5, Y6
	VFMADD213PD sinc<>+32(SB), Y5, Y6
	VFMADD213PD sinc<>+0(SB), Y5, Y6
	VMULPD       Y4, Y5, Y7
	VFMADD213PD  Y4, Y7, Y6 // sin r
	VMOVUPD cosc<>+224(SB), Y8
	VFMADD213PD cosc<>+192(SB), Y5, Y8
	VFMADD213PD cosc<>+160(SB), Y5, Y8
	VFMADD213PD cosc<>+128(SB), Y5, Y8
	VFMADD213PD cosc<>+96(SB), Y5, Y8
	VFMADD213PD cosc<>+64(SB), Y5, Y8
	VFMADD213PD cosc<>+32(SB), Y5, Y8
	VFMADD213PD cosc<>+0(SB), Y5, Y8
	VFMADD213PD  ONE, Y5, Y8 // cos r
	VPADDQ       Y12, Y2, Y9 // quadrant q = k + q0 (low bits of t)
	VPSLLQ       $63, Y9, Y10 // q odd: swap
	VBLENDVPD    Y10, Y8, Y6, Y11
	VBLENDVPD    Y10, Y6, Y8, Y6
	VPSLLQ       $62, Y9, Y10
	VANDPD       SIGNBIT, Y10, Y10
	VXORPD       Y10, Y11, Y11 // sin: negated if q & 2
	VPADDQ       IONE, Y9, Y9
	VPSLLQ       $62, Y9, Y9
	VANDPD       SIGNBIT, Y9, Y9
	VXORPD       Y9, Y6, Y6 // cos: negated if (q+1) & 2
	VMOVUPD      Y11, (DI)
	VMULPD       Y15, Y6, Y6
	VMOVUPD      Y6, (DX)
	VADDPD       Y6, Y14, Y14
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, DX
	DECQ         CX
	JNZ          loop

done:
	MOVQ      sum+88(FP), AX
	VMOVUPD   Y14, (AX)
	VMOVMSKPD Y13, AX
	MOVQ      AX, over+96(FP)
	VZEROUPPER
	RET

// func gaussAVX(z []float64, ip *[4]float64, s, ds []float64, sum *[4]float64)
TEXT ·gaussAVX(SB), NOSPLIT, $0-88
	MOVQ    z_base+0(FP), SI
	MOVQ    z_len+8(FP), CX
	SHRQ    $2, CX
	MOVQ    ip+24(FP), AX
	VMOVUPD (AX), Y15
	MOVQ    s_base+32(FP), DI
	MOVQ    ds_base+56(FP), DX
	VXORPD  Y14, Y14, Y14
	TESTQ   CX, CX
	JZ      done

loop:
	VMOVUPD      (SI), Y0
	VMULPD       Y0, Y0, Y1 // z²
	VMULPD       Y15, Y1, Y2 // u = z²·ip
	VMULPD       NEGHALF, Y2, Y3
	VMAXPD       EXPMIN, Y3, Y3 // a = max(−u/2, expMin)
	EXPPARTS
	VFMADD213PD  Y5, Y5, Y9 // e = 2ᵏq + 2ᵏ
	VMULPD       Y0, Y1, Y10
	VMULPD       Y9, Y10, Y10 // s = z³e
	VMOVUPD      Y10, (DI)
	VMOVUPD      THREE, Y11
	VSUBPD       Y2, Y11, Y11
	VMULPD       Y1, Y11, Y11
	VMULPD       Y9, Y11, Y11 // ds = z²(3 − u)e
	VMOVUPD      Y11, (DX)
	VADDPD       Y11, Y14, Y14
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, DX
	DECQ         CX
	JNZ          loop

done:
	MOVQ    sum+80(FP), AX
	VMOVUPD Y14, (AX)
	VZEROUPPER
	RET

// func tanhAVX(z []float64, p *[4]float64, s, ds []float64, sum *[4]float64)
TEXT ·tanhAVX(SB), NOSPLIT, $0-88
	MOVQ    z_base+0(FP), SI
	MOVQ    z_len+8(FP), CX
	SHRQ    $2, CX
	MOVQ    p+24(FP), AX
	VMOVUPD (AX), Y15
	MOVQ    s_base+32(FP), DI
	MOVQ    ds_base+56(FP), DX
	VXORPD  Y14, Y14, Y14
	TESTQ   CX, CX
	JZ      done

loop:
	VMULPD       (SI), Y15, Y0 // x = p·z
	VANDPD       ABSMASK, Y0, Y1
	VMULPD       NEGTWO, Y1, Y3
	VMAXPD       EXPMIN, Y3, Y3 // a = max(−2|x|, expMin)
	EXPPARTS
	VSUBPD       ONE, Y5, Y6
	VFMADD213PD  Y6, Y5, Y9 // m = e^a − 1 = 2ᵏq + (2ᵏ − 1)
	VADDPD       TWO, Y9, Y10
	VDIVPD       Y10, Y9, Y11 // m/(2 + m)
	VANDPD       ABSMASK, Y11, Y11
	VANDPD       SIGNBIT, Y0, Y13
	VORPD        Y13, Y11, Y11 // s = tanh x, signed as x
	VMOVUPD      Y11, (DI)
	VMULPD       Y11, Y11, Y6
	VMOVAPD      Y15, Y7
	VFNMADD231PD Y6, Y15, Y7 // ds = p − p·s²
	VMOVUPD      Y7, (DX)
	VADDPD       Y7, Y14, Y14
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, DX
	DECQ         CX
	JNZ          loop

done:
	MOVQ    sum+80(FP), AX
	VMOVUPD Y14, (AX)
	VZEROUPPER
	RET

// The least-squares stages' kernel values (GaussRow in ls_amd64.go)
// use EXPPARTS too, so their kernel lives here.
DATA gcut<>+0(SB)/8, $0xc075900000000000 // −345, Gauss's cut-off
GLOBL gcut<>(SB), RODATA|NOPTR, $8

// func gaussRowAVX(dst, src []float64, c float64)
//
// dst[i] = e^(c·src[i]) where c·src[i] ≥ −345, else 0, for the first
// len(src) &^ 3 entries.
TEXT ·gaussRowAVX(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         src_base+24(FP), SI
	MOVQ         src_len+32(FP), CX
	SHRQ         $2, CX
	VBROADCASTSD c+48(FP), Y15
	VBROADCASTSD gcut<>(SB), Y14
	TESTQ        CX, CX
	JZ           gdone

gloop:
	VMOVUPD     (SI), Y0
	VMULPD      Y15, Y0, Y3
	VCMPPD      $0x1d, Y14, Y3, Y13 // a ≥ −345
	VMAXPD      EXPMIN, Y3, Y3
	EXPPARTS
	VFMADD213PD Y5, Y5, Y9 // e = 2ᵏq + 2ᵏ
	VANDPD      Y13, Y9, Y9
	VMOVUPD     Y9, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNZ         gloop

gdone:
	VZEROUPPER
	RET
