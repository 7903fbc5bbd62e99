//go:build !amd64 || purego

package asm

// useAVX is false: no kernel runs assembly.
const useAVX = false
