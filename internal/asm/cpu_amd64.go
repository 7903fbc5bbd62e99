//go:build !purego

package asm

import "golang.org/x/sys/cpu"

// useAVX says whether the kernels (the least-squares, basis and Gram
// kernels and the lane kernels) run the assembly versions: on CPUs with
// AVX2 and FMA.
var useAVX = cpu.X86.HasAVX2 && cpu.X86.HasFMA
