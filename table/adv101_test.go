package table

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// An adversarial player's review of Okey 101 at the table: each test plays
// an attack through the package's APIs (a cheating seat's message built by
// its own modified code and signed with its own key) and asserts what every
// honest peer and Verify conclude. The harness is adv101_harness_test.go.

// checkSecrecy101 asserts, at one step of a 101 round in play, that no share
// is public beyond what the rules open and that no seat's view knows a face
// it should not:
//   - a slot with every seat's share public is a slot opened to everyone;
//   - a seat's share of a slot not opened to everyone is public only when
//     another seat holds that slot (dealt or drawn to it): never for a slot
//     in the bank, never for a slot of its own rack;
//   - a seat's view knows a face only for its own rack and the public faces.
//
// So no coalition of seats that lacks seat s opens a tile of s's rack, and no
// coalition that lacks any one seat opens a tile of the bank (protocol.md
// 5.8, "What each message opens").
func checkSecrecy101(t *testing.T, l *lockstep) {
	t.Helper()
	m, g := l.m(), l.g()
	if g == nil || g.Phase() != engine.Phase101Play || m.Done() {
		return
	}
	n := len(l.peers)
	holder := map[engine.Slot]int{}
	for s := 0; s < n; s++ {
		for _, sl := range g.Rack(s) {
			holder[sl] = s
		}
	}
	for s := engine.Slot(0); s < engine.DeckSize; s++ {
		pub := g.PublicFace(s) != engine.NoFace
		h, held := holder[s]
		all := true
		for k, sh := range m.Shares(s) {
			if sh == nil {
				all = false
				continue
			}
			if !pub && (!held || h == k) {
				t.Fatalf("step %d: seat %d's share of slot %d is public (held %v by %d), its face is not", m.Step(), k, s, held, h)
			}
		}
		if all && !pub {
			t.Fatalf("step %d: every share of slot %d is public, its face is not", m.Step(), s)
		}
		for k, p := range l.peers {
			if p.view.Face(g, s) != engine.NoFace && !pub && !(held && h == k) {
				t.Fatalf("step %d: seat %d knows slot %d, not its own and not public", m.Step(), k, s)
			}
		}
	}
}

// TestSecrecy101: through whole honest rounds (laying, adding, swapping,
// taking and giving back, the dealer's 22nd tile, the round-end reveal and
// the audit), checkSecrecy101 holds at every step, and a seat's view knows
// its whole rack. The shares a lay, add, swap or discard publishes are
// exactly its opened slots (checked by the machine; see
// TestMoveShares101). Two seats, one round under the race detector.
func TestSecrecy101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l := newLockstep(t, "101:rounds=3", 2, 7)
	rounds := 0
	kinds := map[engine.Act101]int{}
	for !l.m().Done() && (rounds < 1 || !raceDetector && rounds < 3) {
		hand := l.m().HandNumber()
		seat, kind, body := l.honest()
		if kind == KindMove {
			kinds[engine.Act101(body[0])]++
		}
		l.send(seat, kind, body)
		checkSecrecy101(t, l)
		if g := l.g(); g != nil && g.Phase() == engine.Phase101Play {
			for k := range l.peers {
				_, faces := l.rack(k)
				for i, f := range faces {
					if f == engine.NoFace && l.m().phase == phMove {
						t.Fatalf("step %d: seat %d does not know its tile %d", l.m().Step(), k, i)
					}
				}
			}
		}
		if l.m().HandNumber() != hand {
			rounds++
		}
	}
	t.Logf("%d rounds, moves %v", rounds, kinds)
	if kinds[engine.Act101Lay] == 0 || kinds[engine.Act101Discard] == 0 {
		t.Fatalf("no lay or no discard in %d rounds: %v", rounds, kinds)
	}
}

// before101 is seat 1's turn after its draw, before it has opened, on a
// 2-seat table: played once per process, each test gets it back restored
// (several tests attack from it; playing it costs a shuffle).
var before101 struct {
	l    *lockstep
	snap snapshot
}

func buildBefore101(t testing.TB) {
	t.Helper()
	if before101.l != nil {
		return
	}
	for _, seed := range []uint64{3, 4, 5, 6} {
		l := newLockstep(t, "101", 2, seed)
		if l.until(func() bool { return midTurn(l, 1, false) }) {
			before101.l, before101.snap = l, l.save()
			return
		}
	}
	t.Fatal("no seed reaches seat 1's turn before it opens")
}

// beforeOpening returns the table at before101's position, restored to it
// when the test ends. Seat 1 is the one to move.
func beforeOpening(t *testing.T) *lockstep {
	t.Helper()
	buildBefore101(t)
	l := before101.l
	l.t = t
	l.restore(before101.snap)
	movers := make([]Mover, len(l.peers))
	for i, p := range l.peers {
		movers[i] = p.c.Mover
	}
	t.Cleanup(func() {
		for i, p := range l.peers {
			p.c.Mover = movers[i]
		}
		l.restore(before101.snap)
	})
	return l
}

// midTurn reports whether seat is to move, has drawn or taken, past the
// dealer's first discard, and has opened (or not) as wanted.
func midTurn(l *lockstep, seat int, opened bool) bool {
	g := l.g()
	if g == nil || !l.turnOf(seat) {
		return false
	}
	s, drawn, taken := g.Turn()
	return s == seat && drawn && taken == engine.NoSlot && g.Turns() > 0 && (g.Opened(seat) != engine.NotOpened) == opened
}

// plainTiles returns seat's rack tiles that are neither an okey nor a false
// joker (as slot-face pairs).
func plainTiles(l *lockstep, seat int) []engine.SlotFace {
	slots, faces := l.rack(seat)
	var out []engine.SlotFace
	for i, f := range faces {
		if f != l.g().Okey() && f != engine.FalseJoker {
			out = append(out, engine.SlotFace{Slot: slots[i], Face: f})
		}
	}
	return out
}

func one(sf engine.SlotFace) engine.MeldPlay {
	return engine.MeldPlay{Tiles: []engine.SlotFace{sf}, As: []engine.Face{sf.Face}}
}

// TestAttacksBeforeOpening101: at its turn, after its draw and before it has
// opened, a cheater sends each move its rules refuse. Every honest peer and
// Verify name the cheater, for the rule protocol.md 5.8 gives, and the
// engine state does not change.
func TestAttacksBeforeOpening101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const c, victim = 1, 0
	l := beforeOpening(t)
	g := l.g()
	tiles := plainTiles(l, c)
	vs, _ := l.rack(victim)
	stock := g.Stock()
	add := engine.Action101{Kind: engine.Act101Add, Seat: c, Meld: 0, Melds: []engine.MeldPlay{one(tiles[0])}}
	l.attack("add before opening", c, l.craft(c, add), "add-before-open")
	add.Meld = 200
	l.attack("add before opening, meld out of range", c, l.craft(c, add), "add-before-open")
	swap := engine.Action101{Kind: engine.Act101Swap, Seat: c, Meld: 0, Pos: 0, Faces: tiles[:1]}
	l.attack("swap before opening", c, l.craft(c, swap), "add-before-open")
	l.attack("give back with nothing taken", c, l.craft(c, engine.Action101{Kind: engine.Act101GiveBack, Seat: c}), "rules")
	l.attack("draw twice", c, l.craft(c, engine.Action101{Kind: engine.Act101Draw, Seat: c}), "rules")
	l.attack("take after drawing", c, l.craft(c, engine.Action101{Kind: engine.Act101Take, Seat: c}), "rules")
	l.attack("exhaust with a bank", c, l.craft(c, engine.Action101{Kind: engine.Act101Exhaust, Seat: c}), "rules")
	// Tiles it does not hold: the victim's and the bank's. Its own share for
	// such a slot is a valid share, but the slot is checked first, and no
	// tile of the victim or the bank opens.
	for _, s := range []engine.Slot{vs[0], stock[0]} {
		body := move101Body{kind: engine.Act101Discard, slot: s, shares: l.shares(c, []engine.Slot{s})}.encode()
		l.attack(fmt.Sprintf("discard of slot %d it does not hold", s), c, body, "phantom-tile")
		lay := engine.Action101{Kind: engine.Act101Lay, Seat: c, Melds: []engine.MeldPlay{
			{Tiles: []engine.SlotFace{tiles[0], tiles[1], {Slot: s, Face: tiles[2].Face}},
				As: []engine.Face{tiles[0].Face, tiles[1].Face, tiles[2].Face}}}}
		l.attack(fmt.Sprintf("lay with slot %d it does not hold", s), c, l.craft(c, lay), "phantom-tile")
	}
	// Tiles declared as faces they are not.
	l.attack("a lay declaring its tiles as other faces", c, l.craft(c, engine.Action101{Kind: engine.Act101Lay, Seat: c,
		Melds: []engine.MeldPlay{{Tiles: tiles[:3], As: []engine.Face{0, 1, 2}}}}), "bad-meld")
	// An opening short of 101: the first group of its best opening alone.
	slots, faces := l.rack(c)
	if o, err := engine.BestOpening101(g.Okey(), faces, true); err == nil && len(o.Groups) > 0 {
		a, ok := engine.LayAction101(c, slots, faces, o.Groups[:1])
		if ok && len(o.Groups[0].Tiles) < 12 {
			l.attack("an opening under 101", c, l.craft(c, a), "false-opening")
		}
	}
	// Out of turn: the victim moves while the cheater is to play (here the
	// victim is the cheater: whoever signs it is named).
	l.attack("a move out of turn", victim, l.craft(victim, engine.Action101{Kind: engine.Act101Draw, Seat: victim}), "out-of-turn")
}

// TestKeptDiscardAndDealerTurn101: a cheater that takes the previous
// discard and then discards another tile (keeping the taken one) is named
// kept-discard; the dealer laying in its first turn (one discard) is named
// out-of-turn.
func TestKeptDiscardAndDealerTurn101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l := newLockstep(t, "101", 2, 3)
	l.until(func() bool { return l.g() != nil && l.m().phase == phMove })
	dealer := l.g().Dealer()
	tiles := plainTiles(l, dealer)
	l.attack("the dealer lays in its first turn", dealer, l.craft(dealer, engine.Action101{Kind: engine.Act101Lay, Seat: dealer,
		Melds: []engine.MeldPlay{{Tiles: tiles[:3], As: []engine.Face{tiles[0].Face, tiles[1].Face, tiles[2].Face}}}}), "out-of-turn")
	l.attack("the dealer draws", dealer, l.craft(dealer, engine.Action101{Kind: engine.Act101Draw, Seat: dealer}), "rules")
	l.step() // the dealer's discard
	c := 1 - dealer
	l.send(c, KindMove, l.craft(c, engine.Action101{Kind: engine.Act101Take, Seat: c}))
	_, _, taken := l.g().Turn()
	if taken == engine.NoSlot {
		t.Fatal("the take took nothing")
	}
	for _, sf := range plainTiles(l, c) {
		if sf.Slot != taken {
			l.attack("a discard keeping the taken tile", c, l.craft(c, engine.Action101{Kind: engine.Act101Discard, Seat: c,
				Faces: []engine.SlotFace{sf}}), "kept-discard")
			break
		}
	}
	f := l.g().PublicFace(taken)
	l.attack("a discard of the taken tile itself", c, l.craft(c, engine.Action101{Kind: engine.Act101Discard, Seat: c,
		Faces: []engine.SlotFace{{Slot: taken, Face: f}}}), "kept-discard")
	l.attack("take twice", c, l.craft(c, engine.Action101{Kind: engine.Act101Take, Seat: c}), "rules")
	// Giving it back is allowed, and then it may not take again.
	l.send(c, KindMove, l.craft(c, engine.Action101{Kind: engine.Act101GiveBack, Seat: c}))
	l.attack("take after giving back", c, l.craft(c, engine.Action101{Kind: engine.Act101Take, Seat: c}), "rules")
	l.attack("give back twice", c, l.craft(c, engine.Action101{Kind: engine.Act101GiveBack, Seat: c}), "rules")
}

// TestAttacksAfterOpening101: an opened cheater, at its turn after its
// draw, sends adds and swaps with a meld index or a position out of range,
// a swap of a tile that is not an okey, an add that extends nothing, and a
// double laid after opening with sets: each named as protocol.md 5.8 says,
// live and by Verify, the engine unchanged.
func TestAttacksAfterOpening101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	var l *lockstep
	c := -1
	for _, seed := range []uint64{3, 4, 5, 6, 7, 8} {
		l = newLockstep(t, "101", 2, seed)
		if l.until(func() bool {
			for s := 0; s < 2; s++ {
				if midTurn(l, s, true) && len(l.g().Melds()) > 0 && len(plainTiles(l, s)) >= 2 {
					c = s
					return true
				}
			}
			return false
		}) {
			break
		}
	}
	if c < 0 {
		t.Fatal("no seed gets a seat opened")
	}
	g := l.g()
	melds := g.Melds()
	tiles := plainTiles(l, c)
	addTo := func(meld int, sf engine.SlotFace) []byte {
		return l.craft(c, engine.Action101{Kind: engine.Act101Add, Seat: c, Meld: meld, Melds: []engine.MeldPlay{one(sf)}})
	}
	swap := func(meld, pos int, sf engine.SlotFace) []byte {
		return l.craft(c, engine.Action101{Kind: engine.Act101Swap, Seat: c, Meld: meld, Pos: pos, Faces: []engine.SlotFace{sf}})
	}
	l.attack("add to a meld index out of range", c, addTo(len(melds), tiles[0]), "rules")
	l.attack("add to meld 255", c, addTo(255, tiles[0]), "rules")
	l.attack("swap in a meld index out of range", c, swap(len(melds), 0, tiles[0]), "rules")
	l.attack("swap at a position out of range", c, swap(0, len(melds[0].Tiles), tiles[0]), "rules")
	l.attack("swap at position 255", c, swap(0, 255, tiles[0]), "rules")
	for i, m := range melds {
		for k, s := range m.Tiles {
			if !g.IsOkeySlot(s) {
				l.attack(fmt.Sprintf("swap of meld %d's tile %d, not an okey", i, k), c, swap(i, k, tiles[0]), "bad-swap")
				break
			}
		}
		if m.Kind == engine.Pair {
			l.attack("add to a double", c, addTo(i, tiles[0]), "bad-meld")
		}
	}
	for _, sf := range tiles {
		if add, swp := g.AddTargets(sf.Face); len(add) == 0 && len(swp) == 0 {
			l.attack("an add that extends nothing", c, addTo(0, sf), "bad-meld")
			break
		}
	}
	if g.Opened(c) == engine.OpenedSets {
		// A double after opening with sets (two tiles as one face, so the
		// double itself is valid).
		slots, faces := l.rack(c)
		for i := range faces {
			for j := i + 1; j < len(faces); j++ {
				if faces[i] == faces[j] && faces[i] != g.Okey() {
					l.attack("a double after opening with sets", c, l.craft(c, engine.Action101{Kind: engine.Act101Lay, Seat: c,
						Melds: []engine.MeldPlay{{Tiles: []engine.SlotFace{{Slot: slots[i], Face: faces[i]}, {Slot: slots[j], Face: faces[j]}},
							As: []engine.Face{faces[i], faces[j]}}}}), "bad-meld")
					break
				}
			}
		}
	}
	// A lay or add of every tile leaves nothing to discard.
	slots, faces := l.rack(c)
	all := engine.MeldPlay{}
	for i := range slots {
		all.Tiles = append(all.Tiles, engine.SlotFace{Slot: slots[i], Face: faces[i]})
		as := faces[i]
		if as == engine.FalseJoker {
			as = g.Okey()
		}
		all.As = append(all.As, as)
	}
	if len(slots) <= 13 {
		l.attack("an add of the whole rack", c, l.craft(c, engine.Action101{Kind: engine.Act101Add, Seat: c, Meld: 0,
			Melds: []engine.MeldPlay{all}}), "rules")
	}
}

// TestMoveShares101: the share list of a lay, add, swap or discard must be
// the mover's shares for exactly the slots the move opens, ascending. A
// list with a share missing, one more (another slot of its own rack, which
// would open a tile the move does not lay), the slots in another order, or
// another seat's share (public since the deal) is refused, the mover named,
// and nothing of the extra slot is opened.
func TestMoveShares101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const c = 1
	l := beforeOpening(t)
	tiles := plainTiles(l, c)
	disc := move101Body{kind: engine.Act101Discard, slot: tiles[0].Slot}
	withShares := func(b move101Body, slots ...engine.Slot) []byte {
		b.shares = l.shares(c, slots)
		return b.encode()
	}
	extra := tiles[1].Slot
	l.attack("a discard with one share more", c, withShares(disc, sortedSlots([]engine.Slot{tiles[0].Slot, extra})...), "malformed-body")
	l.attack("a discard with the share of another slot", c, withShares(disc, extra), "malformed-body")
	lay := move101Body{kind: engine.Act101Lay, melds: []meldBody{{tiles: []engine.Slot{tiles[0].Slot, tiles[1].Slot, tiles[2].Slot},
		as: []engine.Face{tiles[0].Face, tiles[1].Face, tiles[2].Face}}}}
	open := lay.slots()
	l.attack("a lay with a share missing", c, withShares(lay, open[:2]...), "malformed-body")
	l.attack("a lay with one share more", c, withShares(lay, sortedSlots(append(append([]engine.Slot(nil), open...), tiles[3].Slot))...), "malformed-body")
	// Another seat's share of one of the cheater's slots (public since the
	// deal) in place of its own.
	other := l.m().Shares(tiles[0].Slot)[1-c]
	if other == nil {
		t.Fatal("the other seat's share of a dealt slot is not public")
	}
	list := []byte{1, byte(tiles[0].Slot)}
	list = append(list, other...)
	l.attack("a discard with another seat's share", c, append([]byte{byte(engine.Act101Discard), byte(tiles[0].Slot)}, list...), "bad-key-share")
	// None of it opened the extra slot's face, or any face.
	for _, s := range []engine.Slot{extra, tiles[3].Slot} {
		if l.g().PublicFace(s) != engine.NoFace || l.m().Shares(s)[c] != nil {
			t.Fatalf("slot %d opened by a refused move", s)
		}
	}
}

// TestFramingByForgeryOrReplay101: a cheater cannot get an honest seat
// named with that seat's moves. A lay in the victim's name signed with the
// cheater's key is refused by every peer as a bad signature (no one named);
// the victim's own signed moves delivered again later, at a later step of
// the round, are dropped as duplicates or stale (no one named); the same
// body re-signed by the cheater is the cheater's message, and names it. A
// file that carries the forgery as evidence is invalid in verify, naming no
// one.
func TestFramingByForgeryOrReplay101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l := newLockstep(t, "101", 2, 5)
	var victim int
	var laid []byte // the victim's signed lay
	l.until(func() bool {
		if laid != nil {
			return true
		}
		seat, kind := l.m().Expect()
		if kind != KindMove {
			return false
		}
		s, k, body := l.honest()
		if engine.Act101(body[0]) != engine.Act101Lay {
			return false
		}
		victim = seat
		env := l.seal(s, k, body)
		l.deliver(env.Raw, -1)
		laid = env.Raw
		return true
	})
	if laid == nil {
		t.Fatal("no lay in the round")
	}
	c := 1 - victim
	l.until(func() bool { return l.turnOf(victim) })
	// The forgery: the victim's seat and a lay body, the cheater's key.
	seat, kind, body := l.honest()
	if seat != victim {
		t.Fatal("not the victim's turn")
	}
	m := l.m()
	forged := &Envelope{Table: l.cfg.ID, Hand: m.HandNumber(), Step: m.Step(), Seat: uint8(victim), Kind: kind,
		Prev: m.Prev(), State: m.StateHash(), Body: body}
	if err := forged.Seal(l.keys[c], m.cfgHash); err != nil {
		t.Fatal(err)
	}
	for i, err := range l.deliver(forged.Raw, c) {
		if i != c && !errors.Is(err, ErrSignature) {
			t.Fatalf("peer %d: forged envelope: %v", i, err)
		}
	}
	// Through the receive path too, and the victim's old lay replayed.
	for i, p := range l.peers {
		if i == c {
			continue
		}
		p.n.Step(forged.Raw)
		p.n.Step(laid)
		if v := p.n.m.Aborted(); v != nil {
			t.Fatalf("peer %d named seat %d for %s after a forgery and a replay", i, v.Seat, v.Rule)
		}
	}
	// A file with the forgery as evidence: invalid, no one named.
	tr := l.transcript()
	tr.Evidence = append(tr.Evidence, forged.Raw)
	if rep := Verify(tr); rep.Status() != StatusInvalid || rep.Violation != nil {
		t.Fatalf("verify with a forged evidence record: status %v violation %v", rep.Status(), rep.Violation)
	}
	// The victim's move goes on; the cheater re-signs the victim's old lay
	// body as its own move at its next turn: that names the cheater.
	l.send(seat, kind, body)
	l.until(func() bool { return l.turnOf(c) })
	old, err := DecodeEnvelope(laid)
	if err != nil {
		t.Fatal(err)
	}
	l.attack("the victim's lay re-signed by the cheater", c, old.Body, "phantom-tile")
}

// wrongMover101 plays B101 but, at its first turn after drawing, adds a
// tile to a meld that does not exist: a mover's bug (or a misread state)
// that would be signed proof against its own honest seat.
type wrongMover101 struct{ Mover101 }

func (w wrongMover101) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, errors.New("101 only")
}

func (w wrongMover101) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	seat, drawn, _ := g.Turn()
	if !drawn || g.Turns() == 0 {
		return w.Mover101.Move101(g, v)
	}
	slots, faces := v.Rack(g)
	sf := engine.SlotFace{Slot: slots[0], Face: faces[0]}
	return engine.Action101{Kind: engine.Act101Add, Seat: seat, Meld: 200,
		Melds: []engine.MeldPlay{{Tiles: []engine.SlotFace{sf}, As: []engine.Face{faces[0]}}}}, nil
}

// TestOwnRefusedMoveIsNotSent: a peer tries its mover's move on a copy of
// its machine before it signs it; a move the rules refuse is not sent
// (ErrOwnMove), nothing changes, and its seat is not named (the others see
// it stop answering). The same body, signed and sent, would name it.
func TestOwnRefusedMoveIsNotSent(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const seat = 1
	l := beforeOpening(t)
	p := l.peers[seat]
	p.c.Mover = wrongMover101{p.c.Mover.(Mover101)}
	step, chain := p.n.m.Step(), len(p.Chain())
	err := p.speak(context.Background(), KindMove)
	if !errors.Is(err, ErrOwnMove) {
		t.Fatalf("speak of a refused move: %v", err)
	}
	if p.n.m.Step() != step || p.n.m.Aborted() != nil || len(p.Chain()) != chain {
		t.Fatalf("a move not sent changed the peer: step %d -> %d, aborted %v", step, p.n.m.Step(), p.n.m.Aborted())
	}
	if tr, err := p.c.Store.Load(); err != nil || tr != nil && len(tr.Chain) != chain {
		t.Fatalf("the store holds the refused move: %v", err)
	}
	body, err := p.body(KindMove)
	if err != nil {
		t.Fatal(err)
	}
	l.attack("the same move signed", seat, body, "add-before-open")
}

// TestAddablePenaltyFromPublicMelds101: a discard that fits a meld on the
// table costs 101, judged by every peer from the melds in the public state
// that the discarder's own signed message commits to (its state hash): every
// peer records the same penalty, the round's result carries it, Verify
// agrees, and no seat is named for it (a penalty is scoring, not blame).
func TestAddablePenaltyFromPublicMelds101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l, victim, forced := untilFittingDiscard101(t)
	before := len(l.g().Penalties())
	l.send(victim, KindMove, l.craft(victim, engine.Action101{Kind: engine.Act101Discard, Seat: victim,
		Faces: []engine.SlotFace{forced}}))
	p := l.g().Penalties()
	if len(p) != before+1 || p[before].Seat != victim || p[before].Kind != engine.PenaltyAddable || p[before].Slot != forced.Slot {
		t.Fatalf("penalties after discarding %v that fits: %v", forced.Face, p)
	}
	for i, peer := range l.peers {
		if peer.n.m.StateHash() != l.m().StateHash() || peer.n.m.Aborted() != nil {
			t.Fatalf("peer %d: state differs or aborted (%v)", i, peer.n.m.Aborted())
		}
	}
	hand := l.m().HandNumber()
	l.until(func() bool { return len(l.m().Hands()) > int(hand) })
	res := l.m().Hands()[hand].Result101
	found := false
	for _, q := range res.Penalties {
		found = found || q == p[before]
	}
	if !found || res.Points[victim] != res.HandPoints[victim]+101*countPenalties(res.Penalties, victim) {
		t.Fatalf("round result %+v lacks the penalty %+v", res, p[before])
	}
	rep := Verify(l.transcript())
	if rep.Violation != nil || rep.Invalid != nil || len(rep.Hands) <= int(hand) {
		t.Fatalf("verify: status %v violation %v invalid %v", rep.Status(), rep.Violation, rep.Invalid)
	}
	if got := rep.Hands[hand].Result101; got == nil || got.Points[victim] != res.Points[victim] {
		t.Fatalf("verify scores the round %+v, the peers %+v", got, res)
	}
}

func countPenalties(ps []engine.Penalty101, seat int) int {
	n := 0
	for _, p := range ps {
		if p.Seat == seat {
			n++
		}
	}
	return n
}

// TestTwoMovesForOneStep101: a cheater signs two different moves for one
// step of its turn (two discards) and shows one to each honest seat. A peer
// that sees both names the cheater for equivocation at once, and Verify of
// a transcript that carries the second as evidence names it too; an honest
// seat is never named.
func TestTwoMovesForOneStep101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const c = 1
	l := beforeOpening(t)
	tiles := plainTiles(l, c)
	a := l.seal(c, KindMove, l.craft(c, engine.Action101{Kind: engine.Act101Discard, Seat: c, Faces: tiles[:1]}))
	b := l.seal(c, KindMove, l.craft(c, engine.Action101{Kind: engine.Act101Discard, Seat: c, Faces: tiles[1:2]}))
	for i, err := range l.deliver(a.Raw, -1) {
		if err != nil {
			t.Fatalf("peer %d refused the first discard: %v", i, err)
		}
	}
	p := l.peers[1-c]
	p.n.Step(b.Raw)
	v := p.n.m.Aborted()
	if v == nil || v.Seat != c || v.Rule != "equivocation" {
		t.Fatalf("after the second move for step %d: %v", a.Step, v)
	}
	tr := l.transcript()
	tr.Evidence = append(tr.Evidence, b.Raw)
	rep := Verify(tr)
	if rep.Violation == nil || rep.Violation.Seat != c || rep.Violation.Rule != "equivocation" {
		t.Fatalf("verify: %v %v", rep.Violation, rep.Invalid)
	}
}

// TestSilentAtTheReveal101: a seat that stops answering at the round-end
// reveal (it may see it lost the round) is not proven to cheat: verify
// reports the match unfinished, with that seat to speak next and no one
// named. Silence is never proof (protocol.md 5.5); the honest seats that
// spoke before it published only the shares of their own racks.
func TestSilentAtTheReveal101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l := newLockstep(t, "101", 2, 5)
	silent := -1
	if !l.until(func() bool {
		g := l.g()
		if g == nil || g.Phase() != engine.Phase101Reveal || l.m().phase != phOpen {
			return false
		}
		seat, _ := l.m().Expect()
		if seat == 0 {
			return false // let seat 0 reveal first
		}
		silent = seat
		return true
	}) {
		t.Fatal("the round never reaches the reveal")
	}
	g := l.g()
	for _, s := range g.Rack(silent) {
		if g.PublicFace(s) == engine.NoFace && l.m().Shares(s)[silent] != nil {
			t.Fatalf("the silent seat's share of its slot %d is public", s)
		}
	}
	rep := Verify(l.transcript())
	if rep.Status() != StatusUnfinished || rep.Violation != nil || rep.Next == nil || rep.Next.Seat != silent || rep.Next.Kind != KindOpen {
		t.Fatalf("verify: status %v violation %v next %+v", rep.Status(), rep.Violation, rep.Next)
	}
}

// TestSkippedPenalty101: a cheater's modified engine skips the 101 its own
// discard costs (a tile that fits a meld on the table). The honest peers
// record the penalty from the public faces; at the cheater's next message,
// which carries the state hash its engine computed, every honest peer and
// Verify name it state-divergence.
func TestSkippedPenalty101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l, c, fitting := untilFittingDiscard101(t)
	l.send(c, KindMove, l.craft(c, engine.Action101{Kind: engine.Act101Discard, Seat: c, Faces: []engine.SlotFace{fitting}}))
	l.until(func() bool { s, _ := l.m().Expect(); return s == c })
	// The cheater's state: the honest one without its last penalty.
	pens := l.g().Penalties()
	last := pens[len(pens)-1]
	if last.Seat != c || last.Kind != engine.PenaltyAddable {
		t.Fatalf("penalties %v", pens)
	}
	enc := func(ps []engine.Penalty101) []byte {
		b := []byte{byte(len(ps))}
		for _, p := range ps {
			b = append(b, byte(p.Seat), byte(p.Kind), byte(p.Slot), 0, 0, 0, byte(p.Points))
		}
		return b
	}
	pre := l.m().StatePreimage()
	honest, forged := enc(pens), enc(pens[:len(pens)-1])
	if bytes.Count(pre, honest) != 1 {
		t.Fatalf("the penalty list is not once in the state encoding")
	}
	forgedHash := sha256.Sum256(bytes.Replace(pre, honest, forged, 1))
	seat, kind, body := l.honest()
	m := l.peers[c].n.m
	env := &Envelope{Table: l.cfg.ID, Hand: m.HandNumber(), Step: m.Step(), Seat: uint8(seat), Kind: kind,
		Prev: m.Prev(), State: forgedHash, Body: body}
	if err := env.Seal(l.keys[c], m.cfgHash); err != nil {
		t.Fatal(err)
	}
	l.named(l.deliver(env.Raw, c), c, "state-divergence", nil)
}

// untilFittingDiscard101 plays a 2-seat 101 lockstep (the first of a few
// seeds that gets there) until the seat to move has drawn and holds a plain
// tile that fits a meld on the table: it returns the lockstep, that seat and
// the tile.
func untilFittingDiscard101(t *testing.T) (*lockstep, int, engine.SlotFace) {
	t.Helper()
	for _, seed := range []uint64{3, 4, 5, 6, 7, 8} {
		l := newLockstep(t, "101", 2, seed)
		seat, tile := -1, engine.SlotFace{}
		if l.until(func() bool {
			g := l.g()
			if g == nil || l.m().phase != phMove {
				return false
			}
			s, drawn, taken := g.Turn()
			if s < 0 || !drawn || taken != engine.NoSlot || len(g.Rack(s)) < 2 {
				return false
			}
			for _, sf := range plainTiles(l, s) {
				if g.Fits(sf.Face) {
					seat, tile = s, sf
					return true
				}
			}
			return false
		}) {
			return l, seat, tile
		}
	}
	t.Fatal("no seed reaches a discard that fits a meld")
	return nil, -1, engine.SlotFace{}
}
