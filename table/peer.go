package table

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
)

// Mover chooses a seat's moves: a bot strategy or a person at the UI. Its
// Move runs in a goroutine of its own while the peer goes on reading the
// table, on copies of the hand and the view that it may keep. It may also
// implement MoveCanceler.
type Mover interface {
	Move(h *engine.Hand, v *engine.View) (engine.Action, error)
}

// MoveCanceler is a Mover that can be told to stop choosing: Run calls
// CancelMove when it returns (the match ended, another seat was named, ctx
// ended) while this seat's mover is still choosing a move. Its Move may
// then return anything: the move is not sent.
type MoveCanceler interface {
	CancelMove()
}

// ErrNo101Mover is returned by NewPeer for an Okey 101 table whose mover
// does not implement Mover101.
var ErrNo101Mover = errors.New("table: Okey 101 needs a mover that plays it")

// Mover101 chooses a seat's moves in Okey 101: at a 101 table the
// PeerConfig's Mover must implement it too.
type Mover101 interface {
	Move101(g *engine.Game101, v *engine.View) (engine.Action101, error)
}

// PeerConfig configures a Peer. Zero values get the documented defaults.
type PeerConfig struct {
	Table     Config
	Seat      int
	Key       ed25519.PrivateKey
	Transport Transport
	Mover     Mover
	Store     Store        // default: in memory
	Log       *slog.Logger // default: discard
	// Stall is how long the peer waits without progress before it asks the
	// others again for what it missed (default 2 s).
	Stall time.Duration
	// Withhold is how long the peer waits without progress before it names
	// the seat it waits for as withholding and aborts (default 2 min). It is
	// the only timing-dependent blame in the protocol: keep it far above the
	// slowest honest step (a 4-player shuffle under load takes seconds).
	Withhold time.Duration
	// MoveWithhold replaces Withhold while the table waits for a player's
	// move, where a person may be thinking (default: Withhold). Callers
	// that may seat people set it from the turn timer, or long.
	MoveWithhold time.Duration
	// Cheat makes this peer break the protocol on purpose (okey sim --cheat).
	Cheat Cheat
	// noLockProofs: tests of the later defences (junk claims, the audit)
	// switch the shuffle proof check off.
	noLockProofs bool
	// junkSlots are the final-deck positions a junk-private cheater fills
	// with junk (tests aim them at one seat's rack; default a fixed few).
	junkSlots []int
	// Replay holds envelopes of an earlier match that a replay cheater
	// sends (okey sim --cheat replay).
	Replay [][]byte
	// Rand is the source of the peer's hand seeds and hello nonces
	// (default crypto/rand). Only tests set it, to replay a match exactly.
	Rand io.Reader
	// OnStep is called after every applied step (from the peer's goroutine).
	OnStep func(m *Machine, v *engine.View)
}

// Peer is one seat's protocol driver: it applies everyone's envelopes in
// order, speaks when the machine expects it to, keeps its secrets and its
// view of its own tiles, and saves what it needs to resume.
type Peer struct {
	c PeerConfig
	// n is the protocol's decisions: the machine, the chain, the reorder
	// buffer, forks and stall accounting (node.go). The rest of Peer is
	// what the node leaves out: secrets, the view, the clock and I/O.
	n *node
	// ticked is the time up to which the node has had its ticks (Run's
	// loop only; see giveTicks).
	ticked time.Time
	view   *engine.View
	secret *deck.Secret
	log    *slog.Logger
	// say is how this seat speaks: honest, or a cheater wrapping the
	// honest speaker (cheat.go).
	say    speaker
	crypto time.Duration // time spent building and applying cryptographic steps
	// junk is a slot of this seat's rack that opened privately to no tile
	// (engine.NoSlot: none): the next due message is a junk claim for it.
	junk engine.Slot
	// links carries LinkChanged's word to Run's loop.
	links chan struct{}
}

// LinkChanged tells the peer that a member's connection changed (its
// transport saw one open or close): messages in flight on a closed one are
// lost, so while no progress comes the peer asks for the chain soon (an
// eighth of its stall time) rather than after the whole. Safe from any
// goroutine; it never blocks.
func (p *Peer) LinkChanged() {
	select {
	case p.links <- struct{}{}:
	default:
	}
}

// CryptoTime returns the time this peer spent on shuffles, re-keys, shares
// and audits (building and checking them).
func (p *Peer) CryptoTime() time.Duration { return p.crypto }

func isCrypto(k Kind) bool { return k != KindHello && k != KindMove }

// Result is how a peer's match ended: finished (all three nil), a seat named
// on its own signed messages (Violation), the seat to speak silent for the
// withhold time (Stalled: no one named), or the rules unable to go on
// through nobody's fault (Failure: no one named).
type Result struct {
	Machine   *Machine
	Violation *Violation
	Stalled   *Stall
	Failure   *Failure
}

// Stall says which seat the table waited for when it gave up. Silence is not
// proof of cheating (a crash, a cut cable and a cheater look the same), so a
// stall names no one as a cheater: it says who stopped answering.
type Stall struct {
	Seat   int
	Kind   Kind
	Step   uint32
	Waited time.Duration
}

// Ended returns how the match ended early, as an error (a *Violation, a
// *Stall or a *Failure), or nil when it finished.
func (r Result) Ended() error {
	switch {
	case r.Violation != nil:
		return r.Violation
	case r.Stalled != nil:
		return r.Stalled
	case r.Failure != nil:
		return r.Failure
	}
	return nil
}

func (s *Stall) Error() string {
	return fmt.Sprintf("table: seat %d stopped answering: no %v for step %d in %v", s.Seat, s.Kind, s.Step, s.Waited.Round(time.Second))
}

// ErrOwnMove is returned by Run when this seat's mover chose a move the
// rules refuse: the peer does not send it (it would be signed proof against
// its own seat) and stops; the others see the seat stop answering.
var ErrOwnMove = errors.New("table: this seat's mover chose a move the rules refuse; it was not sent")

// ErrSeedLost is returned when this peer's saved hand seed is missing or
// does not match the lock key its seat already sent: speaking on would
// contradict its own signed messages. The user loses the hand, not their
// name.
var ErrSeedLost = errors.New("table: the saved hand seed is lost or damaged; this seat cannot go on in this hand without contradicting its own signed messages")

// NewPeer makes a peer and, when its store holds a transcript, replays it to
// resume where it stopped.
func NewPeer(c PeerConfig) (*Peer, error) {
	if c.Store == nil {
		c.Store = NewMemStore(c.Table)
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	if c.Stall == 0 {
		c.Stall = 2 * time.Second
	}
	if c.Rand == nil {
		c.Rand = rand.Reader
	}
	if c.Withhold == 0 {
		c.Withhold = 2 * time.Minute
	}
	if c.MoveWithhold == 0 {
		c.MoveWithhold = c.Withhold
	}
	m, err := NewMachine(c.Table, nil)
	if err != nil {
		return nil, err
	}
	if c.Seat < 0 || c.Seat >= len(c.Table.Seats) || !c.Key.Public().(ed25519.PublicKey).Equal(c.Table.Seats[c.Seat].Key) {
		return nil, fmt.Errorf("table: key does not match seat %d", c.Seat)
	}
	if _, ok := c.Mover.(Mover101); c.Mover != nil && !ok && m.rules.Preset == engine.Preset101 {
		return nil, fmt.Errorf("%w: seat %d's mover does not play Okey 101", ErrNo101Mover, c.Seat)
	}
	m.noLockProofs = c.noLockProofs
	p := &Peer{c: c, view: engine.NewView(c.Seat), log: c.Log, junk: engine.NoSlot, links: make(chan struct{}, 1)}
	p.n = newNode(nodeConfig{Table: c.Table, Seat: c.Seat, Log: c.Log, StallTicks: ticksPerStall,
		WithholdTicks: p.ticks(c.Withhold), MoveWithholdTicks: p.ticks(c.MoveWithhold)}, m)
	p.setCheat(c.Cheat)
	t, err := c.Store.Load()
	if err != nil {
		return nil, fmt.Errorf("table: resume: %w", err)
	}
	if t != nil {
		for i, raw := range t.Chain {
			env, err := DecodeEnvelope(raw)
			if err != nil {
				return nil, fmt.Errorf("table: resume: record %d: %w", i, err)
			}
			if err := p.applyLocal(env, false); err != nil {
				return nil, fmt.Errorf("table: resume: step %d: %w", i, err)
			}
		}
		p.log.Info("resumed", "step", p.n.m.Step(), "hand", p.n.m.HandNumber())
	}
	return p, nil
}

// Machine returns the peer's protocol state (read it from OnStep or after Run).
func (p *Peer) Machine() *Machine { return p.n.m }

// View returns the peer's private view.
func (p *Peer) View() *engine.View { return p.view }

// Chain returns the raw envelopes applied so far.
func (p *Peer) Chain() [][]byte { return append([][]byte(nil), p.n.chain...) }

// applyLocal applies an envelope (own or received, resumed or driven by a
// test) and updates the view.
func (p *Peer) applyLocal(env *Envelope, persist bool) error {
	hand := p.n.m.HandNumber()
	start := time.Now()
	err := p.n.m.Apply(env)
	if isCrypto(env.Kind) {
		p.crypto += time.Since(start)
	}
	if err != nil {
		return err
	}
	if persist {
		// Received: it may be lost in a crash (the others send it again).
		save := p.c.Store.Append
		if l, ok := p.c.Store.(interface{ AppendLazy(byte, []byte) error }); ok {
			save = l.AppendLazy
		}
		if err := save(RecEnvelope, env.Raw); err != nil {
			return err
		}
	}
	p.n.hashes = append(p.n.hashes, env.Hash())
	p.n.chain = append(p.n.chain, env.Raw)
	return p.applied(hand)
}

// applied updates the view after the machine applied a step (hand was the
// hand number before it), and reports the step.
func (p *Peer) applied(hand uint32) error {
	if p.n.m.HandNumber() != hand || !p.n.m.Started() {
		p.view = engine.NewView(p.c.Seat)
		p.secret = nil
		p.junk = engine.NoSlot
	}
	if err := p.learn(); err != nil {
		return err
	}
	if p.c.OnStep != nil {
		p.c.OnStep(p.n.m, p.view)
	}
	return nil
}

// secretFor returns this hand's secret, from the store or fresh (saved
// before first use, so a restart regenerates the very same messages). Once
// this seat's lock is in the chain, a seed is never drawn again, and the
// saved one must give the lock key the chain holds (ErrSeedLost otherwise).
func (p *Peer) secretFor() (*deck.Secret, error) {
	if p.secret != nil {
		return p.secret, nil
	}
	h := p.n.m.HandNumber()
	seed, err := p.c.Store.LoadSecret(h)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSeedLost, err)
	}
	key, locked := p.n.m.Deck().LockKey(p.c.Seat)
	if seed == nil && locked {
		return nil, ErrSeedLost
	}
	if seed == nil {
		seed = make([]byte, seedSize)
		if _, err := io.ReadFull(p.c.Rand, seed); err != nil {
			return nil, err
		}
		if err := p.c.Store.SaveSecret(h, seed); err != nil {
			return nil, err
		}
	}
	s, err := deck.SecretFromSeed(p.n.m.Session(), h, len(p.c.Table.Seats), p.c.Seat, seed)
	if err != nil {
		if locked {
			return nil, fmt.Errorf("%w: %v", ErrSeedLost, err)
		}
		return nil, err
	}
	if locked && string(s.LockKey()) != string(key.Bytes()) {
		return nil, ErrSeedLost
	}
	p.secret = s
	return s, nil
}

// seedReader is a deterministic stream from the hand's secret seed, for the
// randomness a message needs (commitment opening, proof hedges), so that a
// resumed peer sends the same bytes again.
func seedReader(seed []byte, label string) io.Reader {
	return &hashStream{key: append(append([]byte(label), 0), seed...)}
}

type hashStream struct {
	key []byte
	ctr uint64
	buf []byte
}

func (s *hashStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(s.buf) == 0 {
			d := sha512.Sum512(binary.BigEndian.AppendUint64(append([]byte(nil), s.key...), s.ctr))
			s.ctr++
			s.buf = d[:]
		}
		c := copy(p[n:], s.buf)
		s.buf = s.buf[c:]
		n += c
	}
	return n, nil
}

// learn opens every tile in this seat's rack whose other shares are public.
func (p *Peer) learn() error {
	g := p.n.m.game
	if g == nil || p.n.m.Deck() == nil || !g.playing() {
		return nil
	}
	for _, s := range g.rack(p.c.Seat) {
		if g.viewFace(p.view, s) != engine.NoFace {
			continue
		}
		shares := append([][]byte(nil), p.n.m.Shares(s)...)
		missing := false
		for seat, sh := range shares {
			if seat != p.c.Seat && sh == nil {
				missing = true
			}
		}
		if missing {
			continue
		}
		sec, err := p.secretFor()
		if err != nil {
			return err
		}
		own, err := p.n.m.Deck().Share(sec, int(s))
		if err != nil {
			return err
		}
		shares[p.c.Seat] = own
		j, err := p.n.m.Deck().Open(int(s), shares)
		if errors.Is(err, deck.ErrJunk) {
			// Junk in our own tile: claim it at our next message, so that it
			// opens in public and the audit names the shuffler.
			p.log.Warn("own tile opens to no tile: claiming junk", "slot", s)
			if p.junk == engine.NoSlot {
				p.junk = s
			}
			continue
		}
		if err != nil {
			return err
		}
		p.view.Learn(s, engine.Tile(j).Face())
	}
	return nil
}

// body is this seat's next message body, as its speaker builds it.
func (p *Peer) body(kind Kind) ([]byte, error) { return p.say.body(kind) }

// build builds this seat's next message body, as protocol.md says.
func (p *Peer) build(kind Kind) ([]byte, error) {
	m := p.n.m
	switch kind {
	case KindHello:
		b := helloBody{ConfigHash: m.cfgHash}
		if _, err := io.ReadFull(p.c.Rand, b.Nonce[:]); err != nil {
			return nil, err
		}
		return b.encode(), nil
	}
	sec, err := p.secretFor()
	if err != nil {
		return nil, err
	}
	seed := sec.Seed()
	switch kind {
	case KindShuffle:
		cm, _, err := commit.Commit(labelHandRandom, m.Session(), m.HandNumber(), p.c.Seat, seedReader(seed, "dice"))
		if err != nil {
			return nil, err
		}
		lock, _, err := m.Deck().Lock(sec)
		if err != nil {
			return nil, err
		}
		return encodeShuffle(cm, lock), nil
	case KindRekey:
		_, op, err := commit.Commit(labelHandRandom, m.Session(), m.HandNumber(), p.c.Seat, seedReader(seed, "dice"))
		if err != nil {
			return nil, err
		}
		rk, _, err := m.Deck().Rekey(sec, seedReader(seed, "rekey"))
		if err != nil {
			return nil, err
		}
		return encodeRekey(op, rk), nil
	case KindOpen:
		return p.shares(sec, m.openFor(p.c.Seat))
	case KindDeal:
		return p.shares(sec, m.dealtToOthers(p.c.Seat))
	case KindShare:
		return p.shares(sec, []engine.Slot{m.drawSlot})
	case KindMove:
		return p.move(sec)
	case KindAudit:
		return seed, nil
	case KindJunk:
		return p.n.m.Deck().Shares(sec, []int{int(p.junk)})
	}
	return nil, fmt.Errorf("table: internal error: no body for %v", kind)
}

func (p *Peer) shares(sec *deck.Secret, slots []engine.Slot) ([]byte, error) {
	if len(slots) == 0 {
		return nil, nil // nothing due: an empty body
	}
	slots = sortedSlots(slots)
	pos := make([]int, len(slots))
	for i, s := range slots {
		pos[i] = int(s)
	}
	b, err := p.n.m.Deck().Shares(sec, pos)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// speaker is how this seat speaks: what the loop asks of it when this seat
// must send and at each turn of the loop. The honest speaker says what
// protocol.md says; a cheater (cheat.go) wraps it, as etcd's raft keeps its
// faults in rafttest, so that the honest path reads as the protocol does.
type speaker interface {
	// body is the body of this seat's next message of kind.
	body(kind Kind) ([]byte, error)
	// moveBody is the body of the move the mover chose.
	moveBody(sec *deck.Secret, c choice) ([]byte, error)
	// state is the state hash this seat signs in its message of kind.
	state(kind Kind, step uint32) [32]byte
	// send sends this seat's envelope to the others.
	send(ctx context.Context, env *Envelope) error
	// turn is called at each turn of the loop (speaking: this seat is to
	// speak).
	turn(ctx context.Context, speaking bool)
	// withholds reports whether this seat stops before it sends kind.
	withholds(kind Kind) bool
}

// honest is the speaker that follows the protocol.
type honest struct{ p *Peer }

func (h honest) body(kind Kind) ([]byte, error) { return h.p.build(kind) }

func (h honest) moveBody(sec *deck.Secret, c choice) ([]byte, error) { return h.p.buildMove(sec, c) }

func (h honest) state(_ Kind, step uint32) [32]byte { return h.p.n.m.StateHashAt(step) }

func (h honest) send(ctx context.Context, env *Envelope) error {
	return h.p.c.Transport.Broadcast(ctx, env.Raw)
}

func (h honest) turn(context.Context, bool) {}

func (h honest) withholds(Kind) bool { return false }

// choice is a mover's answer: a move of the classic game or of Okey 101.
type choice struct {
	a    engine.Action
	a101 engine.Action101
	err  error
}

// choose returns the call that asks the mover for this seat's move, on
// copies of the hand (or the 101 round) and of the view: the mover may run
// beside the loop, which goes on changing its own.
func (p *Peer) choose() func() choice {
	v := *p.view
	if mt := p.n.m.Match101(); mt != nil {
		g := mt.Clone().Game()
		mv, ok := p.c.Mover.(Mover101)
		seat := p.c.Seat
		return func() choice {
			if !ok {
				return choice{err: fmt.Errorf("table: the mover of seat %d does not play Okey 101", seat)}
			}
			a, err := mv.Move101(g, &v)
			return choice{a101: a, err: err}
		}
	}
	h := p.n.m.Match().Clone().Hand()
	mover := p.c.Mover
	return func() choice {
		a, err := mover.Move(h, &v)
		return choice{a: a, err: err}
	}
}

// move asks the mover (and waits) and builds the move's body.
func (p *Peer) move(sec *deck.Secret) ([]byte, error) {
	return p.say.moveBody(sec, p.choose()())
}

// buildMove builds the body of the mover's choice, with this seat's shares
// of the tiles it opens.
func (p *Peer) buildMove(sec *deck.Secret, c choice) ([]byte, error) {
	if c.err != nil {
		return nil, c.err
	}
	if p.n.m.Match101() != nil {
		return p.move101(sec, c.a101)
	}
	h := p.n.m.Match().Hand()
	a := c.a
	b := moveBody{Action: a.Kind, Slot: engine.NoSlot}
	var open []engine.Slot
	switch a.Kind {
	case engine.ActDiscard, engine.ActShow:
		b.Slot = a.Slot
		open = []engine.Slot{a.Slot}
	case engine.ActWin:
		b.Slot = a.Slot
		open = h.Rack(p.c.Seat)
		if a.Slot != engine.NoSlot && !slotIn(open, a.Slot) {
			open = append(open, a.Slot)
			sortSlots(open)
		}
	}
	if len(open) > 0 {
		sh, err := p.shares(sec, open)
		if err != nil {
			return nil, err
		}
		b.Shares = sh
	}
	return b.encode(), nil
}

func (p *Peer) move101(sec *deck.Secret, a engine.Action101) ([]byte, error) {
	b, err := body101(a)
	if err != nil {
		return nil, err
	}
	if open := b.slots(); len(open) > 0 {
		if b.shares, err = p.shares(sec, open); err != nil {
			return nil, err
		}
	}
	return b.encode(), nil
}

// moved sends the move the mover chose.
func (p *Peer) moved(ctx context.Context, c choice) error {
	sec, err := p.secretFor()
	if err != nil {
		return err
	}
	body, err := p.say.moveBody(sec, c)
	if err != nil {
		return err
	}
	return p.propose(ctx, KindMove, body)
}

// speak builds this seat's next envelope, has the node check it, saves and
// sends it, and applies it. With junk in its rack the seat sends a junk
// claim in place of it.
func (p *Peer) speak(ctx context.Context, kind Kind) error {
	if p.junk != engine.NoSlot && p.n.m.junkAllowed() {
		kind = KindJunk
	}
	start := time.Now()
	body, err := p.body(kind)
	if err != nil {
		return err
	}
	if isCrypto(kind) {
		p.crypto += time.Since(start)
	}
	return p.propose(ctx, kind, body)
}

// propose seals body as this seat's next envelope of kind, hands it to the
// node (which checks it), saves it, sends it and applies it.
func (p *Peer) propose(ctx context.Context, kind Kind, body []byte) error {
	m := p.n.m
	step := m.Step()
	if s, _, ok := m.SpeakAt(p.c.Seat); ok {
		step = s // a later place in a parallel round (protocol.md 5.3)
	}
	env := &Envelope{Version: m.ProtocolVersion(), Table: p.c.Table.ID, Hand: m.HandNumber(), Step: step, Seat: uint8(p.c.Seat),
		Kind: kind, Prev: m.Prev(), State: p.say.state(kind, step), Body: body}
	if err := env.Seal(p.c.Key, m.cfgHash); err != nil {
		return err
	}
	if err := p.n.Propose(env); err != nil {
		return err
	}
	// Save before sending: what we said, we must say again after a crash.
	// A message for a later place in a parallel round is saved when its
	// step is applied: it is a function of the state before the round and
	// the saved seed, so a restarted seat sends the very same bytes (5.7).
	if env.Step == m.Step() {
		if err := p.c.Store.Append(RecEnvelope, env.Raw); err != nil {
			return err
		}
	}
	if err := p.say.send(ctx, env); err != nil {
		return err
	}
	hand := m.HandNumber()
	start := time.Now()
	p.giveTicks() // building and proving took time: progress is now
	err := p.n.Advance(ready{Apply: env, Own: true})
	if isCrypto(kind) {
		p.crypto += time.Since(start)
	}
	if err != nil {
		return err
	}
	if err := p.applied(hand); err != nil {
		return err
	}
	p.log.Debug("sent", "step", env.Step, "kind", kind)
	return nil
}

// take has the node apply a received envelope it chose, and saves it
// (lazily: one lost in a crash is sent again by the others). One the rules
// refuse is not saved: the node ends the match on it.
// giveTicks gives the node every tick period that has passed since the
// last. A ticker drops ticks while the loop is busy (a shuffle's proofs),
// but the node's logical time must keep up with the clock: its fork budget
// and its fetches' deadlines are in ticks, and the progress it records
// (what the stall and withhold checks measure from) must be the time the
// work ended, not the time it began.
func (p *Peer) giveTicks() {
	every := p.tickEvery()
	for now := time.Now(); !p.ticked.Add(every).After(now); {
		p.ticked = p.ticked.Add(every)
		p.n.Tick()
	}
}

func (p *Peer) take(rd ready) error {
	step, hand := p.n.m.Step(), p.n.m.HandNumber()
	start := time.Now()
	p.giveTicks()       // checking the proofs took time: progress is now
	_ = p.n.Advance(rd) // a violation ends the match: the next Ready says so
	if isCrypto(rd.Apply.Kind) {
		p.crypto += time.Since(start)
	}
	if p.n.m.Step() == step {
		return nil
	}
	save := p.c.Store.Append
	if l, ok := p.c.Store.(interface{ AppendLazy(byte, []byte) error }); ok {
		save = l.AppendLazy
	}
	if err := save(RecEnvelope, rd.Apply.Raw); err != nil {
		return err
	}
	if err := p.applied(hand); err != nil {
		p.log.Warn("after applying a received message", "err", err)
	}
	return nil
}

// serve answers a fetch with the envelopes this peer applied from the
// requested step on (at most 512), or a fetch-by-hash with the applied
// envelope of that hash (none if it has no such envelope).
func (p *Peer) serve(chain func() ([][]byte, [][32]byte)) func(PeerID, []byte) [][]byte {
	return func(from PeerID, req []byte) [][]byte {
		c, hashes := chain()
		switch {
		case len(req) == len(fetchLabel)+4 && string(req[:len(fetchLabel)]) == fetchLabel:
			step := binary.BigEndian.Uint32(req[len(req)-4:])
			if int(step) >= len(c) {
				return nil
			}
			c = c[step:]
			if len(c) > maxFetchAnswer {
				c = c[:maxFetchAnswer]
			}
			return c
		case len(req) == len(fetchHashLabel)+32 && string(req[:len(fetchHashLabel)]) == fetchHashLabel:
			want := [32]byte(req[len(fetchHashLabel):])
			for i, h := range hashes {
				if h == want && i < len(c) {
					return [][]byte{c[i]}
				}
			}
			return roundOf(c, hashes, want)
		}
		return nil
	}
}

// fetched is the answer to one of the node's fetches.
type fetched struct {
	id     uint64
	frames [][]byte
	err    error
}

// tickEvery is the loop's ticker period: an eighth of the stall interval.
func (p *Peer) tickEvery() time.Duration { return max(p.c.Stall/ticksPerStall, time.Millisecond) }

// ticksPerStall is the number of ticks of one stall interval.
const ticksPerStall = 8

// ticks converts a duration to whole ticks (at least one).
func (p *Peer) ticks(d time.Duration) int {
	t := p.tickEvery()
	return max(1, int((d+t-1)/t))
}

// Run plays until the match ends, a violation aborts it, the seat to speak
// stays silent for the withhold time, or ctx ends. How the match ended is in
// the Result (not an error); an error is this peer's own failure (I/O, ctx,
// a lost seed).
//
// Run is the loop around the node: it starts the fetches the node asks for,
// speaks when the node says this seat must, saves and hands back the
// envelopes the node chose, and otherwise waits for a received message, a
// tick of the clock or a fetch's answer.
func (p *Peer) Run(ctx context.Context) (Result, error) {
	// The lock proofs' tables, while the hellos go round (deck.Prepare).
	go deck.Prepare()
	// The chain is append-only and its records are never changed, so the
	// fetch handler (another goroutine) may read a published prefix of it
	// without a copy: appends write only past the published length. The
	// same holds for the hashes.
	type published struct {
		chain  [][]byte
		hashes [][32]byte
	}
	var snapshot atomic.Pointer[published]
	snap := func() *published {
		n := p.n
		return &published{n.chain[:len(n.chain):len(n.chain)], n.hashes[:len(n.hashes):len(n.hashes)]}
	}
	snapshot.Store(snap())
	current := func() ([][]byte, [][32]byte) {
		c := snapshot.Load()
		return c.chain, c.hashes
	}
	publish := func() { snapshot.Store(snap()) }
	p.c.Transport.Serve(p.serve(current))
	every := p.tickEvery()
	tick := time.NewTicker(every)
	defer tick.Stop()
	p.ticked = time.Now()
	answers := make(chan fetched, 4)
	done := make(chan struct{})
	defer close(done)
	// While this seat's mover thinks (a person may take minutes), the loop
	// goes on reading: another seat's evidence ends the match at once.
	choices := make(chan choice, 1)
	thinking := false
	defer func() {
		if c, ok := p.c.Mover.(MoveCanceler); ok && thinking {
			c.CancelMove()
		}
	}()
	for {
		p.giveTicks()
		rd := p.n.Ready()
		switch {
		case rd.Violation != nil:
			p.recordEvidence(ctx, rd.Violation)
			return Result{Machine: p.n.m, Violation: rd.Violation}, nil
		case rd.Failure != nil:
			publish()
			return Result{Machine: p.n.m, Failure: rd.Failure}, nil
		case rd.Done:
			publish()
			return Result{Machine: p.n.m}, nil
		case rd.Stall != nil:
			s := rd.Stall
			return Result{Machine: p.n.m, Stalled: &Stall{Seat: s.Seat, Kind: s.Kind, Step: s.Step,
				Waited: time.Duration(s.Ticks) * p.tickEvery()}}, nil
		}
		if len(rd.Fetches) > 0 {
			for _, f := range rd.Fetches {
				p.startFetch(ctx, f, answers, done)
			}
			_ = p.n.Advance(ready{Fetches: rd.Fetches})
			continue
		}
		p.say.turn(ctx, rd.Speak != 0)
		switch {
		case rd.Speak == KindMove && !(p.junk != engine.NoSlot && p.n.m.junkAllowed()):
			if !thinking {
				if _, err := p.secretFor(); err != nil {
					return Result{Machine: p.n.m}, err
				}
				thinking = true
				f := p.choose()
				go func() {
					c := f()
					select {
					case choices <- c:
					case <-done:
					}
				}()
			}
		case rd.Speak != 0:
			if p.say.withholds(rd.Speak) {
				// A withholding cheater just stops.
				<-ctx.Done()
				return Result{Machine: p.n.m}, ctx.Err()
			}
			if err := p.speak(ctx, rd.Speak); err != nil {
				var v *Violation
				if errors.As(err, &v) {
					continue
				}
				return Result{Machine: p.n.m}, err
			}
			publish()
			continue
		default:
			if rd.Apply != nil {
				if err := p.take(rd); err != nil {
					return Result{Machine: p.n.m}, err
				}
				publish()
				continue
			}
		}
		select {
		case c := <-choices:
			thinking = false
			if err := p.moved(ctx, c); err != nil {
				var v *Violation
				if errors.As(err, &v) {
					continue
				}
				return Result{Machine: p.n.m}, err
			}
			publish()
		case <-ctx.Done():
			return Result{Machine: p.n.m}, ctx.Err()
		case pkt, ok := <-p.c.Transport.Inbox():
			if !ok {
				return Result{Machine: p.n.m}, ErrClosed
			}
			p.n.Step(pkt.Data)
		case <-tick.C:
			// The ticks are given at the top of the loop.
		case a := <-answers:
			p.n.Fetched(a.id, a.frames, a.err != nil)
		case <-p.links:
			p.n.LinkChanged()
		}
	}
}

// startFetch sends one of the node's fetches in its own goroutine, with the
// node's deadline, and hands the answer to the loop (or drops it when the
// loop has returned).
func (p *Peer) startFetch(ctx context.Context, f fetchReq, answers chan<- fetched, done <-chan struct{}) {
	startFetch(ctx, p.c.Transport, p.c.Table.Seats[f.Seat].ID, time.Duration(f.Within)*p.tickEvery(), f, answers, done)
}

// startFetch sends fetch f to the seat whose peer id is to, within the
// given time, in its own goroutine (a Peer's or a Spectator's loop).
func startFetch(ctx context.Context, t Transport, to PeerID, within time.Duration, f fetchReq, answers chan<- fetched, done <-chan struct{}) {
	go func() {
		fctx, cancel := context.WithTimeout(ctx, within)
		frames, err := t.Fetch(fctx, to, f.Request())
		cancel()
		select {
		case answers <- fetched{id: f.ID, frames: frames, err: err}:
		case <-done:
		}
	}()
}

func sha256Raw(b []byte) [32]byte { return sha256.Sum256(b) }

// recordEvidence appends a violation's evidence to the transcript and sends
// it to the others, so that every honest peer can judge the same proof (a
// split view shows only to some).
func (p *Peer) recordEvidence(ctx context.Context, v *Violation) {
	for _, e := range v.Evidence {
		inChain := false
		for _, c := range p.n.chain {
			if string(c) == string(e) {
				inChain = true
			}
		}
		if !inChain {
			_ = p.c.Store.Append(RecEvidence, e)
		}
		if ctx.Err() == nil {
			_ = p.c.Transport.Broadcast(ctx, e)
		}
	}
}
