//go:build amd64 && !purego

package group

//go:generate go run gen_fe8.go

import "golang.org/x/sys/cpu"

// fe8Square sets z = a^(2^n), n >= 1, lane by lane (fe8_amd64.s).
//
//go:noescape
func fe8Square(z, a *fe8, n int)

// fe8Mul sets z = a*b, lane by lane (fe8_amd64.s).
//
//go:noescape
func fe8Mul(z, a, b *fe8)

// fe8Add sets z = a+b, lane by lane (fe8_amd64.s).
//
//go:noescape
func fe8Add(z, a, b *fe8)

// fe8Sub sets z = a-b, lane by lane (fe8_amd64.s).
//
//go:noescape
func fe8Sub(z, a, b *fe8)

// haveFe8 reports whether the processor has AVX-512 IFMA (and the
// operating system keeps its registers).
var haveFe8 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512IFMA
