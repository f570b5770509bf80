package table

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
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
}

// CryptoTime returns the time this peer spent on shuffles, re-keys, shares
// and audits (building and checking them).
func (p *Peer) CryptoTime() time.Duration { return p.crypto }

func isCrypto(k Kind) bool { return k != KindHello && k != KindMove }

// Result is how a peer's match ended.
type Result struct {
	Machine   *Machine
	Violation *Violation // nil when the match finished honestly
}

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
	p := &Peer{c: c, m: m, view: engine.NewView(c.Seat), buf: map[uint32][]*Envelope{}, log: c.Log}
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
	p.chain = append(p.chain, env.Raw)
	if p.m.HandNumber() != handBefore || p.m.Match() == nil {
		p.view = engine.NewView(p.c.Seat)
		p.secret = nil
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
// before first use, so a restart regenerates the very same messages).
func (p *Peer) secretFor() (*deck.Secret, error) {
	if p.secret != nil {
		return p.secret, nil
	}
	h := p.m.HandNumber()
	seed, err := p.c.Store.LoadSecret(h)
	if err != nil {
		return nil, err
	}
	if seed == nil {
		seed = make([]byte, seedSize)
		if _, err := io.ReadFull(rand.Reader, seed); err != nil {
			return nil, err
		}
		if err := p.c.Store.SaveSecret(h, seed); err != nil {
			return nil, err
		}
	}
	s, err := deck.SecretFromSeed(p.m.Session(), h, len(p.c.Table.Seats), p.c.Seat, seed)
	if err != nil {
		return nil, err
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
	match := p.m.Match()
	if match == nil || p.m.Deck() == nil {
		return nil
	}
	h := match.Hand()
	if h.Phase() < engine.PhasePlay {
		return nil
	}
	for _, s := range h.Rack(p.c.Seat) {
		if p.view.Face(h, s) != engine.NoFace {
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
		if err != nil {
			// Junk in our own tile: the audit will name the shuffler.
			p.log.Warn("own tile opens to no tile", "slot", s, "err", err)
			continue
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
		if _, err := io.ReadFull(rand.Reader, b.Nonce[:]); err != nil {
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
		return p.shares(sec, m.Match().Hand().Pending())
	case KindDeal:
		return p.shares(sec, m.dealtToOthers(p.c.Seat))
	case KindShare:
		return p.shares(sec, []engine.Slot{m.drawSlot})
	case KindMove:
		return p.move(sec)
	case KindAudit:
		return seed, nil
	}
	return nil, fmt.Errorf("table: internal error: no body for %v", kind)
}

func (p *Peer) shares(sec *deck.Secret, slots []engine.Slot) ([]byte, error) {
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

// speak builds, saves and sends this seat's next envelope, and applies it.
func (p *Peer) speak(ctx context.Context, kind Kind) error {
	start := time.Now()
	body, err := p.body(kind)
	if err != nil {
		return err
	}
	if isCrypto(kind) {
		p.crypto += time.Since(start)
	}
	env := &Envelope{Table: p.c.Table.ID, Hand: p.m.HandNumber(), Step: p.m.Step(), Seat: uint8(p.c.Seat),
		Kind: kind, Prev: p.m.Prev(), State: p.m.StateHash(), Body: body}
	if err := env.Seal(p.c.Key); err != nil {
		return err
	}
	if err := p.m.Check(env); err != nil && !p.c.Cheat.active() {
		return fmt.Errorf("table: internal error: own envelope refused: %w", err)
	}
	// Save before sending: what we said, we must say again after a crash.
	if err := p.c.Store.Append(RecEnvelope, env.Raw); err != nil {
		return err
	}
	if err := p.c.Transport.Broadcast(ctx, env.Raw); err != nil {
		return err
	}
	p.cheatExtra(ctx, env)
	if err := p.applyLocal(env, false); err != nil {
		return err
	}
	p.log.Debug("sent", "step", env.Step, "kind", kind)
	return nil
}

// fetchRequest asks for the chain from a step on: "okey/fetch/v1" || u32 step.
func fetchRequest(from uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte("okey/fetch/v1"), from)
}

// serve answers a fetch with the envelopes this peer applied from the
// requested step on (at most 512).
func (p *Peer) serve(chain func() [][]byte) func(PeerID, []byte) [][]byte {
	return func(from PeerID, req []byte) [][]byte {
		if len(req) != len("okey/fetch/v1")+4 || string(req[:len("okey/fetch/v1")]) != "okey/fetch/v1" {
			return nil
		}
		step := binary.BigEndian.Uint32(req[len(req)-4:])
		c := chain()
		if int(step) >= len(c) {
			return nil
		}
		c = c[step:]
		if len(c) > 512 {
			c = c[:512]
		}
		return c
	}
}

// Run plays until the match ends, a violation aborts it, or ctx ends. A
// violation by another seat returns a Result with it (not an error); an
// error is this peer's own failure (I/O, ctx).
func (p *Peer) Run(ctx context.Context) (Result, error) {
	// The chain is append-only and its records are never changed, so the
	// fetch handler (another goroutine) may read a published prefix of it
	// without a copy: appends write only past the published length.
	snapshot := make(chan [][]byte, 1)
	snapshot <- p.chain[:len(p.chain):len(p.chain)]
	current := func() [][]byte {
		c := <-snapshot
		snapshot <- c
		return c
	}
	publish := func() {
		<-snapshot
		snapshot <- p.chain[:len(p.chain):len(p.chain)]
	}
	p.c.Transport.Serve(p.serve(current))
	idle := time.Now()  // last progress
	var asked time.Time // last catch-up request
	tick := time.NewTicker(p.c.Stall / 8)
	defer tick.Stop()
	for {
		if v := p.m.Aborted(); v != nil {
			p.recordEvidence(v)
			return Result{Machine: p.m, Violation: v}, nil
		}
		if p.m.Done() {
			publish()
			return Result{Machine: p.m}, nil
		}
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
				v := &Violation{Seat: seat, Step: p.m.Step(), Rule: "withhold",
					Err: fmt.Errorf("seat %d sent no %v for %v", seat, kind, waited.Round(time.Millisecond))}
				p.m.abort(v)
			}
		}
	}
}

// receive decodes and sorts an incoming envelope: into the buffer, dropped
// as a duplicate, or turned into evidence against its signer.
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
	if err := env.Verify(p.c.Table.Seats[env.Seat].Key); err != nil {
		p.reject("signature", err)
		return
	}
	step := env.Step
	if step < p.m.Step() {
		prev, _ := DecodeEnvelope(p.chain[step])
		if string(prev.Raw) == string(env.Raw) {
			return // exact duplicate
		}
		rule := "out-of-turn"
		if prev.Seat == env.Seat {
			rule = "equivocation"
		}
		p.m.abort(&Violation{Seat: int(env.Seat), Step: step, Rule: rule,
			Err:      fmt.Errorf("a second message for step %d", step),
			Evidence: [][]byte{prev.Raw, env.Raw}})
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
			// One seat, one message per step: a second one is
			// equivocation even before the step comes.
			p.m.abort(&Violation{Seat: int(env.Seat), Step: step, Rule: "equivocation",
				Err:      fmt.Errorf("two messages for step %d", step),
				Evidence: [][]byte{e.Raw, env.Raw}})
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

// drainBuffer applies the buffered envelopes for the current step. Two
// different envelopes for one step: the expected speaker's is applied; the
// other is evidence of equivocation (same signer) or out-of-turn play.
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
	seat, _ := p.m.Expect()
	var chosen *Envelope
	for _, e := range envs {
		if int(e.Seat) == seat && chosen == nil {
			chosen = e
		}
	}
	for _, e := range envs {
		if e == chosen {
			continue
		}
		rule := "out-of-turn"
		ev := [][]byte{e.Raw}
		if chosen != nil && e.Seat == chosen.Seat {
			rule = "equivocation"
			ev = [][]byte{chosen.Raw, e.Raw}
		}
		p.m.abort(&Violation{Seat: int(e.Seat), Step: step, Rule: rule,
			Err: fmt.Errorf("seat %d sent a %v for step %d", e.Seat, e.Kind, step), Evidence: ev})
		return true
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
			before := len(p.buf)
			p.receive(f)
			got = got || len(p.buf) > before
		}
		if got {
			return true
		}
	}
	return got
}

// recordEvidence appends a violation's evidence to the transcript.
func (p *Peer) recordEvidence(v *Violation) {
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
	}
}
