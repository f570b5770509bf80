package bot

import (
	"crypto/sha256"
	_ "embed" // the learned player's weights
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/okey-game/okey/engine"
)

// LearnedName is the learned player's strategy name.
const LearnedName = "learned"

// learnedNet is the learned player's trained net; learned.net.txt beside it
// says how it was made (the command, the seed) and its SHA-256, which
// learnedSHA256 repeats and the bot checks when it loads the weights.
//
//go:embed learned.net
var learnedNet []byte

//go:embed learned.net.txt
var learnedNetTxt []byte

// learnedSHA256 is the SHA-256 of learned.net.
const learnedSHA256 = "e711d21ca8dd2a697a338bc0f287fbd8b52bff17a733617f1b38930e34fa075c"

var (
	loadOnce   sync.Once
	loadedNet  *Net
	errLoadNet error
)

// defaultNet returns the embedded net, checked against its hash.
func defaultNet() (*Net, error) {
	loadOnce.Do(func() { loadedNet, errLoadNet = loadNet(learnedNet, learnedSHA256) })
	return loadedNet, errLoadNet
}

// loadNet decodes weights whose SHA-256 must be wantHex.
func loadNet(data []byte, wantHex string) (*Net, error) {
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != wantHex {
		return nil, fmt.Errorf("%w: SHA-256 %s, want %s", ErrNet, got, wantHex)
	}
	n := &Net{}
	if err := n.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	if n.In != NetInputs {
		return nil, fmt.Errorf("%w: %d inputs, the player has %d", ErrNet, n.In, NetInputs)
	}
	return n, nil
}

// Learned plays by a net over the states its discards leave (DouZero's
// Deep Monte-Carlo, without its action encoding: the actions here are few,
// so each is valued by the state it leaves). docs/learned.md records how
// it was trained and what it measured. The committed net was fitted to
// rank discards as the expert does (okey train --imitate expert): it
// plays above greedy, below the expert. A net fitted to the Monte-Carlo
// returns of whole hands (okey train without --imitate) estimates the
// chance that the seat wins the hand instead; that one played at greedy's
// level. See Net and features.go. It moves:
//   - gösterme whenever it may;
//   - a win when it holds one (the one that pays most);
//   - before drawing, it takes the previous discard when it brings the hand
//     closer to a win (greedy's distance); with a net fitted to returns
//     also when it leaves the hand as far and the best state it could
//     leave with it is valued above the state it keeps by drawing; it
//     takes a winning tile always;
//   - among the discards that leave the fewest tiles from a win (greedy's
//     distance), it discards the tile whose afterstate the net values most,
//     never an okey unless it wins. (Valuing every discard by the net alone
//     lost to greedy: a few thousand hands' outcomes do not teach it that
//     the distance comes first.)
//
// With Epsilon > 0 (self-play only) it explores: that share of its
// discards is drawn at random among the ones it would weigh.
type Learned struct {
	net *Net
	// Epsilon is the share of random decisions (0 in play).
	Epsilon float64
	rng     *rand.Rand
	// record, when set, gets every state the player chose (self-play).
	record func(seat int, active []uint16)
	// explored: record only the random decisions.
	explored bool
	// netTakes: when the previous discard leaves the hand as far from a
	// win, the net decides whether to take it. A net fitted to imitate
	// another player ranks discards only, so its player takes only when
	// the tile brings the hand closer (greedy's rule).
	netTakes bool
	buf      []uint16
}

// embeddedNetTakes says whether the embedded net decides takes (see
// Learned.netTakes): false for a net fitted by imitation.
const embeddedNetTakes = false

// NewLearned returns the learned player with the embedded weights.
func NewLearned(seed uint64) (*Learned, error) {
	n, err := defaultNet()
	if err != nil {
		return nil, err
	}
	l := NewLearnedNet(n, seed)
	l.netTakes = embeddedNetTakes
	return l, nil
}

// NewLearnedNet returns the learned player with net (not copied; Eval does
// not change it, so one net may serve many players).
func NewLearnedNet(net *Net, seed uint64) *Learned {
	return &Learned{net: net, rng: rand.New(rand.NewPCG(seed, 0x6c6561726e)), netTakes: true}
}

// NewLearnedImitation returns the learned player with net fitted by
// imitation (okey train --imitate): the net ranks its discards; it takes
// the previous discard only when that brings the hand closer to a win.
func NewLearnedImitation(net *Net, seed uint64) *Learned {
	l := NewLearnedNet(net, seed)
	l.netTakes = false
	return l
}

// Name returns "learned".
func (l *Learned) Name() string { return LearnedName }

// value returns the net's win chance for s.
func (l *Learned) value(s *state) float64 {
	l.buf = s.encode(l.buf[:0])
	w, _ := l.net.Eval(l.buf)
	return w
}

// note records the chosen states of a seat (self-play).
func (l *Learned) note(seat int, s *state) {
	if l.record != nil {
		l.record(seat, s.encode(nil))
	}
}

// Move returns the learned player's move for the seat to play.
func (l *Learned) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	p, err := read(h, v)
	if err != nil {
		return engine.Action{}, err
	}
	if shows := p.showSlots(); len(shows) > 0 {
		return p.open(engine.ActShow, shows[0]), nil
	}
	ctx := newStateCtx(p)
	if !p.drawn {
		return l.drawOrTake(p, ctx), nil
	}
	if ws := p.wins(); len(ws) > 0 {
		return bestWin(ws).action, nil
	}
	if len(p.faces) != p.winLen+1 {
		return p.open(engine.ActDiscard, p.slots[fallbackIndex(p)]), nil
	}
	f, s, random := l.bestDiscard(ctx, p.faces, true)
	if random || !l.explored {
		l.note(p.seat, s)
	}
	slot, _ := p.slotOf(f)
	return p.open(engine.ActDiscard, slot), nil
}

// stateCtx is what the states of one decision share.
type stateCtx struct {
	p      *position
	pub    [engine.NumFaces]int
	took   []engine.Face
	passed [engine.NumFaces]bool
	n      int
}

func newStateCtx(p *position) *stateCtx {
	c := &stateCtx{p: p, n: len(p.h.Order())}
	for s := 0; s < engine.DeckSize; s++ {
		if f := p.h.PublicFace(engine.Slot(s)); f.Valid() {
			c.pub[f]++
		}
	}
	// The rack's public faces (tiles taken from a pile) are the seat's own.
	for i, s := range p.slots {
		if p.h.PublicFace(s).Valid() {
			c.pub[p.faces[i]]--
		}
	}
	order := p.h.Order()
	for i, s := range order {
		if s == p.seat {
			next := order[(i+1)%len(order)]
			if next != p.seat {
				for _, t := range p.h.Rack(next) {
					if f := p.h.PublicFace(t); f.Valid() {
						c.took = append(c.took, f)
					}
				}
				for _, t := range p.h.Pile(next) {
					if f := p.h.PublicFace(t); f.Valid() {
						c.passed[f] = true
					}
				}
				// The tiles this seat threw that the next player did not take.
				pile := p.h.Pile(p.seat)
				for j, t := range pile {
					if j == len(pile)-1 && p.h.LastDiscard() == p.seat {
						break // not yet declined
					}
					if f := p.h.PublicFace(t); f.Valid() {
						c.passed[f] = true
					}
				}
			}
		}
	}
	return c
}

// after returns the state left by discarding f from hand.
func (c *stateCtx) after(hand []engine.Face, f engine.Face, pub *[engine.NumFaces]int) *state {
	pp := *pub
	pp[f]++
	return &state{okey: c.p.okey, rack: without(hand, f), pub: &pp, took: c.took, passed: &c.passed, thrown: f,
		stock: c.p.stock, n: c.n, winLen: c.p.winLen}
}

// bestDiscard returns the discard of hand (winLen+1 tiles) whose
// afterstate the net values most (ties: the lowest face) and that state;
// explore allows a random choice at Epsilon.
func (l *Learned) bestDiscard(c *stateCtx, hand []engine.Face, explore bool) (engine.Face, *state, bool) {
	return l.bestDiscardPub(c, hand, &c.pub, explore)
}

// bestDiscardPub is bestDiscard with the public counts pub; it also says
// whether the choice was a random one.
func (l *Learned) bestDiscardPub(c *stateCtx, hand []engine.Face, pub *[engine.NumFaces]int, explore bool) (engine.Face, *state, bool) {
	var cands []engine.Face
	for _, f := range distinct(hand) {
		if f != c.p.okey {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		cands = distinct(hand) // only okeys: one must go
	}
	// Only the discards that leave the fewest tiles from a win are valued
	// (and explored).
	cands, _ = nearest(c.p.okey, hand, cands, c.p.winLen)
	if explore && l.Epsilon > 0 && l.rng.Float64() < l.Epsilon {
		f := cands[l.rng.IntN(len(cands))]
		return f, c.after(hand, f, pub), true
	}
	best, bestV := engine.NoFace, -1.0
	var bestS *state
	for _, f := range cands {
		s := c.after(hand, f, pub)
		if v := l.value(s); v > bestV {
			best, bestV, bestS = f, v, s
		}
	}
	return best, bestS, false
}

// drawOrTake decides before the draw.
func (l *Learned) drawOrTake(p *position, c *stateCtx) engine.Action {
	draw := p.draw()
	if p.stock == 0 {
		draw = p.exhaust()
	}
	if !p.topOK || len(p.faces) != p.winLen {
		return draw
	}
	plus := with(p.faces, p.top)
	wf := winningFaces(p.okey, plus, p.winLen)
	if isWin(p.okey, p.faces, p.winLen) {
		if containsFace(wf, p.okey) {
			return p.take()
		}
		return draw
	}
	if len(wf) > 0 {
		return p.take()
	}
	if p.rules.PairsNoDiscard && len(plus) == engine.WinSize {
		if arr, ok := engine.WinningArrangement(p.okey, plus); ok && arr.Kind == engine.Pairs {
			return p.take()
		}
	}
	if p.stock == 0 {
		return draw
	}
	ds := &state{okey: p.okey, rack: p.faces, pub: &c.pub, took: c.took, thrown: engine.NoFace,
		stock: p.stock, n: c.n, winLen: p.winLen}
	if !relevant(p.okey, p.faces, p.top) {
		l.noteDraw(p.seat, ds)
		return draw
	}
	// Take when the tile brings the hand closer to a win (as greedy);
	// when it leaves the hand as far, when the net values the best state
	// with it above the hand kept by drawing.
	pub := c.pub
	pub[p.top]--
	var cands []engine.Face
	for _, f := range distinct(plus) {
		if f != p.okey && f != p.top {
			cands = append(cands, f)
		}
	}
	now := handDistance(p.okey, p.faces, p.winLen)
	cands, d := nearest(p.okey, plus, cands, p.winLen)
	if d < now {
		return p.take()
	}
	if d == now && len(cands) > 0 && l.netTakes {
		_, ts, _ := l.bestDiscardPub(c, plus, &pub, false)
		if ts != nil && ts.thrown != p.top && l.value(ts) > l.value(ds) {
			return p.take()
		}
	}
	l.noteDraw(p.seat, ds)
	return draw
}

// noteDraw records a before-the-draw state (not when only random
// decisions are recorded: the draw is the policy's).
func (l *Learned) noteDraw(seat int, s *state) {
	if !l.explored {
		l.note(seat, s)
	}
}

// handDistance is greedy's distance of a hand of winLen tiles: the exact
// one near a win (14-tile hands), else the package's estimate.
func handDistance(okey engine.Face, hand []engine.Face, winLen int) int {
	e := estimate(okey, hand, winLen)
	if winLen == engine.WinSize && e <= nearEstimate {
		return engine.Distance(okey, hand)
	}
	return e
}

// nearest returns the discards among cands (faces of hand, winLen+1
// tiles) that leave the fewest tiles from a win, and that distance.
func nearest(okey engine.Face, hand, cands []engine.Face, winLen int) ([]engine.Face, int) {
	best := -1
	var out []engine.Face
	for _, f := range cands {
		d := handDistance(okey, without(hand, f), winLen)
		switch {
		case best < 0 || d < best:
			best, out = d, append(out[:0], f)
		case d == best:
			out = append(out, f)
		}
	}
	return out, best
}
