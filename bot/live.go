package bot

import "github.com/okey-game/okey/engine"

// liveEstimate is estimate (see eval.go) with what the seat has seen: seen
// counts the copies of each face the seat knows the place of (its rack
// included). A partial group counts only when some tile that completes it
// has a copy the seat has not seen; for seven pairs a single needs an unseen
// twin (or an okey). It is 0 exactly when hand wins.
func liveEstimate(okey engine.Face, hand []engine.Face, winLen int, seen *[engine.NumFaces]int) int {
	_, rest := engine.Arrange(okey, hand, false)
	loose := rest[:0:0]
	for _, f := range rest {
		if f != okey {
			loose = append(loose, f)
		}
	}
	r := len(loose)
	k := min(livePartials(okey, loose, seen), r/3)
	est := r - 2*k
	if winLen == engine.WinSize {
		est = min(est, livePairsDistance(okey, hand, seen))
	}
	return est
}

// liveFace reports whether face f (a plain face) has a copy not yet seen.
// The okey's face is also played by the false jokers; an okey itself is
// never counted as a completion here (it completes anything).
func liveFace(seen *[engine.NumFaces]int, f engine.Face) bool { return seen[f] < 2 }

// completes lists into out the plain faces that make the linked plain
// pair a, b a complete set or run of three.
func completes(a, b engine.Face, out []engine.Face) []engine.Face {
	out = out[:0]
	na, nb := a.Number(), b.Number()
	if a.Colour() != b.Colour() {
		for c := engine.Colour(0); c < engine.NumColours; c++ {
			if c != a.Colour() && c != b.Colour() {
				out = append(out, engine.NewFace(c, na))
			}
		}
		return out
	}
	c := a.Colour()
	hi := func(n int) int {
		if n == 1 {
			return 14
		}
		return n
	}
	lo, top := min(na, nb), max(na, nb)
	if abs(na-nb) > 2 { // 1 as 14: 12-1 or 13-1
		lo, top = min(hi(na), hi(nb)), max(hi(na), hi(nb))
	}
	add := func(n int) {
		if n == 14 {
			n = 1
		}
		if n >= 1 && n <= 13 {
			out = append(out, engine.NewFace(c, n))
		}
	}
	if top-lo == 2 {
		add(lo + 1)
		return out
	}
	if lo > 1 {
		add(lo - 1)
	}
	if top < 14 {
		add(top + 1)
	}
	return out
}

// livePartials counts disjoint linked pairs among loose (no okeys) that can
// still complete, greedily in the given order.
func livePartials(okey engine.Face, loose []engine.Face, seen *[engine.NumFaces]int) int {
	used := make([]bool, len(loose))
	var buf [4]engine.Face
	n := 0
	for i := range loose {
		if used[i] {
			continue
		}
		a := plain(okey, loose[i])
		for j := i + 1; j < len(loose); j++ {
			if used[j] {
				continue
			}
			b := plain(okey, loose[j])
			if !linked(a, b) {
				continue
			}
			ok := false
			for _, c := range completes(a, b, buf[:]) {
				if liveFace(seen, c) {
					ok = true
					break
				}
			}
			if ok {
				used[i], used[j] = true, true
				n++
				break
			}
		}
	}
	return n
}

// livePairsDistance is pairsDistance where a single whose twin is seen
// elsewhere can pair only with an okey.
func livePairsDistance(okey engine.Face, hand []engine.Face, seen *[engine.NumFaces]int) int {
	var cnt [engine.NumFaces]int
	w := 0
	for _, f := range hand {
		if f == okey {
			w++
			continue
		}
		cnt[plain(okey, f)]++
	}
	p2, s1, dead := 0, 0, 0
	for f, c := range cnt {
		switch {
		case c >= 2:
			p2++
		case c == 1:
			// seen counts this copy too: the twin is live when seen < 2.
			twin := seen[f]
			if engine.Face(f) == okey {
				twin = seen[f] // false jokers play as the okey's face
			}
			if twin >= 2 {
				dead++
			} else {
				s1++
			}
		}
	}
	places := len(hand) / 2
	kept := 0
	m := min(p2, places)
	kept, places = kept+2*m, places-m
	// okeys pair with live or dead singles alike
	m = min(s1+dead, w, places)
	kept, places, w = kept+2*m, places-m, w-m
	used := min(m, dead)
	dead -= used
	s1 -= m - used
	m = min(w/2, places)
	kept, places, w = kept+2*m, places-m, w-2*m
	kept += min(s1+w, places)
	return len(hand) - kept
}
