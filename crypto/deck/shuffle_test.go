package deck

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/internal/lane"
)

// chi2Crit returns the chi-square value exceeded with probability about
// 1e-6 for df degrees of freedom (Wilson-Hilferty approximation).
func chi2Crit(df int) float64 {
	k := float64(df)
	const z = 4.753 // standard normal quantile for 1e-6
	a := 2 / (9 * k)
	return k * math.Pow(1-a+z*math.Sqrt(a), 3)
}

// naiveShuffle is the classic biased shuffle: swap every p[i] with a
// uniform p[j], j in [0, n). It exists to show the tests can fail.
func naiveShuffle(p []uint8, st *group.Stream) {
	for i := range p {
		p[i] = uint8(i)
	}
	for i := range p {
		j := st.Uniform(uint64(len(p)))
		p[i], p[j] = p[j], p[i]
	}
}

func streamFor(i int) *group.Stream {
	return group.NewStream("okey/test/shuffle", binary.BigEndian.AppendUint64(nil, uint64(i)))
}

// permChi2 shuffles 4 elements n times and returns the chi-square statistic
// over the 24 permutations (23 degrees of freedom).
func permChi2(shuffle func([]uint8, *group.Stream), n int) float64 {
	var counts [256]int // indexed by the permutation read as a base-4 number
	var p [4]uint8
	for i := 0; i < n; i++ {
		shuffle(p[:], streamFor(i))
		counts[int(p[0])<<6|int(p[1])<<4|int(p[2])<<2|int(p[3])]++
	}
	e := float64(n) / 24
	x, seen := 0.0, 0
	for _, c := range counts {
		if c > 0 {
			seen++
			d := float64(c) - e
			x += d * d / e
		}
	}
	return x + float64(24-seen)*e // permutations never seen
}

// TestShuffleAllPermutations: with 120000 shuffles of 4 elements each of the
// 24 permutations is expected 5000 times; a fair shuffle's statistic exceeds
// the 1e-6 bound (about 71) essentially never, while the naive shuffle
// (permutation probabilities from 8/256 to 15/256) scores in the thousands.
func TestShuffleAllPermutations(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("statistical test")
	}
	const n = 120000
	crit := chi2Crit(23)
	x := permChi2(fisherYates, n)
	if x > crit {
		t.Fatalf("Fisher-Yates: chi-square %.1f > %.1f", x, crit)
	}
	y := permChi2(naiveShuffle, n)
	if y <= crit {
		t.Fatalf("naive shuffle not caught: chi-square %.1f", y)
	}
	t.Logf("chi-square: Fisher-Yates %.1f, naive %.1f, bound %.1f", x, y, crit)
}

// positionChi2 shuffles 106 tiles n times and returns the chi-square
// statistic of the 106x106 tile-by-position table, (105^2 degrees of
// freedom, expectation n/106 per cell).
func positionChi2(shuffle func([]uint8, *group.Stream), n int) float64 {
	var counts [DeckSize][DeckSize]int
	p := make([]uint8, DeckSize)
	for i := 0; i < n; i++ {
		shuffle(p, streamFor(i))
		for pos, tile := range p {
			counts[tile][pos]++
		}
	}
	e := float64(n) / DeckSize
	x := 0.0
	for _, row := range counts {
		for _, c := range row {
			d := float64(c) - e
			x += d * d / e
		}
	}
	return x
}

// TestShufflePositions: 10000 shuffles of the full deck, about 94 per cell.
// The naive shuffle's cell probabilities deviate from 1/106 by tens of
// percent, adding thousands to the statistic; the 1e-6 bound is about
// 11760 against a mean of 11025.
func TestShufflePositions(t *testing.T) {
	lane.NoRace(t)
	if testing.Short() {
		t.Skip("statistical test")
	}
	n := 10000
	crit := chi2Crit(105 * 105)
	x := positionChi2(fisherYates, n)
	if x > crit {
		t.Fatalf("Fisher-Yates: chi-square %.0f > %.0f", x, crit)
	}
	y := positionChi2(naiveShuffle, n)
	if y <= crit {
		t.Fatalf("naive shuffle not caught: chi-square %.0f <= %.0f", y, crit)
	}
	t.Logf("chi-square: Fisher-Yates %.0f, naive %.0f, bound %.0f", x, y, crit)
}
