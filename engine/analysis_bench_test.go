package engine

import (
	"math/rand/v2"
	"testing"
)

// benchHands makes n hands with their okeys.
func benchHands(n int, gen func(r *rand.Rand) (Face, []Face)) ([]Face, [][]Face) {
	r := rand.New(rand.NewPCG(7, 8))
	okeys := make([]Face, n)
	hands := make([][]Face, n)
	for i := range hands {
		okeys[i], hands[i] = gen(r)
	}
	return okeys, hands
}

func reportRate(b *testing.B, unit string) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(float64(b.N)/s, unit)
	}
}

// BenchmarkIsWinningRandom: random 14 of the 106 tiles, random indicator.
// Target: 1,000,000 checks/s on one core.
func BenchmarkIsWinningRandom(b *testing.B) {
	okeys, hands := benchHands(4096, func(r *rand.Rand) (Face, []Face) { return randomHand(r, 14) })
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 4095
		IsWinning(okeys[j], hands[j])
	}
	reportRate(b, "checks/s")
}

// BenchmarkIsWinningTwoOkeys: winning hands holding both okeys.
// Target: 200,000 checks/s on one core.
func BenchmarkIsWinningTwoOkeys(b *testing.B) {
	okeys, hands := benchHands(1024, twoOkeyWinner)
	for j := range hands {
		if !IsWinning(okeys[j], hands[j]) {
			b.Fatalf("not winning: %s", FormatFaces(hands[j]))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 1023
		IsWinning(okeys[j], hands[j])
	}
	reportRate(b, "checks/s")
}

// twoOkeyWinner makes a winning hand of groups with both okeys in it.
func twoOkeyWinner(r *rand.Rand) (Face, []Face) {
	for {
		okey, h := winningHand(r, 14)
		n := 0
		for _, f := range h {
			if f == okey {
				n++
			}
		}
		if n == 2 {
			return okey, h
		}
	}
}

// BenchmarkDistanceRandom: distance of random hands.
// Target: 50,000 computations/s on one core.
func BenchmarkDistanceRandom(b *testing.B) {
	okeys, hands := benchHands(1024, func(r *rand.Rand) (Face, []Face) { return randomHand(r, 14) })
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 1023
		Distance(okeys[j], hands[j])
	}
	reportRate(b, "distances/s")
}

// BenchmarkDistanceNear: distance of hands one to three exchanges from a win.
func BenchmarkDistanceNear(b *testing.B) {
	okeys, hands := benchHands(1024, func(r *rand.Rand) (Face, []Face) {
		okey, h := winningHand(r, 14)
		return okey, perturb(r, h, 1+r.IntN(3))
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 1023
		Distance(okeys[j], hands[j])
	}
	reportRate(b, "distances/s")
}

// BenchmarkWinningDiscards: 15-tile hands, near a win.
func BenchmarkWinningDiscards(b *testing.B) {
	okeys, hands := benchHands(1024, func(r *rand.Rand) (Face, []Face) {
		okey, h := winningHand(r, 14)
		return okey, append(h, perturb(r, h[:1], 1)...)
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 1023
		WinningDiscards(okeys[j], hands[j])
	}
	reportRate(b, "hands/s")
}

// BenchmarkBestDiscards: 15-tile random hands.
func BenchmarkBestDiscards(b *testing.B) {
	okeys, hands := benchHands(256, func(r *rand.Rand) (Face, []Face) { return randomHand(r, 15) })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 255
		BestDiscards(okeys[j], hands[j])
	}
	reportRate(b, "hands/s")
}

// BenchmarkArrange: random racks of 15 tiles.
func BenchmarkArrange(b *testing.B) {
	okeys, hands := benchHands(256, func(r *rand.Rand) (Face, []Face) { return randomHand(r, 15) })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i & 255
		Arrange(okeys[j], hands[j], i&1 == 0)
	}
	reportRate(b, "hands/s")
}
