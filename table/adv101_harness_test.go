package table

import (
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
)

// The adversarial review of Okey 101 at the table (adv101_test.go) drives
// every seat of a table in one goroutine, without a network: each step the
// expected seat's message is built (honestly, or rewritten by the test as a
// cheater's modified code would), signed with that seat's key, and applied by
// every peer. A cheater's message is signed with its own key only, so what
// the honest peers conclude is what they would conclude live; Verify of the
// chain (plus the evidence) is what `okey verify` concludes.

// nullTransport is a transport that carries nothing: the lockstep driver
// delivers every envelope itself.
type nullTransport struct {
	id PeerID
	in chan Packet
}

func (n *nullTransport) Self() PeerID                                 { return n.id }
func (n *nullTransport) Broadcast(context.Context, []byte) error      { return nil }
func (n *nullTransport) Inbox() <-chan Packet                         { return n.in }
func (n *nullTransport) Serve(func(from PeerID, req []byte) [][]byte) {}
func (n *nullTransport) Close() error                                 { return nil }
func (n *nullTransport) Fetch(context.Context, PeerID, []byte) ([][]byte, error) {
	return nil, errors.New("null transport: no network")
}

// lockstep is a table whose every seat is driven by the test.
type lockstep struct {
	t     testing.TB
	cfg   Config
	keys  []ed25519.PrivateKey
	peers []*Peer
	chain [][]byte
	// evidence holds envelopes that an honest peer refused with a
	// violation (they are not in the chain; a transcript carries them as
	// evidence).
	evidence [][]byte
}

// newLockstep seats n peers at a 101 table; every seat's randomness comes
// from seed, so that a test replays exactly.
func newLockstep(t testing.TB, ruleset string, n int, seed uint64) *lockstep {
	t.Helper()
	cfg, keys, err := LocalConfig(ruleset, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	rands := seededRands(n, seed)
	for i := range cfg.Seats {
		if _, err := io.ReadFull(rands[i], cfg.Seats[i].Nonce[:]); err != nil {
			t.Fatal(err)
		}
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	l := &lockstep{t: t, cfg: cfg, keys: keys}
	for i := 0; i < n; i++ {
		p, err := NewPeer(PeerConfig{Table: cfg, Seat: i, Key: keys[i], Rand: rands[i],
			Transport: &nullTransport{id: cfg.Seats[i].ID, in: make(chan Packet)}, Mover: bot.NewB101()})
		if err != nil {
			t.Fatal(err)
		}
		l.peers = append(l.peers, p)
	}
	return l
}

// m is the first peer's machine (every honest peer's is the same).
func (l *lockstep) m() *Machine { return l.peers[0].n.m }

// g is the current 101 round (nil before the first hand's randomness).
func (l *lockstep) g() *engine.Game101 {
	if mt := l.m().Match101(); mt != nil {
		return mt.Game()
	}
	return nil
}

// seal signs body as seat's message of kind for the current step, with the
// state hash its own machine computes.
func (l *lockstep) seal(seat int, kind Kind, body []byte) *Envelope {
	l.t.Helper()
	m := l.peers[seat].n.m
	env := &Envelope{Table: l.cfg.ID, Hand: m.HandNumber(), Step: m.Step(), Seat: uint8(seat), Kind: kind,
		Prev: m.Prev(), State: m.StateHash(), Body: body}
	if err := env.Seal(l.keys[seat], m.cfgHash); err != nil {
		l.t.Fatal(err)
	}
	return env
}

// deliver applies raw at every peer but skip (-1: none) and returns each
// peer's error (nil for skip). A message that every peer applied joins the
// chain; one refused with a violation joins the evidence.
func (l *lockstep) deliver(raw []byte, skip int) []error {
	l.t.Helper()
	errs := make([]error, len(l.peers))
	applied := false
	for i, p := range l.peers {
		if i == skip {
			continue
		}
		env, err := DecodeEnvelope(raw)
		if err != nil {
			errs[i] = err
			continue
		}
		if err := env.Verify(l.cfg.Seats[env.Seat].Key, p.n.m.cfgHash); err != nil {
			errs[i] = err
			continue
		}
		before := p.n.m.Step()
		errs[i] = p.applyLocal(env, false)
		applied = applied || p.n.m.Step() > before
	}
	var v *Violation
	switch {
	case applied:
		l.chain = append(l.chain, raw)
	case errors.As(errs[firstOther(skip)], &v):
		l.evidence = append(l.evidence, raw)
	}
	return errs
}

func firstOther(skip int) int {
	if skip == 0 {
		return 1
	}
	return 0
}

// honest returns the expected seat's honest next message, unsigned.
func (l *lockstep) honest() (seat int, kind Kind, body []byte) {
	l.t.Helper()
	seat, kind = l.m().Expect()
	p := l.peers[seat]
	if p.junk != engine.NoSlot && p.n.m.junkAllowed() {
		kind = KindJunk
	}
	body, err := p.body(kind)
	if err != nil {
		l.t.Fatalf("seat %d's %v: %v", seat, kind, err)
	}
	return seat, kind, body
}

// step sends the expected seat's honest message; every peer must apply it.
func (l *lockstep) step() {
	l.t.Helper()
	l.send(l.honest())
}

// send signs and delivers a message that every peer must apply.
func (l *lockstep) send(seat int, kind Kind, body []byte) {
	l.t.Helper()
	for i, err := range l.deliver(l.seal(seat, kind, body).Raw, -1) {
		if err != nil {
			l.t.Fatalf("step %d: peer %d refused seat %d's honest %v: %v", l.m().Step(), i, seat, kind, err)
		}
	}
}

// until plays honestly until cond holds (true) or the match ends (false).
func (l *lockstep) until(cond func() bool) bool {
	l.t.Helper()
	for !cond() {
		if l.m().Done() {
			return false
		}
		l.step()
	}
	return true
}

// turnOf reports whether seat is to move in play (any move).
func (l *lockstep) turnOf(seat int) bool {
	s, kind := l.m().Expect()
	return kind == KindMove && s == seat
}

// craft builds seat's move body for a 101 action, with its shares for the
// slots the move opens (what a cheater's own code can always do).
func (l *lockstep) craft(seat int, a engine.Action101) []byte {
	l.t.Helper()
	b, err := body101(a)
	if err != nil {
		l.t.Fatal(err)
	}
	if open := b.slots(); len(open) > 0 {
		b.shares = l.shares(seat, open)
	}
	return b.encode()
}

// shares returns seat's share list for slots (ascending).
func (l *lockstep) shares(seat int, slots []engine.Slot) []byte {
	l.t.Helper()
	p := l.peers[seat]
	sec, err := p.secretFor()
	if err != nil {
		l.t.Fatal(err)
	}
	b, err := p.shares(sec, slots)
	if err != nil {
		l.t.Fatal(err)
	}
	return b
}

// rack returns seat's rack slots and faces as its own view knows them.
func (l *lockstep) rack(seat int) ([]engine.Slot, []engine.Face) {
	return l.peers[seat].view.Rack(l.g())
}

// transcript is the chain with the evidence, as an honest peer saves it.
func (l *lockstep) transcript() *Transcript {
	return &Transcript{Config: l.cfg, Chain: append([][]byte(nil), l.chain...),
		Evidence: append([][]byte(nil), l.evidence...)}
}

// named checks that every peer but the cheater refused with a violation
// naming the cheater for rule, that the honest peers' engine state did not
// change, and that Verify names the same seat for the same rule.
func (l *lockstep) named(errs []error, cheater int, rule Rule, before []byte) {
	l.t.Helper()
	for i, err := range errs {
		if i == cheater {
			continue
		}
		var v *Violation
		if !errors.As(err, &v) || v.Seat != cheater || v.Rule != rule {
			l.t.Fatalf("peer %d: %v; want seat %d named for %s", i, err, cheater, rule)
		}
		if before != nil {
			if got := l.peers[i].n.m.game.appendState(nil); string(got) != string(before) {
				l.t.Fatalf("peer %d: the refused move changed the engine state", i)
			}
		}
	}
	rep := Verify(l.transcript())
	if rep.Status() != StatusCheating || rep.Violation.Seat != cheater || rep.Violation.Rule != rule {
		l.logReport(rep)
		l.t.Fatalf("verify: status %v violation %v invalid %v; want seat %d named for %s",
			rep.Status(), rep.Violation, rep.Invalid, cheater, rule)
	}
}

func (l *lockstep) logReport(rep *Report) {
	l.t.Helper()
	l.t.Logf("verify: %d steps, next %+v, failure %v", rep.Steps, rep.Next, rep.Failure)
}

// snapshot is every peer's machine at one step, to try several attacks
// from the same position.
type snapshot struct {
	ms              []*Machine
	chain, evidence int
}

func (l *lockstep) save() snapshot {
	s := snapshot{chain: len(l.chain), evidence: len(l.evidence)}
	for _, p := range l.peers {
		s.ms = append(s.ms, p.n.m.clone())
	}
	return s
}

// restore returns every peer to s (after refused messages only: views and
// chains move only on applied ones).
func (l *lockstep) restore(s snapshot) {
	for i, p := range l.peers {
		p.n.m = s.ms[i].clone()
		p.n.chain, p.n.hashes = p.n.chain[:s.chain], p.n.hashes[:s.chain]
	}
	l.chain, l.evidence = l.chain[:s.chain], l.evidence[:s.evidence]
}

// attack sends seat's move body (signed by seat), checks that every other
// peer and Verify name seat for rule with the engine unchanged, and returns
// the table to where it was.
func (l *lockstep) attack(name string, seat int, body []byte, rule Rule) {
	l.t.Helper()
	s := l.save()
	defer l.restore(s)
	before := l.m().game.appendState(nil)
	errs := l.deliver(l.seal(seat, KindMove, body).Raw, -1)
	l.t.Logf("%s: %v", name, errs[firstOther(seat)])
	l.named(errs, seat, rule, before)
}
