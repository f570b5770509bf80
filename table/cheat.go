package table

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
)

// Cheat names a way a peer breaks the protocol on purpose, so that tests and
// `okey sim --cheat` can show the others catch it. The zero value is honest.
type Cheat string

// The cheats, one per class of cheating the protocol defends against.
const (
	CheatJunkShuffle      Cheat = "junk-shuffle"      // a non-tile element in its shuffled deck
	CheatDuplicateShuffle Cheat = "duplicate-shuffle" // one element twice in its shuffled deck
	CheatBadKey           Cheat = "bad-key"           // a wrong key share when dealing
	CheatBadProof         Cheat = "bad-proof"         // a re-key proof that does not verify
	CheatEquivocate       Cheat = "equivocate"        // two different hellos for one step
	CheatOutOfTurn        Cheat = "out-of-turn"       // a move when another seat is to play
	CheatFalseWin         Cheat = "false-win"         // declares a win with a losing hand
	CheatPhantomDiscard   Cheat = "phantom-discard"   // discards a tile it does not hold
	CheatWithhold         Cheat = "withhold"          // stops sending its deal shares
	CheatBadDice          Cheat = "bad-dice"          // opens its randomness differently from its commitment
	CheatJunkPrivate      Cheat = "junk-private"      // non-tile elements where they are dealt privately to others
	CheatSplitView        Cheat = "split-view"        // two different hellos, one to some seats, one to the others
	CheatReplay           Cheat = "replay"            // delivers an honest seat's messages from an earlier match of the same table
	CheatLearnTiles       Cheat = "learn-tiles"       // puts a*(D[x]+D[y]) in its shuffled deck, to learn two tiles
)

// The cheats of Okey 101 (a 101 table only), one per rule of the round a
// seat could break to its profit, and a forged score.
const (
	CheatFalseOpening  Cheat = "false-opening"   // lays one meld as an opening short of 101 points or five doubles
	CheatAddBeforeOpen Cheat = "add-before-open" // adds a tile to a meld on the table before opening
	CheatKeptDiscard   Cheat = "kept-discard"    // takes the previous discard and discards another tile, keeping it unused
	CheatForgedScore   Cheat = "forged-score"    // signs a state whose total for its own seat is 101 lower
)

// Cheats101 lists the cheats of Okey 101; the cheats of Cheats apply to
// every preset.
var Cheats101 = []Cheat{CheatFalseOpening, CheatAddBeforeOpen, CheatKeptDiscard, CheatForgedScore}

// Only101 reports whether the cheat exists only at an Okey 101 table.
func (c Cheat) Only101() bool {
	for _, x := range Cheats101 {
		if x == c {
			return true
		}
	}
	return false
}

// Cheats lists every cheat.
var Cheats = []Cheat{CheatJunkShuffle, CheatDuplicateShuffle, CheatBadKey, CheatBadProof, CheatEquivocate,
	CheatOutOfTurn, CheatFalseWin, CheatPhantomDiscard, CheatWithhold, CheatBadDice, CheatJunkPrivate, CheatSplitView, CheatReplay, CheatLearnTiles}

// ParseCheat checks a cheat name.
func ParseCheat(s string) (Cheat, error) {
	all := append(append([]Cheat(nil), Cheats...), Cheats101...)
	for _, c := range all {
		if string(c) == s {
			return c, nil
		}
	}
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = string(c)
	}
	return "", fmt.Errorf("table: unknown cheat %q (have %s)", s, strings.Join(names, ", "))
}

func (c Cheat) active() bool { return c != "" }

// cheater is the speaker of a seat that breaks the protocol on purpose, as
// its Cheat says: it wraps the honest speaker and changes what that one
// builds or sends. Cheats act once, in the first hand, so that a match
// shows exactly one.
type cheater struct {
	honest
	kind    Cheat
	cheated bool
}

// setCheat makes the peer's speaker honest (the zero Cheat) or a cheater
// of that kind; a cheater's node does not check its own messages.
func (p *Peer) setCheat(c Cheat) {
	p.c.Cheat = c
	p.say = honest{p}
	if c.active() {
		p.say = &cheater{honest: honest{p}, kind: c}
	}
	p.n.c.Lenient = c.active()
}

func (c *cheater) body(kind Kind) ([]byte, error) {
	b, err := c.honest.body(kind)
	if err != nil {
		return b, err
	}
	switch kind {
	case KindShuffle:
		if cm, lock, err := decodeShuffle(b); err == nil {
			return encodeShuffle(cm, c.lock(lock)), nil
		}
	case KindRekey:
		if op, rk, err := decodeRekey(b); err == nil {
			return encodeRekey(c.opening(op), c.rekey(rk)), nil
		}
	case KindOpen, KindDeal, KindShare:
		return c.shares(b), nil
	}
	return b, nil
}

func (c *cheater) moveBody(sec *deck.Secret, ch choice) ([]byte, error) {
	if ch.err == nil {
		if mt := c.p.n.m.Match101(); mt != nil {
			ch.a101 = c.move101(mt.Game(), ch.a101)
		} else {
			ch.a = c.move(c.p.n.m.Match().Hand(), ch.a)
		}
	}
	return c.honest.moveBody(sec, ch)
}

func (c *cheater) state(kind Kind, step uint32) [32]byte { return c.forgedState(kind, step) }

func (c *cheater) send(ctx context.Context, env *Envelope) error {
	if !c.splitView(ctx, env) {
		if err := c.honest.send(ctx, env); err != nil {
			return err
		}
	}
	c.extra(ctx, env)
	return nil
}

func (c *cheater) turn(ctx context.Context, speaking bool) {
	c.replayOld(ctx)
	if !speaking {
		c.outOfTurn(ctx)
	}
}

func (c *cheater) withholds(kind Kind) bool { return c.kind.withholds(c.p.n.m, kind) }

func (c *cheater) lock(lock []byte) []byte {
	p := c.p
	if c.cheated || p.n.m.HandNumber() != 0 {
		return lock
	}
	out := append([]byte(nil), lock...)
	el := func(k int) []byte { return out[32+32*k : 64+32*k] }
	switch c.kind {
	case CheatJunkShuffle:
		var u [64]byte
		io.ReadFull(p.c.Rand, u[:])
		e, err := ristretto255.NewIdentityElement().SetUniformBytes(u[:])
		if err != nil {
			return lock
		}
		copy(el(5), e.Bytes())
	case CheatDuplicateShuffle:
		copy(el(6), el(5))
	case CheatJunkPrivate:
		// The last locker's positions are the final deck's slots; an
		// earlier locker's junk is moved by the later shuffles.
		slots := p.c.junkSlots
		if slots == nil {
			slots = []int{20, 40, 60, 80}
		}
		for _, k := range slots {
			var u [64]byte
			io.ReadFull(p.c.Rand, u[:])
			e, err := ristretto255.NewIdentityElement().SetUniformBytes(u[:])
			if err != nil {
				return lock
			}
			copy(el(k), e.Bytes())
		}
	case CheatLearnTiles:
		// el(1)+el(2) = a*(D[x]+D[y]): when position 0 opens to the cheater,
		// a search over the pairs of tile points names the tiles at 1 and 2.
		var x, y ristretto255.Element
		if _, err := x.SetCanonicalBytes(el(1)); err != nil {
			return lock
		}
		if _, err := y.SetCanonicalBytes(el(2)); err != nil {
			return lock
		}
		copy(el(0), x.Add(&x, &y).Bytes())
	default:
		return lock
	}
	c.cheated = true
	return out
}

func (c *cheater) rekey(rk []byte) []byte {
	if c.kind != CheatBadProof || c.cheated {
		return rk
	}
	out := append([]byte(nil), rk...)
	copy(out[64:96], out[96:128]) // R1 := R2 in the first proof
	c.cheated = true
	return out
}

func (c *cheater) opening(op []byte) []byte {
	if c.kind != CheatBadDice || c.cheated {
		return op
	}
	out := append([]byte(nil), op...)
	out[0] ^= 1
	c.cheated = true
	return out
}

func (c *cheater) shares(b []byte) []byte {
	p := c.p
	if c.kind != CheatBadKey || c.cheated || p.n.m.phase != phDeal || len(b) < 34 {
		return b
	}
	out := append([]byte(nil), b...)
	// The first share becomes the scalar 2: canonical, nonzero, and wrong.
	for i := 2; i < 34; i++ {
		out[i] = 0
	}
	out[2] = 2
	c.cheated = true
	return out
}

func (c *cheater) move(h *engine.Hand, a engine.Action) engine.Action {
	p := c.p
	if c.cheated {
		return a
	}
	_, drawn := h.Turn()
	switch c.kind {
	case CheatFalseWin:
		rack := h.Rack(p.c.Seat)
		if !drawn {
			return a
		}
		for _, s := range rack {
			if _, ok := p.view.WinAction(h, s); ok {
				return a // a real win: nothing to fake
			}
		}
		c.cheated = true
		return engine.Action{Kind: engine.ActWin, Seat: p.c.Seat, Slot: rack[0]}
	case CheatPhantomDiscard:
		if !drawn || h.StockLen() == 0 {
			return a
		}
		c.cheated = true
		return engine.Action{Kind: engine.ActDiscard, Seat: p.c.Seat, Slot: h.Stock()[0]}
	}
	return a
}

// cheatExtra sends what a cheater sends besides its message.
func (c *cheater) extra(ctx context.Context, env *Envelope) {
	p := c.p
	if c.kind != CheatEquivocate || c.cheated || env.Kind != KindHello {
		return
	}
	b := helloBody{ConfigHash: p.n.m.cfgHash}
	io.ReadFull(p.c.Rand, b.Nonce[:])
	twin := *env
	twin.Body = b.encode()
	if twin.Seal(p.c.Key, p.n.m.cfgHash) == nil {
		p.c.Transport.Broadcast(ctx, twin.Raw)
	}
	c.cheated = true
}

// splitView sends the split-view cheater's hello: in seat order, the first
// half of the other seats get one hello and the rest a second one, signed
// for the same step. It reports whether it sent (the normal broadcast is
// then skipped).
func (c *cheater) splitView(ctx context.Context, env *Envelope) bool {
	p := c.p
	if c.kind != CheatSplitView || c.cheated || env.Kind != KindHello {
		return false
	}
	u, ok := p.c.Transport.(unicaster)
	if !ok {
		return false
	}
	b := helloBody{ConfigHash: p.n.m.cfgHash}
	io.ReadFull(p.c.Rand, b.Nonce[:])
	twin := *env
	twin.Body = b.encode()
	if twin.Seal(p.c.Key, p.n.m.cfgHash) != nil {
		return false
	}
	var others []int
	for i := range p.c.Table.Seats {
		if i != p.c.Seat {
			others = append(others, i)
		}
	}
	for k, i := range others {
		msg := env.Raw
		if k >= (len(others)+1)/2 {
			msg = twin.Raw
		}
		u.SendTo(ctx, p.c.Table.Seats[i].ID, msg)
	}
	c.cheated = true
	return true
}

// replayOld sends the replay cheater's envelopes from an earlier match, once,
// before its first message. Signed under that match's config, they verify
// in no other match: every peer drops them, and no one is named.
func (c *cheater) replayOld(ctx context.Context) {
	p := c.p
	if c.kind != CheatReplay || c.cheated {
		return
	}
	for _, raw := range p.c.Replay {
		p.c.Transport.Broadcast(ctx, raw)
	}
	c.cheated = true
}

// unicaster is a transport that can send to one member (MemNet): a cheater
// uses it to show different members different messages.
type unicaster interface {
	SendTo(ctx context.Context, peer PeerID, data []byte) error
}

// cheatOutOfTurn sends a draw for a step another seat must play.
func (c *cheater) outOfTurn(ctx context.Context) {
	p := c.p
	if c.kind != CheatOutOfTurn || c.cheated || p.n.m.phase != phMove {
		return
	}
	if seat, _ := p.n.m.Expect(); seat == p.c.Seat {
		return
	}
	env := &Envelope{Table: p.c.Table.ID, Hand: p.n.m.HandNumber(), Step: p.n.m.Step(), Seat: uint8(p.c.Seat),
		Kind: KindMove, Prev: p.n.m.Prev(), State: p.n.m.StateHash(),
		Body: moveBody{Action: engine.ActDraw, Slot: engine.NoSlot}.encode()}
	if env.Seal(p.c.Key, p.n.m.cfgHash) == nil {
		p.c.Transport.Broadcast(ctx, env.Raw)
		c.cheated = true
	}
}

// withholds reports whether a withholding cheater stops before sending kind.
func (c Cheat) withholds(m *Machine, kind Kind) bool {
	return c == CheatWithhold && kind == KindDeal && m.HandNumber() == 0
}

// cheatMove101 replaces an honest 101 move with the cheater's, once, at the
// first turn where it can break its rule. The kept-discard cheater takes
// the discard (an honest move) and then, at its next move, discards
// another tile.
func (c *cheater) move101(g *engine.Game101, a engine.Action101) engine.Action101 {
	p := c.p
	if c.cheated || !c.kind.Only101() {
		return a
	}
	seat := p.c.Seat
	_, drawn, taken := g.Turn()
	slots, faces := p.view.Rack(g)
	opened := g.Opened(seat) != engine.NotOpened
	// Past the first discard, drawn (or taken), not opened: a lay or an add
	// is checked against the opening rules, before the taken discard's use.
	canLay := drawn && g.Turns() > 0 && !opened
	switch c.kind {
	case CheatFalseOpening:
		if !canLay {
			return a
		}
		// One meld, or one double, is never an opening: no run reaches 101
		// (1..13 is 91) and a double is one of five.
		o, err := engine.BestOpening101(g.Okey(), faces, true)
		groups := o.Groups
		if len(groups) == 0 {
			groups = o.Pairs
		}
		if err != nil || len(groups) == 0 {
			return a
		}
		lay, ok := engine.LayAction101(seat, slots, faces, groups[:1])
		if !ok {
			return a
		}
		c.cheated = true
		return lay
	case CheatAddBeforeOpen:
		if !canLay {
			return a
		}
		// The first meld on the table (index 0 when there is none: the
		// opening is checked before the meld).
		meld := 0
		for i, m := range g.Melds() {
			if m.Kind != engine.Pair {
				meld = i
				break
			}
		}
		// A tile that plays as its own face: a false joker would make the
		// move malformed (it plays as the okey's face), which names the
		// cheater for another rule.
		i := slices.IndexFunc(faces, func(f engine.Face) bool { return !f.IsFalseJoker() })
		if i < 0 {
			return a
		}
		f := faces[i]
		c.cheated = true
		return engine.Action101{Kind: engine.Act101Add, Seat: seat, Meld: meld,
			Melds: []engine.MeldPlay{{Tiles: []engine.SlotFace{{Slot: slots[i], Face: f}}, As: []engine.Face{f}}}}
	case CheatKeptDiscard:
		switch {
		case !drawn && g.LastDiscard() >= 0 && len(g.Pile(g.LastDiscard())) > 0:
			return engine.Action101{Kind: engine.Act101Take, Seat: seat}
		case drawn && taken != engine.NoSlot:
			for i, s := range slots {
				if s != taken {
					c.cheated = true
					return engine.Action101{Kind: engine.Act101Discard, Seat: seat,
						Faces: []engine.SlotFace{{Slot: s, Face: faces[i]}}}
				}
			}
		}
	}
	return a
}

// cheatState is the state hash this seat signs: the machine's, or for a
// forged-score cheater, at its audit message after the first 101 round, the
// hash of a state whose total for its seat is 101 lower.
func (c *cheater) forgedState(kind Kind, step uint32) [32]byte {
	p := c.p
	m := p.n.m
	if c.kind != CheatForgedScore || c.cheated || kind != KindAudit || m.Match101() == nil || m.HandNumber() != 0 {
		return m.StateHashAt(step)
	}
	b := m.statePreimageAt(step)
	// The 101 state (protocol.md 3.6): label, ruleset (u16 length), seats,
	// dealer, hands (u32), played, replays, then the totals as i32.
	off := len(labelState) + 4 + 4 + 2
	const label101 = "okey/state101/v1"
	if len(b) < off+len(label101) || string(b[off:off+len(label101)]) != label101 {
		return m.StateHashAt(step)
	}
	off += len(label101) + 2 + len(m.rules.String()) + 2 + 4 + 2 + 4*p.c.Seat
	v := int32(binary.BigEndian.Uint32(b[off:]))
	binary.BigEndian.PutUint32(b[off:], uint32(v-engine.PenaltyPoints101))
	c.cheated = true
	return sha256.Sum256(b)
}
