package bot

import "github.com/okey-game/okey/engine"

// nearEstimate is the estimate at or below which greedy asks the engine for
// the exact distance (engine.Distance, engine.BestDiscards). Far from a win
// the exact search is slow (milliseconds for one random 14-tile hand, tens
// of milliseconds for BestDiscards on 15), near a win it is fast.
const nearEstimate = 2

// estimate is a cheap estimate of how many tiles hand (winLen tiles) is
// from a win: engine.Arrange puts as many tiles as it can in complete sets
// and runs; of the r plain tiles left over, disjoint partial groups (two
// tiles that a third would make a set or run: same number in two colours,
// or one colour two or fewer apart) are found greedily. Keeping k partials
// needs k new tiles, and the new tiles are the r-2k tiles given up, so
// k <= r/3 and the estimate is r - 2k. Okeys left over are kept for free.
// For 14-tile hands the exact seven-pairs distance is the other candidate.
// It is 0 exactly when hand wins.
func estimate(okey engine.Face, hand []engine.Face, winLen int) int {
	_, rest := engine.Arrange(okey, hand, false)
	loose := rest[:0:0]
	for _, f := range rest {
		if f != okey {
			loose = append(loose, f)
		}
	}
	r := len(loose)
	k := min(partials(okey, loose), r/3)
	est := r - 2*k
	if winLen == engine.WinSize {
		est = min(est, pairsDistance(okey, hand))
	}
	return est
}

// plain returns the face a non-okey tile plays as: a false joker is the
// okey's face.
func plain(okey, f engine.Face) engine.Face {
	if f == engine.FalseJoker {
		return okey
	}
	return f
}

// linked reports whether two plain tiles (false jokers as the okey's face)
// are two thirds of a set or a run: same number and other colours, or one
// colour and numbers one or two apart (a 1 also follows 13).
func linked(a, b engine.Face) bool {
	if a == b {
		return false
	}
	na, nb := a.Number(), b.Number()
	if a.Colour() != b.Colour() {
		return na == nb
	}
	high := func(n int) int {
		if n == 1 {
			return 14
		}
		return n
	}
	d := min(abs(na-nb), abs(high(na)-high(nb)))
	return d == 1 || d == 2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// partials counts disjoint linked pairs among loose (no okeys), greedily in
// the given order.
func partials(okey engine.Face, loose []engine.Face) int {
	used := make([]bool, len(loose))
	n := 0
	for i := range loose {
		if used[i] {
			continue
		}
		for j := i + 1; j < len(loose); j++ {
			if !used[j] && linked(plain(okey, loose[i]), plain(okey, loose[j])) {
				used[i], used[j] = true, true
				n++
				break
			}
		}
	}
	return n
}

// pairsDistance is the exact distance of a 14-tile hand to seven pairs:
// keep the pairs, match single tiles with okeys, then okeys together; a
// free pair place keeps one more tile if any is left.
func pairsDistance(okey engine.Face, hand []engine.Face) int {
	var cnt [engine.NumFaces]int
	w := 0
	for _, f := range hand {
		if f == okey {
			w++
			continue
		}
		cnt[plain(okey, f)]++
	}
	p2, s1 := 0, 0
	for _, c := range cnt {
		switch {
		case c >= 2:
			p2++
		case c == 1:
			s1++
		}
	}
	places := len(hand) / 2
	kept := 0
	m := min(p2, places)
	kept, places = kept+2*m, places-m
	m = min(s1, w, places)
	kept, places, s1, w = kept+2*m, places-m, s1-m, w-m
	m = min(w/2, places)
	kept, places, w = kept+2*m, places-m, w-2*m
	kept += min(s1+w, places)
	return len(hand) - kept
}

// links counts the other tiles of hand that tile i is linked to or
// identical with: a low count marks a tile that helps little.
func links(okey engine.Face, hand []engine.Face, i int) int {
	a := plain(okey, hand[i])
	n := 0
	for j, g := range hand {
		if j == i || g == okey {
			continue
		}
		if b := plain(okey, g); b == a || linked(a, b) {
			n++
		}
	}
	return n
}
