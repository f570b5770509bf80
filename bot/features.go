package bot

import "github.com/okey-game/okey/engine"

// The learned player's inputs, all binary (Net.Eval takes the active
// indices). A state is what the seat holds and knows right after its
// discard (an afterstate: winLen tiles kept, the discard public), or before
// its draw (the rack it would keep by drawing and throwing the drawn tile).
//
// The inputs describe the hand's shape, not its faces (a first version with
// a one-hot block per face, 417 inputs, overfit the few thousand hands'
// outcomes and lost to greedy): thermometer codes (see hot) of the
// package's estimate, the
// live estimate, the seven-pairs distance, the exact distance (14-tile
// hands, estimate at most 2), the okeys held, the stock (buckets of 4), the
// tiles in complete groups and left loose (engine.Arrange), the partial
// groups among the loose tiles and those that can still complete, the
// live outs (unseen copies of the faces that complete a partial), the
// isolated loose tiles; the players, 13-tile hands, the before-the-draw
// flag, whether the discard goes with a tile the next player took, and
// how many kept tiles the discard was linked to or the same as (0-4),
// whether the next player let the discard's face pass or threw it (the
// expert counts no danger then), and, one tile from a win (14-tile hands),
// the live tiles that would win (the expert's outs there; capped at 12).
const (
	fEst      = 0
	fLive     = fEst + 10
	fPairs    = fLive + 10
	fExact    = fPairs + 8
	fOkeys    = fExact + 5
	fStock    = fOkeys + 2
	fGrouped  = fStock + 13
	fLoose    = fGrouped + 15
	fPartials = fLoose + 15
	fLiveP    = fPartials + 8
	fOuts     = fLiveP + 8
	fIsolated = fOuts + 16
	fPlayers  = fIsolated + 8
	fGerman   = fPlayers + 3
	fDraw     = fGerman + 1
	fFeeds    = fDraw + 1
	fLinks    = fFeeds + 2
	fPassed   = fLinks + 5
	fWinOuts  = fPassed + 1
	// NetInputs is the number of the learned player's inputs.
	NetInputs = fWinOuts + 12
)

// state is one position the learned player values.
type state struct {
	okey   engine.Face
	rack   []engine.Face // the tiles kept (winLen)
	pub    *[engine.NumFaces]int
	took   []engine.Face          // faces the next player took from a pile
	thrown engine.Face            // the discard just made; NoFace before the draw
	passed *[engine.NumFaces]bool // faces the next player let pass or threw
	stock  int
	n      int // players
	winLen int
}

// hot appends the thermometer code of v (capped at size): inputs base to
// base+v-1, so that neighbouring counts share most of their inputs and a
// net generalises from one to the next (a one-hot code overfit: each count
// learned alone from its own few samples).
func hot(out []uint16, base, v, size int) []uint16 {
	for i := 0; i < min(size, v); i++ {
		out = append(out, uint16(base+i))
	}
	return out
}

// encode appends the active inputs of s to out.
func (s *state) encode(out []uint16) []uint16 {
	okeys := 0
	for _, f := range s.rack {
		if f == s.okey {
			okeys++
		}
	}
	var all [engine.NumFaces]int
	for f := range all {
		all[f] = s.pub[f]
	}
	for _, f := range s.rack {
		all[f]++
	}
	groups, rest := engine.Arrange(s.okey, s.rack, false)
	grouped := 0
	for _, g := range groups {
		grouped += len(g.Tiles)
	}
	var loose []engine.Face
	for _, f := range rest {
		if f != s.okey {
			loose = append(loose, f)
		}
	}
	r := len(loose)
	k := min(partials(s.okey, loose), r/3)
	est := r - 2*k
	if s.winLen == engine.WinSize {
		est = min(est, pairsDistance(s.okey, s.rack))
	}
	out = hot(out, fEst, est, 10)
	out = hot(out, fLive, liveEstimate(s.okey, s.rack, s.winLen, &all), 10)
	if s.winLen == engine.WinSize {
		out = hot(out, fPairs, pairsDistance(s.okey, s.rack), 8)
		if est <= nearEstimate {
			d := engine.Distance(s.okey, s.rack)
			out = hot(out, fExact, d, 4)
			if d == 1 {
				out = hot(out, fWinOuts, winOuts(s.okey, s.rack, &all), 12)
			}
		} else {
			out = append(out, fExact+4)
		}
	} else {
		out = append(out, fGerman)
	}
	if okeys >= 1 {
		out = append(out, fOkeys)
	}
	if okeys >= 2 {
		out = append(out, fOkeys+1)
	}
	out = hot(out, fStock, s.stock/4, 13)
	out = hot(out, fGrouped, grouped, 15)
	out = hot(out, fLoose, r, 15)
	out = hot(out, fPartials, partials(s.okey, loose), 8)
	out = hot(out, fLiveP, livePartials(s.okey, loose, &all), 8)
	// Live outs: the unseen copies of the distinct faces that complete a
	// linked pair of loose tiles; isolated: loose tiles linked to none.
	var outFace [engine.NumFaces]bool
	var buf [4]engine.Face
	isolated := 0
	for i := range loose {
		a := plain(s.okey, loose[i])
		link := false
		for j := range loose {
			b := plain(s.okey, loose[j])
			if i == j || !linked(a, b) {
				continue
			}
			link = true
			if j > i {
				for _, c := range completes(a, b, buf[:]) {
					outFace[c] = true
				}
			}
		}
		if !link {
			isolated++
		}
	}
	outs := 0
	for f, ok := range outFace {
		if ok {
			outs += max(0, 2-all[f])
		}
	}
	out = hot(out, fOuts, outs, 16)
	out = hot(out, fIsolated, isolated, 8)
	out = hot(out, fPlayers, s.n-2, 3)
	if s.thrown == engine.NoFace {
		out = append(out, fDraw)
	} else {
		t := plain(s.okey, s.thrown)
		for _, f := range s.took {
			f = plain(s.okey, f)
			if f == t {
				out = append(out, fFeeds)
				break
			}
		}
		for _, f := range s.took {
			if linked(plain(s.okey, f), t) {
				out = append(out, fFeeds+1)
				break
			}
		}
		links := 0
		for _, f := range s.rack {
			if f != s.okey {
				if g := plain(s.okey, f); g == t || linked(g, t) {
					links++
				}
			}
		}
		out = hot(out, fLinks, links, 5)
		if s.passed != nil && s.passed[s.thrown] {
			out = append(out, fPassed)
		}
	}
	return out
}

// winOuts counts the unseen tiles, by copy, that make hand (14 tiles, one
// from a win) a winning hand; all counts the faces the seat has seen.
func winOuts(okey engine.Face, hand []engine.Face, all *[engine.NumFaces]int) int {
	n := 0
	for y := engine.Face(0); y < engine.NumFaces; y++ {
		live := max(0, 2-all[y])
		if live == 0 || !relevant(okey, hand, y) {
			continue
		}
		if len(engine.WinningDiscards(okey, with(hand, y))) > 0 {
			n += live
		}
	}
	return n
}
