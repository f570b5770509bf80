//go:build !amd64 || purego

package group

func fe8Square(z, a *fe8, n int) { panic("group: internal error: no fe8") }

func fe8Mul(z, a, b *fe8) { panic("group: internal error: no fe8") }

func fe8Add(z, a, b *fe8) { panic("group: internal error: no fe8") }

func fe8Sub(z, a, b *fe8) { panic("group: internal error: no fe8") }

// haveFe8 is false: fe8's arithmetic is assembly for amd64 only.
const haveFe8 = false
