package bot

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/okey-game/okey/engine"
)

// ArenaConfig says what an arena plays: whole hands with the engine alone
// (no cryptography, no network), one strategy per seat.
type ArenaConfig struct {
	Rules engine.Ruleset
	// Bots names the strategy of each seat in the first rotation; the
	// number of seats is len(Bots).
	Bots []string
	// Hands is the number of hands to play. Hand i deals shuffle i/n (n
	// seats) with the strategies rotated by i%n seats, so a multiple of n
	// hands plays every deal with every strategy in every seat.
	Hands int
	// Seed fixes the shuffles, dice and strategies' seeds: the same config
	// gives the same result whatever Workers is.
	Seed uint64
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int
	// Make builds a seat's strategy (nil: New). Tests use it to try
	// variants of a strategy under one name.
	Make func(name string, seed uint64) (Strategy, error)
	// omniscient names a strategy whose seats' views learn every rack's
	// faces and every drawn tile (an upper bound on the worth of knowing
	// where the hidden tiles are; tests only).
	omniscient string
}

// ArenaStats is one strategy's record over the hands played.
type ArenaStats struct {
	Name      string
	Seats     int // seats it holds at the table
	Wins      int // hands won by one of its seats
	ScoreSum  int // sum of the score changes of its seats
	SeatHands int // seat-hands played (Seats x hands)
	Groups    int // wins with sets and runs
	Pairs     int // wins with seven pairs
	Okey      int // wins with the okey as the final discard (also counted above)
}

// ArenaResult is what an arena found.
type ArenaResult struct {
	Rules      string
	Hands      int
	Stalemates int
	Stats      []ArenaStats // one per distinct strategy, in order of first seat

	seats int
	seed  uint64
	hands []handRec // one per hand, in hand order
}

// handRec is what one hand gave each strategy (indexed as Stats): its wins
// (0 or 1) and the sum over its seats of twice their placement.
type handRec struct {
	win    [4]int8
	place2 [4]int16
}

// ErrArena is returned (wrapped) for a config the arena cannot play.
var ErrArena = errors.New("bot: bad arena")

// Share returns s's win share (wins / hands) and its 95% Wilson interval.
func (r ArenaResult) Share(s ArenaStats) (share, lo, hi float64) {
	return wilson(s.Wins, r.Hands)
}

// Avg returns s's average score change per seat per hand.
func (s ArenaStats) Avg() float64 {
	if s.SeatHands == 0 {
		return 0
	}
	return float64(s.ScoreSum) / float64(s.SeatHands)
}

func wilson(k, n int) (p, lo, hi float64) {
	if n == 0 {
		return 0, 0, 0
	}
	const z = 1.959964
	p = float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return p, max(0, c-h), min(1, c+h)
}

// Arena plays cfg.Hands hands and returns the record of each strategy.
func Arena(cfg ArenaConfig) (ArenaResult, error) {
	n := len(cfg.Bots)
	if err := cfg.Rules.CheckPlayers(n); err != nil {
		return ArenaResult{}, fmt.Errorf("%w: %v", ErrArena, err)
	}
	if cfg.Hands < 1 {
		return ArenaResult{}, fmt.Errorf("%w: %d hands", ErrArena, cfg.Hands)
	}
	res := ArenaResult{Rules: cfg.Rules.String(), Hands: cfg.Hands, seats: n, seed: cfg.Seed, hands: make([]handRec, cfg.Hands)}
	idx := make([]int, n) // strategy index of each first-rotation seat
	is101 := cfg.Rules.Preset == engine.Preset101
	for s, name := range cfg.Bots {
		if is101 {
			if _, err := New101(name); err != nil {
				return ArenaResult{}, fmt.Errorf("%w: %v", ErrArena, err)
			}
		} else if cfg.Make == nil {
			if _, err := New(name, 0); err != nil {
				return ArenaResult{}, fmt.Errorf("%w: %v", ErrArena, err)
			}
		}
		found := -1
		for i, st := range res.Stats {
			if st.Name == name {
				found = i
			}
		}
		if found < 0 {
			found = len(res.Stats)
			res.Stats = append(res.Stats, ArenaStats{Name: name})
		}
		res.Stats[found].Seats++
		idx[s] = found
	}
	sign := gainSign(cfg.Rules)
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Hands)
	type part struct {
		stats      []ArenaStats
		stalemates int
		err        error
	}
	parts := make([]part, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			pt := &parts[w]
			pt.stats = make([]ArenaStats, len(res.Stats))
			for i := w; i < cfg.Hands; i += workers {
				play := arenaHand
				if is101 {
					play = arenaHand101
				}
				out, err := play(cfg, i)
				if err != nil {
					pt.err = err
					return
				}
				rot := i % n
				won := make([]bool, len(res.Stats))
				rec := &res.hands[i] // this worker's alone
				gains := make([]int, n)
				for seat, d := range out.deltas {
					gains[seat] = sign * d
				}
				for seat := 0; seat < n; seat++ {
					j := idx[(seat+rot)%n]
					st := &pt.stats[j]
					st.ScoreSum += out.deltas[seat]
					st.SeatHands++
					rec.place2[j] += int16(place2(gains, seat))
					if out.res.Winner == seat {
						won[j] = true
						rec.win[j] = 1
					}
				}
				if out.res.Winner < 0 {
					pt.stalemates++
				}
				for j, ok := range won {
					if !ok {
						continue
					}
					st := &pt.stats[j]
					st.Wins++
					if out.res.Kind == engine.Pairs {
						st.Pairs++
					} else {
						st.Groups++
					}
					if out.res.OkeyDiscard {
						st.Okey++
					}
				}
			}
		}(w)
	}
	wg.Wait()
	for _, pt := range parts {
		if pt.err != nil {
			return ArenaResult{}, pt.err
		}
		res.Stalemates += pt.stalemates
		for j, st := range pt.stats {
			r := &res.Stats[j]
			r.Wins += st.Wins
			r.ScoreSum += st.ScoreSum
			r.SeatHands += st.SeatHands
			r.Groups += st.Groups
			r.Pairs += st.Pairs
			r.Okey += st.Okey
		}
	}
	return res, nil
}

type handOut struct {
	res    engine.HandResult
	deltas []int
}

// arenaDeal returns hand i's deal, its rotation and its random source.
func arenaDeal(cfg ArenaConfig, i int) (deal uint64, rot int, rng *rand.Rand) {
	n := len(cfg.Bots)
	deal = uint64(i / n)
	return deal, i % n, rand.New(rand.NewPCG(cfg.Seed, 0x6172656e61^deal))
}

// arenaHand plays hand i of the arena: deal i/n, rotation i%n.
func arenaHand(cfg ArenaConfig, i int) (handOut, error) {
	n := len(cfg.Bots)
	deal, rot, rng := arenaDeal(cfg, i)
	m, err := engine.NewMatch(cfg.Rules, n, int(deal%uint64(n)))
	if err != nil {
		return handOut{}, fmt.Errorf("%w: %v", ErrArena, err)
	}
	var tiles [engine.DeckSize]engine.Tile
	for j := range tiles {
		tiles[j] = engine.Tile(j)
	}
	rng.Shuffle(engine.DeckSize, func(a, b int) { tiles[a], tiles[b] = tiles[b], tiles[a] })
	open := func(slots []engine.Slot) []engine.SlotFace {
		out := make([]engine.SlotFace, len(slots))
		for j, s := range slots {
			out[j] = engine.SlotFace{Slot: s, Face: tiles[s].Face()}
		}
		return out
	}
	bots := make([]Strategy, n)
	views := make([]*engine.View, n)
	for seat := 0; seat < n; seat++ {
		mk := cfg.Make
		if mk == nil {
			mk = New
		}
		s, err := mk(cfg.Bots[(seat+rot)%n], cfg.Seed^(deal<<8)^uint64(seat))
		if err != nil {
			return handOut{}, err
		}
		bots[seat] = s
		views[seat] = engine.NewView(seat)
	}
	learned := false
	omni := func(seat int) bool {
		return cfg.omniscient != "" && cfg.Bots[(seat+rot)%n] == cfg.omniscient
	}
	for steps := 0; ; steps++ {
		h := m.Hand()
		if h.Phase() == engine.PhaseOver {
			break
		}
		if steps > 5000 {
			return handOut{}, fmt.Errorf("%w: hand %d does not end", ErrArena, i)
		}
		var a engine.Action
		if h.Phase() != engine.PhasePlay {
			need := h.Need()
			switch need.Kind {
			case engine.ActRoll:
				a = engine.Action{Kind: engine.ActRoll, Value: 1 + rng.IntN(6)}
			case engine.ActReveal:
				a = engine.Action{Kind: engine.ActReveal, Faces: open(need.Slots)}
			default:
				return handOut{}, fmt.Errorf("%w: unexpected need %+v", ErrArena, need)
			}
		} else {
			if !learned {
				for seat := 0; seat < n; seat++ {
					for o := 0; o < n; o++ {
						if o == seat || omni(seat) {
							for _, s := range h.Rack(o) {
								views[seat].Learn(s, tiles[s].Face())
							}
						}
					}
				}
				learned = true
			}
			seat, _ := h.Turn()
			a, err = bots[seat].Move(h, views[seat])
			if err != nil {
				return handOut{}, fmt.Errorf("%w: %s seat %d: %v", ErrArena, bots[seat].Name(), seat, err)
			}
			if a.Kind == engine.ActDraw {
				if st := h.Stock(); len(st) > 0 {
					for o := 0; o < n; o++ {
						if o == seat || omni(o) {
							views[o].Learn(st[0], tiles[st[0]].Face())
						}
					}
				}
			}
		}
		if err := m.Apply(a); err != nil {
			return handOut{}, fmt.Errorf("%w: hand %d: %v refused: %v", ErrArena, i, a.Kind, err)
		}
	}
	// Settle with every dealt rack, as the table does after the audit: the
	// upcard bonus of turkish-rummy comes from it.
	h := m.Hand()
	dealt := make([][]engine.Face, n)
	for seat := range dealt {
		for _, s := range h.Dealt(seat) {
			dealt[seat] = append(dealt[seat], tiles[s].Face())
		}
	}
	if err := m.Settle(dealt); err != nil {
		return handOut{}, fmt.Errorf("%w: hand %d: settle: %v", ErrArena, i, err)
	}
	res, _ := m.Hand().Result()
	return handOut{res: res, deltas: m.Deltas(res)}, nil
}

// arenaHand101 plays hand i of an Okey 101 arena: one round (deal i/n,
// rotation i%n, the dealer turning with the deal), every seat's view
// learning only its own rack. Its result is the classic one's shape: the
// finisher wins (Pairs when it opened with doubles, OkeyDiscard when its
// last discard was an okey), no finisher is a stalemate, and the score
// changes are the round's points (penalties: lower is better).
func arenaHand101(cfg ArenaConfig, i int) (handOut, error) {
	n := len(cfg.Bots)
	deal, rot, rng := arenaDeal(cfg, i)
	g, err := engine.NewGame101(cfg.Rules, n, int(deal%uint64(n)), false)
	if err != nil {
		return handOut{}, fmt.Errorf("%w: %v", ErrArena, err)
	}
	perm := rng.Perm(engine.DeckSize)
	face := func(s engine.Slot) engine.Face { return engine.Tile(perm[s]).Face() }
	bots := make([]Strategy101, n)
	views := make([]*engine.View, n)
	for seat := range bots {
		if bots[seat], err = New101(cfg.Bots[(seat+rot)%n]); err != nil {
			return handOut{}, fmt.Errorf("%w: %v", ErrArena, err)
		}
		views[seat] = engine.NewView(seat)
	}
	for steps := 0; g.Phase() != engine.Phase101Over; steps++ {
		if steps > 5000 {
			return handOut{}, fmt.Errorf("%w: hand %d does not end", ErrArena, i)
		}
		need := g.Need()
		var a engine.Action101
		if need.Kind == engine.ActReveal {
			a = engine.Action101{Kind: engine.Act101Reveal, Seat: -1}
			for _, s := range need.Slots {
				a.Faces = append(a.Faces, engine.SlotFace{Slot: s, Face: face(s)})
			}
		} else {
			v := views[need.Seat]
			for _, s := range g.Rack(need.Seat) {
				v.Learn(s, face(s))
			}
			if a, err = bots[need.Seat].Move101(g, v); err != nil {
				return handOut{}, fmt.Errorf("%w: %s seat %d: %v", ErrArena, bots[need.Seat].Name(), need.Seat, err)
			}
		}
		if err := g.Apply(a); err != nil {
			return handOut{}, fmt.Errorf("%w: hand %d: %v refused: %v", ErrArena, i, a.Kind, err)
		}
	}
	r, _ := g.Result()
	res := engine.HandResult{Winner: r.Finisher, Kind: engine.Groups, OkeyDiscard: r.JokerFinish, Upcard: -1}
	if r.Finisher >= 0 && g.Opened(r.Finisher) == engine.OpenedDoubles {
		res.Kind = engine.Pairs
	}
	return handOut{res: res, deltas: r.Points}, nil
}

// Format returns the arena's report: one line per strategy whose first
// percentage is its win share (hands won over all hands, stalemates
// included) with its 95% confidence interval, then its average score change
// per seat and hand and its wins by kind; then the stalemates.
func (r ArenaResult) Format() string {
	var b []byte
	w := 0
	for _, s := range r.Stats {
		w = max(w, len(s.Name))
	}
	for _, s := range r.Stats {
		p, lo, hi := r.Share(s)
		b = fmt.Appendf(b, "%-*s %5d/%d hands  %.1f%% [%.1f-%.1f]  avg %.1f  groups %d pairs %d okey %d",
			w, s.Name, s.Wins, r.Hands, 100*p, 100*lo, 100*hi, s.Avg(), s.Groups, s.Pairs, s.Okey)
		if s.Seats > 1 {
			b = fmt.Appendf(b, "  (%d seats: %.1f%% a seat)", s.Seats, 100*p/float64(s.Seats))
		}
		b = append(b, '\n')
	}
	b = fmt.Appendf(b, "stalemates %d/%d hands  %.1f%%\n", r.Stalemates, r.Hands, 100*float64(r.Stalemates)/float64(max(1, r.Hands)))
	return string(b)
}
