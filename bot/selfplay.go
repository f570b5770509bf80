package bot

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/okey-game/okey/engine"
)

// SelfPlayConfig says what SelfPlay plays: whole hands with the engine
// alone, dealt and rotated as the arena deals them.
type SelfPlayConfig struct {
	Rules engine.Ruleset
	// Bots is the line-up (as ArenaConfig.Bots); a "learned" seat plays
	// Net (with Epsilon's exploration).
	Bots []string
	// Record names the strategies whose seats' states are recorded.
	Record []string
	Net    *Net
	// Epsilon is the share of random decisions of the recorded seats
	// (exploration: states the policy alone would not reach).
	Epsilon float64
	// OnlyExplored records only the states left by random decisions: their
	// returns value each action the same way whatever the policy would
	// have chosen (exploring starts), where the policy's own choices teach
	// the net what goes with that policy's good hands.
	OnlyExplored bool
	// Imitate records, at each discard of a recorded seat with two or
	// more of the learned player's candidates (the nearest discards), the
	// state each candidate leaves, labelled won 1 for the one the seat's
	// strategy chose and 0 for the others (imitation: a net fitted to
	// these ranks the discards as that strategy does). Epsilon and
	// OnlyExplored do not apply to these seats. With Teacher set, the
	// recorded seats play their own strategy (a learned seat: Net) and
	// Teacher's choice labels their positions (DAgger: the net learns the
	// teacher's answer in the states its own play reaches).
	Imitate bool
	Teacher string
	// Residual: the recorded "expert" seats play Residual with Net (nil:
	// the expert's choices) among the expert's best ResidualK discards,
	// exploring at Epsilon, and every decision with two or more of them
	// is recorded with the hand's return (on-policy Monte-Carlo returns
	// of the expert's own play).
	Residual  bool
	ResidualK int
	Hands     int
	Seed      uint64
	Workers   int
}

// imitator records the learned player's candidate discards of a strategy's
// positions, labelled by the strategy's choice (see SelfPlayConfig.Imitate).
type imitator struct {
	inner Strategy // labels the positions
	play  Strategy // plays them (nil: inner)
	note  func(seat int, active []uint16, label float32)
}

func (im *imitator) Name() string { return im.inner.Name() }

func (im *imitator) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	if im.play != nil {
		a, err := im.play.Move(h, v)
		if err != nil {
			return a, err
		}
		if _, drawn := h.Turn(); drawn {
			if _, err := im.label(h, v); err != nil {
				return a, err
			}
		}
		return a, nil
	}
	return im.label(h, v)
}

// label records the candidates of the position, labelled by inner's
// choice, and returns that choice.
func (im *imitator) label(h *engine.Hand, v *engine.View) (engine.Action, error) {
	a, err := im.inner.Move(h, v)
	if err != nil || a.Kind != engine.ActDiscard {
		return a, err
	}
	p, err := read(h, v)
	if err != nil || !p.drawn || len(p.faces) != p.winLen+1 || len(p.wins()) > 0 {
		return a, nil
	}
	var cands []engine.Face
	for _, f := range distinct(p.faces) {
		if f != p.okey {
			cands = append(cands, f)
		}
	}
	cands, _ = nearest(p.okey, p.faces, cands, p.winLen)
	chosen := p.v.Face(h, a.Slot)
	if len(cands) < 2 || !slices.Contains(cands, chosen) {
		return a, nil
	}
	c := newStateCtx(p)
	for _, f := range cands {
		label := float32(0)
		if f == chosen {
			label = 1
		}
		im.note(p.seat, c.after(p.faces, f, &c.pub).encode(nil), label)
	}
	return a, nil
}

// recorder notes the states a strategy chose: after each discard that is
// not a win, and before each draw (the rack it keeps by drawing).
type recorder struct {
	inner Strategy
	note  func(seat int, active []uint16)
	eps   float64 // the share of discards replaced by a random one
	rng   *rand.Rand
	// explored: record only the random discards (see
	// SelfPlayConfig.OnlyExplored).
	explored bool
}

func (r *recorder) Name() string { return r.inner.Name() }

func (r *recorder) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	a, err := r.inner.Move(h, v)
	if err != nil {
		return a, err
	}
	p, err := read(h, v)
	if err != nil || len(p.faces) != p.winLen+boolInt(p.drawn) {
		return a, nil
	}
	c := newStateCtx(p)
	random := false
	if a.Kind == engine.ActDiscard && r.eps > 0 && r.rng.Float64() < r.eps {
		random = true
		var cands []engine.Face
		for _, f := range distinct(p.faces) {
			if f != p.okey {
				cands = append(cands, f)
			}
		}
		if len(p.faces) == p.winLen+1 {
			// The learned player chooses among these only.
			cands, _ = nearest(p.okey, p.faces, cands, p.winLen)
		}
		if len(cands) > 0 {
			s, _ := p.slotOf(cands[r.rng.IntN(len(cands))])
			a = p.open(engine.ActDiscard, s)
		}
	}
	if r.explored && !random {
		return a, nil
	}
	switch a.Kind {
	case engine.ActDiscard:
		f := p.v.Face(h, a.Slot)
		r.note(p.seat, c.after(p.faces, f, &c.pub).encode(nil))
	case engine.ActDraw:
		s := &state{okey: p.okey, rack: p.faces, pub: &c.pub, took: c.took, thrown: engine.NoFace,
			stock: p.stock, n: c.n, winLen: p.winLen}
		r.note(p.seat, s.encode(nil))
	}
	return a, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SelfPlay plays cfg.Hands hands and returns the recorded states, each
// labelled with the Monte-Carlo return of its hand for its seat (won, and
// the score change signed so that higher is better, in units of the base
// win), in hand order: the same config gives the same samples whatever
// Workers is.
func SelfPlay(cfg SelfPlayConfig) ([]Sample, error) {
	n := len(cfg.Bots)
	if err := cfg.Rules.CheckPlayers(n); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrArena, err)
	}
	sign := float32(gainSign(cfg.Rules))
	unit := float32(max(1, cfg.Rules.WinPoints))
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	per := make([][]Sample, cfg.Hands)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < cfg.Hands; i += workers {
				type note struct {
					seat   int
					active []uint16
					label  float32 // -1: the hand's outcome
				}
				var notes []note
				rec := func(seat int, active []uint16) { notes = append(notes, note{seat, active, -1}) }
				recLabel := func(seat int, active []uint16, label float32) {
					notes = append(notes, note{seat, active, label})
				}
				ac := ArenaConfig{Rules: cfg.Rules, Bots: cfg.Bots, Hands: cfg.Hands, Seed: cfg.Seed,
					Make: func(name string, seed uint64) (Strategy, error) {
						if name == LearnedName {
							if cfg.Net == nil {
								return nil, fmt.Errorf("%w: a learned seat and no net", ErrArena)
							}
							l := NewLearnedNet(cfg.Net, seed)
							l.Epsilon = cfg.Epsilon
							if cfg.Imitate && cfg.Teacher != "" && slices.Contains(cfg.Record, name) {
								l.netTakes = false
								teacher, err := New(cfg.Teacher, seed)
								if err != nil {
									return nil, err
								}
								return &imitator{inner: teacher, play: l, note: recLabel}, nil
							}
							if slices.Contains(cfg.Record, name) {
								l.record = rec
								l.explored = cfg.OnlyExplored
							}
							return l, nil
						}
						if name == ResidualName || (cfg.Residual && name == "expert" && slices.Contains(cfg.Record, name)) {
							r, err := NewResidual(cfg.Net, cfg.ResidualK, seed)
							if err != nil {
								return nil, err
							}
							r.Epsilon = cfg.Epsilon
							if slices.Contains(cfg.Record, name) {
								r.record = rec
							}
							return r, nil
						}
						s, err := New(name, seed)
						if err != nil {
							return nil, err
						}
						if slices.Contains(cfg.Record, name) && cfg.Imitate {
							return &imitator{inner: s, note: recLabel}, nil
						}
						if slices.Contains(cfg.Record, name) {
							return &recorder{inner: s, note: rec, eps: cfg.Epsilon, rng: rand.New(rand.NewPCG(seed, 0x72656364)), explored: cfg.OnlyExplored}, nil
						}
						return s, nil
					}}
				out, err := arenaHand(ac, i)
				if err != nil {
					errs[w] = err
					return
				}
				for _, nt := range notes {
					s := Sample{Active: nt.active, Score: sign * float32(out.deltas[nt.seat]) / unit}
					if out.res.Winner == nt.seat {
						s.Won = 1
					}
					if nt.label >= 0 {
						s.Won = nt.label
					}
					per[i] = append(per[i], s)
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var all []Sample
	for _, s := range per {
		all = append(all, s...)
	}
	return all, nil
}
