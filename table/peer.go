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
	"time"

	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
)

// Mover chooses a seat's moves: a bot strategy or a person at the UI.
type Mover interface {
	Move(h *engine.Hand, v *engine.View) (engine.Action, error)
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
	c       PeerConfig
	m       *Machine
	view    *engine.View
	secret  *deck.Secret
	buf     map[uint32][]*Envelope // early envelopes by step
	bufSize int                    // their bytes (bounded by maxBuffered)
	chain   [][]byte               // raw envelopes applied, by step
	log     *slog.Logger
	rejects int
	cheated bool
	crypto  time.Duration // time spent building and applying cryptographic steps
	// junk is a slot of this seat's rack that opened privately to no tile
	// (engine.NoSlot: none): the next due message is a junk claim for it.
	junk engine.Slot
	// forks are messages that link to a previous message this peer does not
	// have: the peer fetches that message to find who signed two. At most
	// one per (signer, step, previous hash), maxForksPerSigner per signer.
	forks []*Envelope
	// forkNext is when the next batch of fork resolution may start (a batch
	// that used up its budget makes the next wait one stall interval).
	forkNext time.Time
	// mute marks the seats that once failed to produce the predecessor of
	// their own message on a fork: they are not asked again in this match.
	mute []bool
	// hashes holds the hash of every applied envelope, by step (to answer
	// fetch-by-hash requests); append-only like chain.
	hashes [][32]byte
	// stalled is set when the seat to speak sent nothing for the withhold
	// time: the match stops unfinished and no one is named.
	stalled *Stall
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
	p := &Peer{c: c, m: m, view: engine.NewView(c.Seat), buf: map[uint32][]*Envelope{}, log: c.Log,
		junk: engine.NoSlot, mute: make([]bool, len(c.Table.Seats))}
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
		p.log.Info("resumed", "step", p.m.Step(), "hand", p.m.HandNumber())
	}
	return p, nil
}

// Machine returns the peer's protocol state (read it from OnStep or after Run).
func (p *Peer) Machine() *Machine { return p.m }

// View returns the peer's private view.
func (p *Peer) View() *engine.View { return p.view }

// Chain returns the raw envelopes applied so far.
func (p *Peer) Chain() [][]byte { return append([][]byte(nil), p.chain...) }

// applyLocal applies an envelope (own or received) and updates the view.
func (p *Peer) applyLocal(env *Envelope, persist bool) error {
	handBefore := p.m.HandNumber()
	start := time.Now()
	err := p.m.Apply(env)
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
	p.hashes = append(p.hashes, env.Hash())
	p.chain = append(p.chain, env.Raw)
	if p.m.HandNumber() != handBefore || !p.m.Started() {
		p.view = engine.NewView(p.c.Seat)
		p.secret = nil
		p.junk = engine.NoSlot
	}
	if err := p.learn(); err != nil {
		return err
	}
	if p.c.OnStep != nil {
		p.c.OnStep(p.m, p.view)
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
	h := p.m.HandNumber()
	seed, err := p.c.Store.LoadSecret(h)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSeedLost, err)
	}
	key, locked := p.m.Deck().LockKey(p.c.Seat)
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
	s, err := deck.SecretFromSeed(p.m.Session(), h, len(p.c.Table.Seats), p.c.Seat, seed)
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
	g := p.m.game
	if g == nil || p.m.Deck() == nil || !g.playing() {
		return nil
	}
	for _, s := range g.rack(p.c.Seat) {
		if g.viewFace(p.view, s) != engine.NoFace {
			continue
		}
		shares := append([][]byte(nil), p.m.Shares(s)...)
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
		own, err := p.m.Deck().Share(sec, int(s))
		if err != nil {
			return err
		}
		shares[p.c.Seat] = own
		j, err := p.m.Deck().Open(int(s), shares)
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

// body builds this seat's next message body.
func (p *Peer) body(kind Kind) ([]byte, error) {
	m := p.m
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
		return encodeShuffle(cm, p.cheatLock(lock)), nil
	case KindRekey:
		_, op, err := commit.Commit(labelHandRandom, m.Session(), m.HandNumber(), p.c.Seat, seedReader(seed, "dice"))
		if err != nil {
			return nil, err
		}
		rk, _, err := m.Deck().Rekey(sec, seedReader(seed, "rekey"))
		if err != nil {
			return nil, err
		}
		return encodeRekey(p.cheatOpening(op), p.cheatRekey(rk)), nil
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
		return p.m.Deck().Shares(sec, []int{int(p.junk)})
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
	b, err := p.m.Deck().Shares(sec, pos)
	if err != nil {
		return nil, err
	}
	return p.cheatShares(b), nil
}

func (p *Peer) move(sec *deck.Secret) ([]byte, error) {
	if p.m.Match101() != nil {
		return p.move101(sec)
	}
	h := p.m.Match().Hand()
	a, err := p.c.Mover.Move(h, p.view)
	if err != nil {
		return nil, err
	}
	a = p.cheatMove(h, a)
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

func (p *Peer) move101(sec *deck.Secret) ([]byte, error) {
	g := p.m.Match101().Game()
	mv, ok := p.c.Mover.(Mover101)
	if !ok {
		return nil, fmt.Errorf("table: the mover of seat %d does not play Okey 101", p.c.Seat)
	}
	a, err := mv.Move101(g, p.view)
	if err != nil {
		return nil, err
	}
	a = p.cheatMove101(g, a)
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

// speak builds, saves and sends this seat's next envelope, and applies it.
// With junk in its rack the seat sends a junk claim in place of it.
func (p *Peer) speak(ctx context.Context, kind Kind) error {
	if p.junk != engine.NoSlot && p.m.junkAllowed() {
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
	env := &Envelope{Table: p.c.Table.ID, Hand: p.m.HandNumber(), Step: p.m.Step(), Seat: uint8(p.c.Seat),
		Kind: kind, Prev: p.m.Prev(), State: p.cheatState(kind), Body: body}
	if err := env.Seal(p.c.Key, p.m.cfgHash); err != nil {
		return err
	}
	if err := p.m.Check(env); err != nil && !p.c.Cheat.active() {
		return fmt.Errorf("table: internal error: own envelope refused: %w", err)
	}
	if kind == KindMove && !p.c.Cheat.active() {
		// A move is tried on a copy before it is signed away: a mover that
		// chose a move the rules refuse (a bug, or a state it misread) must
		// not get its own seat named. The peer stops instead, and the table
		// stalls with no one named.
		if err := p.m.clone().Apply(env); err != nil {
			return fmt.Errorf("%w: %w", ErrOwnMove, err)
		}
	}
	// Save before sending: what we said, we must say again after a crash.
	if err := p.c.Store.Append(RecEnvelope, env.Raw); err != nil {
		return err
	}
	if !p.splitView(ctx, env) {
		if err := p.c.Transport.Broadcast(ctx, env.Raw); err != nil {
			return err
		}
	}
	p.cheatExtra(ctx, env)
	if err := p.applyLocal(env, false); err != nil {
		return err
	}
	p.log.Debug("sent", "step", env.Step, "kind", kind)
	return nil
}

// Catch-up requests (protocol.md 5.7): the chain from a step on, or the
// one envelope with a given hash.
const (
	fetchLabel     = "okey/fetch/v1"
	fetchHashLabel = "okey/fetch-hash/v1"
	// maxFetchAnswer is the most envelopes one answer carries.
	maxFetchAnswer = 512
	// maxForkDepth bounds how far back a peer follows a fork's links.
	maxForkDepth = 16
	// maxForksPerSigner bounds the forks of one signer waiting to be
	// resolved (one per step and previous hash).
	maxForksPerSigner = 16
)

// fetchRequest asks for the chain from a step on: "okey/fetch/v1" || u32 step.
func fetchRequest(from uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte(fetchLabel), from)
}

// fetchHashRequest asks for the envelope whose SHA-256 is h:
// "okey/fetch-hash/v1" || h.
func fetchHashRequest(h [32]byte) []byte {
	return append([]byte(fetchHashLabel), h[:]...)
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
			return nil
		}
		return nil
	}
}

// Run plays until the match ends, a violation aborts it, the seat to speak
// stays silent for the withhold time, or ctx ends. How the match ended is in
// the Result (not an error); an error is this peer's own failure (I/O, ctx,
// a lost seed).
func (p *Peer) Run(ctx context.Context) (Result, error) {
	// The chain is append-only and its records are never changed, so the
	// fetch handler (another goroutine) may read a published prefix of it
	// without a copy: appends write only past the published length. The
	// same holds for the hashes.
	type published struct {
		chain  [][]byte
		hashes [][32]byte
	}
	snapshot := make(chan published, 1)
	snap := func() published {
		return published{p.chain[:len(p.chain):len(p.chain)], p.hashes[:len(p.hashes):len(p.hashes)]}
	}
	snapshot <- snap()
	current := func() ([][]byte, [][32]byte) {
		c := <-snapshot
		snapshot <- c
		return c.chain, c.hashes
	}
	publish := func() {
		next := snap()
		<-snapshot
		snapshot <- next
	}
	p.c.Transport.Serve(p.serve(current))
	idle := time.Now()  // last progress
	var asked time.Time // last catch-up request
	tick := time.NewTicker(p.c.Stall / 8)
	defer tick.Stop()
	for {
		if v := p.m.Aborted(); v != nil {
			p.recordEvidence(ctx, v)
			return Result{Machine: p.m, Violation: v}, nil
		}
		if f := p.m.Failure(); f != nil {
			publish()
			return Result{Machine: p.m, Failure: f}, nil
		}
		if p.m.Done() {
			publish()
			return Result{Machine: p.m}, nil
		}
		if p.stalled != nil {
			return Result{Machine: p.m, Stalled: p.stalled}, nil
		}
		p.replayOld(ctx)
		if seat, kind := p.m.Expect(); seat == p.c.Seat {
			if p.c.Cheat.withholds(p.m, kind) {
				// A withholding cheater just stops.
				<-ctx.Done()
				return Result{Machine: p.m}, ctx.Err()
			}
			if err := p.speak(ctx, kind); err != nil {
				var v *Violation
				if errors.As(err, &v) {
					continue
				}
				return Result{Machine: p.m}, err
			}
			publish()
			idle = time.Now()
			continue
		}
		p.cheatOutOfTurn(ctx)
		// Apply buffered envelopes for the current step, if any.
		if p.drainBuffer() {
			publish()
			idle = time.Now()
			continue
		}
		if len(p.forks) > 0 && !time.Now().Before(p.forkNext) && p.resolveForks(ctx) {
			continue
		}
		select {
		case <-ctx.Done():
			return Result{Machine: p.m}, ctx.Err()
		case pkt, ok := <-p.c.Transport.Inbox():
			if !ok {
				return Result{Machine: p.m}, ErrClosed
			}
			p.receive(pkt.Data)
		case <-tick.C:
			// A later step's message while this one is missing means this
			// one was lost (each step is sent only after the one before):
			// ask soon. Otherwise wait a whole stall interval first.
			wait := p.c.Stall
			if len(p.buf) > 0 {
				wait = p.c.Stall / 8
			}
			if time.Since(idle) < wait || time.Since(asked) < wait {
				continue
			}
			asked = time.Now()
			if p.catchUp(ctx) {
				continue // drainBuffer applies what came back
			}
			seat, kind := p.m.Expect()
			limit := p.c.Withhold
			if kind == KindMove {
				limit = p.c.MoveWithhold
			}
			if waited := time.Since(idle); waited >= limit {
				p.stalled = &Stall{Seat: seat, Kind: kind, Step: p.m.Step(), Waited: waited}
			}
		}
	}
}

// receive decodes and sorts an incoming envelope: into the buffer, dropped
// as a duplicate, kept as a fork to resolve, or turned into evidence
// against its signer.
func (p *Peer) receive(raw []byte) {
	env, err := DecodeEnvelope(raw)
	if err != nil {
		p.reject("undecodable", err)
		return
	}
	if env.Table != p.c.Table.ID || int(env.Seat) >= len(p.c.Table.Seats) {
		p.reject("other table", ErrWrongTable)
		return
	}
	if err := env.Verify(p.c.Table.Seats[env.Seat].Key, p.m.cfgHash); err != nil {
		p.reject("signature", err)
		return
	}
	step := env.Step
	if step < p.m.Step() {
		if v := p.judgePast(env); v != nil {
			p.m.abort(v)
		}
		return
	}
	if step > p.m.Step()+maxAhead {
		p.reject("far future step", ErrNotNext)
		return
	}
	for _, e := range p.buf[step] {
		if string(e.Raw) == string(env.Raw) {
			return
		}
		if e.Seat == env.Seat {
			// One seat, one message per step of a match: a second one is
			// equivocation even before the step comes.
			p.m.abort(equivocation(e, env))
			return
		}
	}
	if p.bufSize+len(env.Raw) > maxBuffered {
		p.reject("early messages over the buffer's bound", ErrNotNext)
		return // fetched again when its step comes
	}
	p.buf[step] = append(p.buf[step], env)
	p.bufSize += len(env.Raw)
}

// judgePast judges a signed message for a step this peer has applied: an
// exact duplicate is dropped; another message of the same seat is
// equivocation; one of another seat on the same previous message is
// out-of-turn (the state was the same, so the speaker was known); one on
// another previous message is a fork to resolve (no one named yet).
func (p *Peer) judgePast(env *Envelope) *Violation {
	own, err := DecodeEnvelope(p.chain[env.Step])
	if err != nil {
		return nil
	}
	if v := judgeAgainst(own, env); v != nil || string(own.Raw) == string(env.Raw) {
		return v
	}
	p.addFork(env)
	return nil
}

// judgeAgainst compares a signed message with the chain's message for the
// same step (own): nil when it proves nothing.
func judgeAgainst(own, env *Envelope) *Violation {
	switch {
	case string(own.Raw) == string(env.Raw):
		return nil
	case own.Seat == env.Seat:
		return equivocation(own, env)
	case own.Prev == env.Prev:
		return outOfTurn(env, int(own.Seat), own.Kind)
	}
	return nil
}

// addFork keeps a message on another branch to resolve: one per (signer,
// step, previous hash), so that a made-up link sent first never hides a
// real one of the same signer and step, and at most maxForksPerSigner of
// one signer (more are dropped, logged: a real one comes again with
// catch-up).
func (p *Peer) addFork(env *Envelope) {
	n := 0
	for _, f := range p.forks {
		if f.Seat != env.Seat {
			continue
		}
		if f.Step == env.Step && f.Prev == env.Prev {
			return
		}
		n++
	}
	if n >= maxForksPerSigner {
		p.log.Warn("fork dropped: its signer has too many waiting", "seat", env.Seat, "step", env.Step)
		return
	}
	p.forks = append(p.forks, env)
}

// resolveForks follows each fork's links back, fetching the messages they
// name from their signer and then from everyone, until it finds the step
// where the two branches part: two messages signed by one seat for that
// step (equivocation), or a message by a seat that was not to speak there
// (out-of-turn). A fork nobody can explain stays unresolved: the table
// stalls and no one is named. One batch takes at most one stall interval
// in all: when it runs out, the forks left wait, and the next batch starts
// one stall interval later. It reports whether it found a violation.
func (p *Peer) resolveForks(ctx context.Context) bool {
	bctx, cancel := context.WithTimeout(ctx, p.c.Stall)
	defer cancel()
	for len(p.forks) > 0 && bctx.Err() == nil {
		f := p.forks[0]
		p.forks = p.forks[1:]
		if v := p.resolveFork(bctx, f); v != nil {
			p.log.Warn("fork resolved", "seat", v.Seat, "rule", v.Rule, "step", v.Step)
			p.m.abort(v)
			return true
		}
		p.log.Warn("message on another branch, not explained (yet)", "seat", f.Seat, "step", f.Step)
	}
	if bctx.Err() != nil {
		p.forkNext = time.Now().Add(p.c.Stall)
	}
	return false
}

// resolveFork follows one fork's links back (at most maxForkDepth) and
// returns the violation it proves, or nil.
func (p *Peer) resolveFork(ctx context.Context, f *Envelope) *Violation {
	cur := f
	for depth := 0; depth < maxForkDepth && cur.Step > 0; depth++ {
		k := cur.Step - 1
		if int(k) >= len(p.chain) {
			return nil
		}
		if p.hashes[k] == cur.Prev {
			return nil // links here: the branches part later (not a fork of ours)
		}
		prev := p.fetchHash(ctx, cur.Prev, k, cur.Seat)
		if prev == nil {
			return nil // nobody can produce it
		}
		own, err := DecodeEnvelope(p.chain[k])
		if err != nil {
			return nil
		}
		if v := judgeAgainst(own, prev); v != nil {
			return v
		}
		cur = prev
	}
	return nil
}

// fetchHash asks the members, the signer of the message that names h first,
// for the envelope whose hash is h, and returns it if it decodes, is for
// this table, is signed and stands at step. A signer that does not produce
// it before ctx ends is muted: never asked again in this match. Muted
// members are not asked.
func (p *Peer) fetchHash(ctx context.Context, h [32]byte, step uint32, signer uint8) *Envelope {
	order := []int{int(signer)}
	for i := range p.c.Table.Seats {
		if i != int(signer) {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if i == p.c.Seat || p.mute[i] {
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		fctx, cancel := context.WithTimeout(ctx, p.c.Stall)
		frames, err := p.c.Transport.Fetch(fctx, p.c.Table.Seats[i].ID, fetchHashRequest(h))
		cancel()
		if env := p.usable(frames, err, h, step); env != nil {
			return env
		}
		if i == int(signer) {
			p.log.Warn("fork's signer did not produce the message it links to: not asked again", "seat", i)
			p.mute[i] = true
		}
	}
	return nil
}

// usable returns the envelope of a fetch-by-hash answer whose hash is h, if
// it decodes, is for this table, is signed and stands at step.
func (p *Peer) usable(frames [][]byte, err error, h [32]byte, step uint32) *Envelope {
	if err != nil {
		return nil
	}
	for _, raw := range frames {
		if sha256Raw(raw) != h {
			continue
		}
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Table != p.c.Table.ID || int(env.Seat) >= len(p.c.Table.Seats) || env.Step != step {
			continue
		}
		if env.Verify(p.c.Table.Seats[env.Seat].Key, p.m.cfgHash) != nil {
			continue
		}
		return env
	}
	return nil
}

func sha256Raw(b []byte) [32]byte { return sha256.Sum256(b) }

// Bounds of the reorder buffer: how far ahead a message may be, and how
// many bytes of early messages a peer keeps (one message per seat and step
// besides). Dropped messages are fetched again when their step comes.
const (
	maxAhead    = 1024
	maxBuffered = 32 << 20
)

func (p *Peer) reject(why string, err error) {
	p.rejects++
	p.log.Warn("rejected message", "why", why, "err", err)
}

// drainBuffer applies the buffered envelopes for the current step. Of the
// envelopes that link to this chain's last message, the expected speaker's
// is applied; one by another seat is out-of-turn; two by one seat are
// equivocation. One that links elsewhere is a fork to resolve.
func (p *Peer) drainBuffer() bool {
	step := p.m.Step()
	envs := p.buf[step]
	if len(envs) == 0 {
		return false
	}
	delete(p.buf, step)
	for _, e := range envs {
		p.bufSize -= len(e.Raw)
	}
	seat, kind := p.m.Expect()
	prev := p.m.Prev()
	var chosen *Envelope
	for _, e := range envs {
		if int(e.Seat) == seat && e.Prev == prev && chosen == nil {
			chosen = e
		}
	}
	for _, e := range envs {
		if e == chosen {
			continue
		}
		if e.Prev != prev {
			p.addFork(e)
			continue
		}
		if chosen != nil && e.Seat == chosen.Seat {
			p.m.abort(equivocation(chosen, e))
			return true
		}
		p.m.abort(outOfTurn(e, seat, kind))
		return true
	}
	if chosen == nil {
		return false
	}
	if err := p.applyLocal(chosen, true); err != nil {
		p.log.Warn("violation", "err", err)
		// Apply aborted the machine with the violation; Run reports it.
		if p.m.Aborted() == nil {
			p.reject("not applicable", err)
		}
	}
	return true
}

// catchUp asks each other member for the envelopes from the current step on.
func (p *Peer) catchUp(ctx context.Context) bool {
	got := false
	for i, s := range p.c.Table.Seats {
		if i == p.c.Seat {
			continue
		}
		fctx, cancel := context.WithTimeout(ctx, p.c.Stall)
		frames, err := p.c.Transport.Fetch(fctx, s.ID, fetchRequest(p.m.Step()))
		cancel()
		if err != nil {
			continue
		}
		for _, f := range frames {
			before := len(p.buf) + len(p.forks)
			p.receive(f)
			got = got || len(p.buf)+len(p.forks) > before || p.m.Aborted() != nil
		}
		if got {
			return true
		}
	}
	return got
}

// recordEvidence appends a violation's evidence to the transcript and sends
// it to the others, so that every honest peer can judge the same proof (a
// split view shows only to some).
func (p *Peer) recordEvidence(ctx context.Context, v *Violation) {
	for _, e := range v.Evidence {
		inChain := false
		for _, c := range p.chain {
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
