package table

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/engine"
)

// Labels for the table's commit-reveal randomness (protocol.md 5.4).
const (
	labelHandRandom = "okey/v1/table/hand-random"
	labelDealer     = "okey/v1/table/dealer"
	labelDie        = "okey/v1/table/die/"
	labelSession    = "okey/v1/table/session"
	labelState      = "okey/v1/table/state"
	labelRound      = "okey/v2/table/round"
)

// phase is where the protocol is; with the expected seat it says who must
// send what next.
type phase uint8

const (
	phHello phase = iota + 1
	phShuffle
	phRekey
	phOpen  // shares for the engine's pending slots
	phDeal  // shares for the other seats' dealt tiles
	phMove  // the turn seat's move
	phShare // shares that open a drawn tile to its drawer
	phAudit
	phDone
	phAborted
)

var phaseKinds = map[phase]Kind{phHello: KindHello, phShuffle: KindShuffle, phRekey: KindRekey, phOpen: KindOpen,
	phDeal: KindDeal, phMove: KindMove, phShare: KindShare, phAudit: KindAudit}

// Errors for envelopes that are not this step's (no blame by themselves).
var (
	ErrNotNext    = errors.New("table: not the next step")
	ErrWrongTable = errors.New("table: envelope for another table or hand")
	ErrFinished   = errors.New("table: the match is over")
	ErrFork       = errors.New("table: message builds on another chain")
	// ErrVersion: an envelope of another table protocol version than the
	// match's (protocol.md 5.2, check 1): dropped, no one named.
	ErrVersion = errors.New("table: envelope of another table protocol version")
)

// Machine is the table protocol's deterministic state: every peer, and the
// offline verifier, applies the same envelopes in the same order and gets
// the same state. It holds only public information.
type Machine struct {
	cfg     Config
	cfgHash [32]byte
	n       int
	rules   engine.Ruleset
	rand    io.Reader // weights for batch verification (crypto/rand when nil)
	// version is the table protocol's (Version, or Version1 to verify what
	// an earlier okey wrote): from Version on, the open, deal, share and
	// audit rounds are parallel (protocol.md 5.3).
	version uint8

	step uint32
	// prev is the link the next envelope carries (protocol.md 5.2): the
	// hash of the last envelope, or, in a parallel round, the round's
	// anchor (the link its first message carried) until the round is
	// complete, then the round's link over every message of it.
	prev [32]byte
	// round holds the hashes of the current parallel round's envelopes, in
	// chain order.
	round [][32]byte
	// junkPending: a junk claim in a parallel round opened to no tile; the
	// audit round follows once the round is complete.
	junkPending bool
	hand        uint32
	phase       phase
	at          int // seat expected to speak (index into the phase's order)

	nonces   [][]byte
	session  []byte
	commits  [][]byte
	openings [][]byte
	dieCount int
	deck     *deck.Hand
	game     game                      // the rules engine (nil before the first hand's randomness)
	shares   [engine.DeckSize][][]byte // public key shares per slot and seat
	// sharesOwn marks the slots whose share list this machine may write in
	// place; clone clears it on both sides (copy on write).
	sharesOwn [engine.DeckSize]bool
	drawSlot  engine.Slot
	drawSeat  int
	seeds     [][]byte
	tiles     []int // the audited deck: tile index per slot
	abortErr  *Violation
	failure   *Failure
	junkSlot  engine.Slot          // the slot a junk claim opened to no tile (NoSlot: none)
	failHook  func(*Machine) error // tests only: an error nobody caused, from advance
	// noLockProofs (tests of the later defences only) skips the shuffle
	// proof check, so that junk can enter a deck.
	noLockProofs bool
	// proofs, when set (offline verification only: verify.go), receives
	// every hand's lock and re-key proofs to be checked in one batch
	// instead of one message at a time (deck.DeferProofs).
	proofs *deck.ProofBatch
	// tileSeeds, with proofs set, holds each hand's seeds as its audit
	// round reveals them later in the transcript (verify.go): a hand whose
	// seeds are all there opens its public tiles by hint
	// (deck.HintTiles), checked in the batch.
	tileSeeds map[uint32][][]byte
	log       []HandLog
}

// HandLog is what the machine records of each finished hand.
type HandLog struct {
	Hand   uint32
	Result engine.HandResult // the classic family's result
	// Result101 is an Okey 101 round's result (nil in the classic family).
	Result101 *engine.Result101
	// Opened101 is how each seat had opened when an Okey 101 round ended
	// (nil in the classic family).
	Opened101 []engine.Opened
	Scores    []int
	Tiles     []int // slot -> tile index, from the audit
}

// NewMachine returns the machine at step 0 for a validated config.
func NewMachine(cfg Config, rand io.Reader) (*Machine, error) {
	return NewMachineVersion(cfg, rand, Version)
}

// NewMachineVersion returns the machine of a given table protocol version
// (Version, or Version1: what an earlier okey wrote, for verify).
func NewMachineVersion(cfg Config, rand io.Reader, version uint8) (*Machine, error) {
	if version != Version && version != Version1 {
		return nil, fmt.Errorf("%w: %d", ErrVersion, version)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Machine{cfg: cfg, cfgHash: cfg.Hash(), n: len(cfg.Seats), rules: cfg.Rules(), rand: rand, phase: phHello, version: version}
	m.resetHand()
	return m, nil
}

func (m *Machine) resetHand() {
	m.commits = make([][]byte, m.n)
	m.openings = make([][]byte, m.n)
	m.seeds = make([][]byte, m.n)
	for i := range m.shares {
		m.shares[i] = make([][]byte, m.n)
		m.sharesOwn[i] = true
	}
	m.dieCount = 0
	m.drawSlot = engine.NoSlot
	m.drawSeat = -1
	m.junkSlot = engine.NoSlot
	m.junkPending = false
	m.tiles = nil
}

// ProtocolVersion returns the table protocol version the machine follows.
func (m *Machine) ProtocolVersion() uint8 { return m.version }

// parallel reports whether the current round is parallel (protocol.md 5.3):
// from Version 2 on, every speaker of an open, deal, draw-share or audit
// round answers the round's anchor at once, each at the step of its place
// in the round's order.
func (m *Machine) parallel() bool {
	if m.version < Version {
		return false
	}
	switch m.phase {
	case phOpen, phDeal, phShare, phAudit:
		return true
	}
	return false
}

// roundOrder is the current round's speakers in order.
func (m *Machine) roundOrder() []int {
	if m.phase == phShare {
		return m.shareOrder()
	}
	out := make([]int, m.n)
	for i := range out {
		out[i] = i
	}
	return out
}

// SpeakAt returns the step at which seat speaks next and the kind it
// sends, when it may sign that message now: at the current step when it is
// the seat to speak, or, in a parallel round, at its place in the round
// whatever the messages before it (ok false: not its turn).
func (m *Machine) SpeakAt(seat int) (step uint32, kind Kind, ok bool) {
	if m.Done() {
		return 0, 0, false
	}
	if m.parallel() {
		for i, s := range m.roundOrder() {
			if s == seat && i >= m.at {
				return m.step + uint32(i-m.at), phaseKinds[m.phase], true
			}
		}
		return 0, 0, false
	}
	if s, k := m.Expect(); s == seat {
		return m.step, k, true
	}
	return 0, 0, false
}

// StateHashAt is the state hash of the message at step, a step of the
// current parallel round (SpeakAt): the round changes no state that the
// hash covers but the step and the position (protocol.md 5.6).
func (m *Machine) StateHashAt(step uint32) [32]byte {
	return sha256.Sum256(m.statePreimageAt(step))
}

func (m *Machine) statePreimageAt(step uint32) []byte {
	if step == m.step || !m.parallel() {
		return m.StatePreimage()
	}
	c := *m
	c.at += int(step - m.step)
	c.step = step
	return c.StatePreimage()
}

// roundLink is the link after a parallel round (protocol.md 5.2): the hash
// of its one envelope, or SHA-256(labelRound || the envelopes' hashes in
// chain order).
func roundLink(hashes [][32]byte) [32]byte {
	if len(hashes) == 1 {
		return hashes[0]
	}
	h := sha256.New()
	h.Write([]byte(labelRound))
	for _, x := range hashes {
		h.Write(x[:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Config returns the table config.
func (m *Machine) Config() Config { return m.cfg }

// Step returns the number of envelopes applied.
func (m *Machine) Step() uint32 { return m.step }

// HandNumber returns the current hand number.
func (m *Machine) HandNumber() uint32 { return m.hand }

// Prev returns the hash of the last applied envelope.
func (m *Machine) Prev() [32]byte { return m.prev }

// Session returns the session id (nil before every Hello is in).
func (m *Machine) Session() []byte { return m.session }

// Match returns the classic family's engine state (nil before the first
// hand's randomness, and for Okey 101: see Match101).
func (m *Machine) Match() *engine.Match {
	if g, ok := m.game.(*classicGame); ok {
		return g.m
	}
	return nil
}

// Match101 returns the Okey 101 engine state (nil before the first hand's
// randomness, and for the classic family: see Match).
func (m *Machine) Match101() *engine.Match101 {
	if g, ok := m.game.(*game101); ok {
		return g.m
	}
	return nil
}

// Started reports whether the match's engine exists (the first hand's
// randomness is in).
func (m *Machine) Started() bool { return m.game != nil }

// Ranking returns the seats best first (nil before the match starts).
func (m *Machine) Ranking() []engine.Standing {
	if m.game == nil {
		return nil
	}
	return m.game.ranking()
}

// Scores returns each seat's total so far (nil before the match starts).
func (m *Machine) Scores() []int {
	if m.game == nil {
		return nil
	}
	return m.game.scores()
}

// Deck returns the current hand's crypto state.
func (m *Machine) Deck() *deck.Hand { return m.deck }

// Done reports whether the match is over (finished or aborted).
func (m *Machine) Done() bool { return m.phase == phDone || m.phase == phAborted }

// Aborted returns the violation that ended the match, if any.
func (m *Machine) Aborted() *Violation { return m.abortErr }

// Hands returns the log of finished hands.
func (m *Machine) Hands() []HandLog { return append([]HandLog(nil), m.log...) }

// Shares returns the public shares of a slot, per seat (nil where unknown).
func (m *Machine) Shares(s engine.Slot) [][]byte { return m.shares[s] }

// Expect returns the seat that must send the next envelope and its kind;
// seat -1 when the match is over.
func (m *Machine) Expect() (seat int, kind Kind) {
	switch m.phase {
	case phDone, phAborted:
		return -1, 0
	case phMove:
		return m.game.need().Seat, KindMove
	case phShare:
		return m.shareOrder()[m.at], KindShare
	}
	return m.at, phaseKinds[m.phase]
}

// shareOrder is the seats that open a drawn tile: all but the drawer.
func (m *Machine) shareOrder() []int {
	var out []int
	for s := 0; s < m.n; s++ {
		if s != m.drawSeat {
			out = append(out, s)
		}
	}
	return out
}

// StateHash is the hash every sender puts in its envelope: the table's
// step, phase and expected seat, and the engine's public state.
func (m *Machine) StateHash() [32]byte { return sha256.Sum256(m.StatePreimage()) }

// StatePreimage returns the bytes StateHash hashes (protocol.md 5.6), for
// test vectors and for debugging a divergence byte by byte.
func (m *Machine) StatePreimage() []byte {
	b := []byte(labelState)
	b = binary.BigEndian.AppendUint32(b, m.step)
	b = binary.BigEndian.AppendUint32(b, m.hand)
	b = append(b, byte(m.phase), byte(m.at))
	if m.game != nil {
		b = m.game.appendState(b)
	}
	return b
}

// Check verifies that env is the next envelope: table, signature, step,
// chain link, sender, kind, hand and state hash. It does not look at the
// body. Errors before the link check name no one (anybody can send bytes
// that do not verify, and an old message may arrive late); a message that
// links to another previous message is a *ForkError, which names no one by
// itself (protocol.md 5.2: the peer fetches the other message to find out
// who signed two). Only a signed message that links to this chain's last
// message, for this step, makes a *Violation.
func (m *Machine) Check(env *Envelope) error {
	if m.Done() {
		return ErrFinished
	}
	if env.Version != m.version {
		return fmt.Errorf("%w: version %d, the table speaks %d", ErrVersion, env.Version, m.version)
	}
	if env.Table != m.cfg.ID {
		return fmt.Errorf("%w: table %x", ErrWrongTable, env.Table)
	}
	if int(env.Seat) >= m.n {
		return fmt.Errorf("%w: seat %d", ErrMalformed, env.Seat)
	}
	if err := env.Verify(m.cfg.Seats[env.Seat].Key, m.cfgHash); err != nil {
		return err
	}
	if env.Step != m.step {
		return fmt.Errorf("%w: step %d, at %d", ErrNotNext, env.Step, m.step)
	}
	if env.Prev != m.prev {
		return &ForkError{Env: env}
	}
	// From here the sender signed a message for this step of this chain:
	// mistakes are its own.
	seat, kind := m.Expect()
	if int(env.Seat) != seat {
		return outOfTurn(env, seat, kind)
	}
	if env.Kind != kind && !(env.Kind == KindJunk && m.junkAllowed()) {
		return violation(env, RuleWrongMessage, fmt.Errorf("sent %v, expected %v", env.Kind, kind))
	}
	if env.Hand != m.hand {
		return violation(env, RuleReplay, fmt.Errorf("%w: hand %d, at hand %d", ErrWrongTable, env.Hand, m.hand))
	}
	if env.State != m.StateHash() {
		return violation(env, RuleStateDivergence, fmt.Errorf("state hash %x differs from %x", env.State[:6], m.StateHash()))
	}
	return nil
}

// checkAhead checks env as its seat's message for a later step of the
// current parallel round (SpeakAt): what Check checks, against that step's
// place. Only this seat's own messages are checked so before their step
// (a received one waits in the buffer for its step and Check).
func (m *Machine) checkAhead(env *Envelope) error {
	step, kind, ok := m.SpeakAt(int(env.Seat))
	if !ok || env.Step != step || step == m.step {
		return fmt.Errorf("%w: step %d, at %d", ErrNotNext, env.Step, m.step)
	}
	if env.Version != m.version || env.Table != m.cfg.ID || env.Prev != m.prev || env.Hand != m.hand {
		return fmt.Errorf("%w: version, table, link or hand", ErrMalformed)
	}
	if err := env.Verify(m.cfg.Seats[env.Seat].Key, m.cfgHash); err != nil {
		return err
	}
	if env.Kind != kind && !(env.Kind == KindJunk && m.junkAllowed()) {
		return fmt.Errorf("%w: sent %v, expected %v", ErrMalformed, env.Kind, kind)
	}
	if env.State != m.StateHashAt(step) {
		return fmt.Errorf("%w: state hash", ErrMalformed)
	}
	return nil
}

// ForkError is returned by Check for a message of the current step that
// links to a previous message other than this chain's last: either the
// sender is on another branch because some seat signed two messages for one
// step (a split view), or the sender linked to a made-up hash. It names no
// one: Peer fetches the message the link names (protocol.md 5.7) to find
// the seat that signed two.
type ForkError struct {
	Env *Envelope
}

func (e *ForkError) Error() string {
	return fmt.Sprintf("table: seat %d's message for step %d builds on a message this peer does not have (%x)",
		e.Env.Seat, e.Env.Step, e.Env.Prev[:6])
}

// Is reports whether target is ErrFork.
func (e *ForkError) Is(target error) bool { return target == ErrFork }

// Failure is an error nobody caused: the rules cannot go on (no tile left
// to turn up, an order-draw tie that empties the stock, an internal error).
// The match stops unfinished and no seat is named.
type Failure struct {
	Step uint32
	Err  error
}

func (f *Failure) Error() string {
	return fmt.Sprintf("table: the match cannot go on after step %d: %v", f.Step, f.Err)
}

func (f *Failure) Unwrap() error { return f.Err }

// noFault marks an error that no seat caused (Apply turns it into a Failure).
type noFault struct{ err error }

func (e noFault) Error() string { return e.err.Error() }
func (e noFault) Unwrap() error { return e.err }

// nobody wraps err, if any, as an error that no seat caused.
func nobody(err error) error {
	if err == nil {
		return nil
	}
	var v *Violation
	if errors.As(err, &v) {
		return err
	}
	return noFault{err}
}

// junkAllowed reports whether the seat to speak may send a junk claim in
// place of its due message: in a hand's deal, play and draw-share rounds,
// where tiles have been opened privately.
func (m *Machine) junkAllowed() bool {
	return m.game != nil && (m.phase == phDeal || m.phase == phMove || m.phase == phShare)
}

// Apply checks env (Check) and applies its body. On error nothing changes;
// a *Violation blames the sender (or, after an audit, the seat the audit
// names). A Violation in the body aborts the match: the machine keeps it
// (Aborted) and refuses further envelopes. A message after which the rules
// cannot go on through nobody's fault is applied, and the match stops with
// a *Failure (Failure) and no one named.
func (m *Machine) Apply(env *Envelope) error {
	if err := m.Check(env); err != nil {
		var vi *Violation
		if errors.As(err, &vi) {
			m.abort(vi)
		}
		return err
	}
	c := m.clone()
	par, ph, hand := m.parallel(), m.phase, m.hand
	if err := c.applyBody(env); err != nil {
		var nf noFault
		if errors.As(err, &nf) {
			c.failure = &Failure{Step: env.Step, Err: nf.err}
			c.phase = phAborted
		} else {
			vi := asViolation(env, err)
			if len(vi.Evidence) == 0 {
				vi.Evidence = [][]byte{env.Raw}
			}
			m.abort(vi)
			return vi
		}
	}
	c.step++
	if par {
		c.round = append(c.round, env.Hash())
		if c.phase != ph || c.at == 0 || c.hand != hand {
			c.prev = roundLink(c.round)
			c.round = nil
		}
	} else {
		c.prev = env.Hash()
	}
	*m = *c
	return nil
}

// Failure returns the error nobody caused that stopped the match, if any.
func (m *Machine) Failure() *Failure { return m.failure }

func (m *Machine) abort(v *Violation) {
	m.phase = phAborted
	m.abortErr = v
}

func (m *Machine) clone() *Machine {
	c := *m
	// nonces and log are only ever appended to: c shares m's elements and
	// copies them on its first append (capacity cut to the length), so a
	// step that fails leaves m's untouched.
	c.nonces = m.nonces[:len(m.nonces):len(m.nonces)]
	c.commits = append([][]byte(nil), m.commits...)
	c.openings = append([][]byte(nil), m.openings...)
	c.seeds = append([][]byte(nil), m.seeds...)
	m.sharesOwn = [engine.DeckSize]bool{}
	c.sharesOwn = m.sharesOwn
	c.log = m.log[:len(m.log):len(m.log)]
	if m.game != nil {
		c.game = m.game.clone()
	}
	return &c
}

func (m *Machine) applyBody(env *Envelope) error {
	seat := int(env.Seat)
	if env.Kind == KindJunk {
		if !m.parallel() {
			return m.applyJunk(env)
		}
		// In a parallel round the others answered the same anchor: the
		// round completes, then the audit round follows (5.3).
		ph, at := m.phase, m.at
		if err := m.applyJunk(env); err != nil {
			return err
		}
		m.phase, m.at, m.junkPending = ph, at, true
		if m.phase == phShare {
			return m.endShare()
		}
		return m.endDeal()
	}
	switch m.phase {
	case phHello:
		b, err := decodeHello(env.Body)
		if err != nil {
			return err
		}
		if b.ConfigHash != m.cfgHash {
			return fmt.Errorf("%w: hello for another config", ErrMalformed)
		}
		m.nonces = append(m.nonces, b.Nonce[:])
		if m.at++; m.at == m.n {
			h := sha256.New()
			h.Write([]byte(labelSession))
			h.Write(m.cfgHash[:])
			for _, nce := range m.nonces {
				h.Write(nce)
			}
			m.session = h.Sum(nil)
			return nobody(m.startHand())
		}
		return nil
	case phShuffle:
		cm, lock, err := decodeShuffle(env.Body)
		if err != nil {
			return err
		}
		d, err := m.deck.ApplyLock(seat, lock)
		if err != nil {
			return err
		}
		m.commits[seat] = append([]byte(nil), cm...)
		seats := make([]int, seat+1)
		for i := range seats {
			seats[i] = i
		}
		if err := commit.CheckDistinct(seats, m.commits[:seat+1]); err != nil {
			return err
		}
		m.deck = d
		if m.at++; m.at == m.n {
			m.phase, m.at = phRekey, 0
		}
		return nil
	case phRekey:
		op, rk, err := decodeRekey(env.Body)
		if err != nil {
			return err
		}
		if err := commit.Check(labelHandRandom, m.session, m.hand, seat, m.commits[seat], op); err != nil {
			return err
		}
		d, err := m.deck.ApplyRekey(seat, rk, m.rand)
		if err != nil {
			return err
		}
		m.deck = d
		m.openings[seat] = append([]byte(nil), op...)
		if m.at++; m.at < m.n {
			return nil
		}
		if m.game == nil {
			v, err := commit.Combine(labelDealer, m.session, m.hand, m.openings)
			if err != nil {
				return nobody(err)
			}
			dealer, _ := commit.Choice(v, m.n)
			if m.game, err = newGame(m.rules, m.n, dealer); err != nil {
				return nobody(err)
			}
		}
		return nobody(m.advance())
	case phOpen:
		pending := m.game.need().Slots
		if err := m.takeShares(seat, env.Body, m.openFor(seat)); err != nil {
			return err
		}
		if m.at++; m.at < m.n {
			return nil
		}
		var faces []engine.SlotFace
		for _, s := range pending {
			f, err := m.openPublic(s)
			if errors.Is(err, errJunkFound) {
				return nil // the audit phase takes over
			}
			if err != nil {
				return nobody(err)
			}
			faces = append(faces, engine.SlotFace{Slot: s, Face: f})
		}
		if err := m.game.reveal(faces); err != nil {
			return nobody(err)
		}
		return nobody(m.advance())
	case phDeal:
		if err := m.takeShares(seat, env.Body, m.dealtToOthers(seat)); err != nil {
			return err
		}
		return m.endDeal()
	case phShare:
		if err := m.takeShares(seat, env.Body, []engine.Slot{m.drawSlot}); err != nil {
			return err
		}
		return m.endShare()
	case phMove:
		return m.applyMove(seat, env.Body)
	case phAudit:
		if len(env.Body) != seedSize {
			return fmt.Errorf("%w: audit body of %d bytes", ErrMalformed, len(env.Body))
		}
		m.seeds[seat] = append([]byte(nil), env.Body...)
		if m.at++; m.at < m.n {
			return nil
		}
		return m.finishAudit()
	}
	return fmt.Errorf("%w: phase %d", ErrFinished, m.phase)
}

// endDeal counts a deal round's message; after the last, play begins, or,
// after a junk claim in the round, the audit round.
func (m *Machine) endDeal() error {
	if m.at++; m.at == m.n {
		m.phase, m.at = phMove, 0
		m.auditIfJunk()
	}
	return nil
}

// endShare counts a draw-share round's message; after the last, the
// drawer's turn goes on, or, after a junk claim in the round, the audit
// round follows.
func (m *Machine) endShare() error {
	if m.at++; m.at == m.n-1 {
		m.phase, m.at = phMove, 0
		m.drawSlot, m.drawSeat = engine.NoSlot, -1
		m.auditIfJunk()
	}
	return nil
}

func (m *Machine) auditIfJunk() {
	if m.junkPending {
		m.phase, m.at, m.junkPending = phAudit, 0, false
	}
}

// takeShares checks a share list from seat: exactly the slots want, each
// share matching the seat's public point; then records them.
func (m *Machine) takeShares(seat int, body []byte, want []engine.Slot) error {
	if len(want) == 0 {
		// Nothing of this seat's is missing (an Okey 101 round-end reveal):
		// the body is empty.
		if len(body) != 0 {
			return fmt.Errorf("%w: %d bytes of shares where none are due", ErrMalformed, len(body))
		}
		return nil
	}
	list, err := m.deck.CheckShares(seat, body)
	if err != nil {
		return err
	}
	if len(list) != len(want) {
		return fmt.Errorf("%w: %d shares, want %d", ErrMalformed, len(list), len(want))
	}
	for i, sh := range list {
		if sh.Pos != int(want[i]) {
			return fmt.Errorf("%w: share for slot %d, want %d", ErrMalformed, sh.Pos, want[i])
		}
	}
	for _, sh := range list {
		if !m.sharesOwn[sh.Pos] {
			m.shares[sh.Pos] = append([][]byte(nil), m.shares[sh.Pos]...)
			m.sharesOwn[sh.Pos] = true
		}
		m.shares[sh.Pos][seat] = append([]byte(nil), sh.Key...)
	}
	return nil
}

// applyJunk handles a junk claim: the claimer's own share for a slot of its
// rack that it opened privately to no tile. With it every share of the slot
// is public; the slot opens to junk for everyone and the audit round follows
// (it names the shuffler), or it opens to a tile and the claimer lied.
func (m *Machine) applyJunk(env *Envelope) error {
	seat := int(env.Seat)
	list, err := m.deck.CheckShares(seat, env.Body)
	if err != nil {
		return err
	}
	if len(list) != 1 {
		return fmt.Errorf("%w: a junk claim has %d shares, want 1", ErrMalformed, len(list))
	}
	s := engine.Slot(list[0].Pos)
	if !slotIn(m.game.rack(seat), s) {
		return fmt.Errorf("%w: seat %d claims junk in slot %d, not in its rack", engine.ErrNotHeld, seat, s)
	}
	for i, sh := range m.shares[s] {
		if i != seat && sh == nil {
			return fmt.Errorf("%w: junk claimed in slot %d before seat %d opened it", ErrMalformed, s, i)
		}
	}
	if err := m.takeShares(seat, env.Body, []engine.Slot{s}); err != nil {
		return err
	}
	f, err := m.openPublic(s)
	if errors.Is(err, errJunkFound) {
		m.junkSlot = s
		return nil // the audit round follows and names the shuffler
	}
	if err != nil {
		return nobody(err)
	}
	return violation(env, RuleFalseJunk, fmt.Errorf("seat %d claimed slot %d opens to no tile; it opens to %v", seat, s, f))
}

// JunkSlot returns the slot a junk claim opened to no tile in this hand,
// or engine.NoSlot.
func (m *Machine) JunkSlot() engine.Slot { return m.junkSlot }

// dealtToOthers lists, ascending, the slots dealt to seats other than seat.
func (m *Machine) dealtToOthers(seat int) []engine.Slot {
	var out []engine.Slot
	for s := 0; s < m.n; s++ {
		if s != seat {
			out = append(out, m.game.rack(s)...)
		}
	}
	sortSlots(out)
	return out
}

func sortedSlots(s []engine.Slot) []engine.Slot {
	c := append([]engine.Slot(nil), s...)
	sortSlots(c)
	return c
}

func sortSlots(s []engine.Slot) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// openPublic opens a slot whose every share is public.
func (m *Machine) openPublic(s engine.Slot) (engine.Face, error) {
	j, err := m.deck.Open(int(s), m.shares[s])
	if err != nil {
		if errors.Is(err, deck.ErrJunk) {
			// A shuffler put a non-tile in the deck: the audit names it.
			m.phase, m.at = phAudit, 0
			return engine.NoFace, errJunkFound
		}
		return engine.NoFace, err
	}
	return engine.Tile(j).Face(), nil
}

var errJunkFound = errors.New("table: a slot opens to no tile")

// advance drives the engine through what needs no message (dice from the
// hand's randomness) and sets the next phase.
func (m *Machine) advance() error {
	if m.failHook != nil {
		if err := m.failHook(m); err != nil {
			return err
		}
	}
	for {
		need := m.game.need()
		switch {
		case need.Kind == engine.ActRoll:
			v, err := commit.Combine(labelDie+strconv.Itoa(m.dieCount), m.session, m.hand, m.openings)
			if err != nil {
				return err
			}
			m.dieCount++
			if err := m.game.roll(commit.Die(v)); err != nil {
				return err
			}
		case need.Kind == engine.ActReveal:
			m.phase, m.at = phOpen, 0
			return nil
		case need.Over:
			m.phase, m.at = phAudit, 0
			return nil
		default:
			m.phase, m.at = phDeal, 0
			return nil
		}
	}
}

func (m *Machine) applyMove(seat int, body []byte) error {
	mv, err := m.game.parseMove(seat, body)
	if err != nil {
		return err
	}
	var faces []engine.SlotFace
	if len(mv.open) > 0 {
		rack := m.game.rack(seat)
		for _, s := range mv.open {
			if !slotIn(rack, s) {
				return fmt.Errorf("%w: seat %d slot %d", engine.ErrNotHeld, seat, s)
			}
		}
		if err := m.takeShares(seat, mv.shares, mv.open); err != nil {
			return err
		}
		for _, s := range mv.open {
			f, err := m.openPublic(s)
			if err != nil {
				if errors.Is(err, errJunkFound) {
					return nil // the audit phase takes over
				}
				return nobody(err)
			}
			faces = append(faces, engine.SlotFace{Slot: s, Face: f})
		}
	}
	drawn, err := mv.apply(faces)
	if err != nil {
		return err
	}
	if drawn != engine.NoSlot {
		m.phase, m.at = phShare, 0
		m.drawSlot, m.drawSeat = drawn, seat
		return nil
	}
	switch need := m.game.need(); {
	case need.Over:
		m.phase, m.at = phAudit, 0
	case need.Kind == engine.ActReveal:
		// Okey 101's round end: every rack is opened to everyone.
		m.phase, m.at = phOpen, 0
	}
	return nil
}

// openFor lists, ascending, the pending slots whose share from seat is not
// yet public: what seat's open message carries (none: an empty body).
func (m *Machine) openFor(seat int) []engine.Slot {
	var out []engine.Slot
	for _, s := range m.game.need().Slots {
		if m.shares[s][seat] == nil {
			out = append(out, s)
		}
	}
	sortSlots(out)
	return out
}

func slotIn(s []engine.Slot, x engine.Slot) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// finishAudit checks the hand's whole deck with every seed, then either
// starts the next hand, ends the match, or (after junk) blames the
// shuffler.
func (m *Machine) finishAudit() error {
	tiles, err := m.deck.Audit(m.seeds, m.rand)
	if err != nil {
		var f *blame.Fault
		if errors.As(err, &f) {
			return auditFault(f, m.step, err)
		}
		return nobody(err)
	}
	if !m.game.need().Over {
		// The audit followed a junk reveal but found nothing: impossible
		// unless the crypto layer is broken.
		return nobody(fmt.Errorf("table: internal error: junk reveal passed the audit"))
	}
	// Every public face must be the audited tile's face.
	for s := 0; s < engine.DeckSize; s++ {
		if f := m.game.publicFace(engine.Slot(s)); f != engine.NoFace && f != engine.Tile(tiles[s]).Face() {
			return nobody(fmt.Errorf("table: internal error: slot %d opened as %v, audit says %v", s, f, engine.Tile(tiles[s]).Face()))
		}
	}
	hl, err := m.game.settle(tiles)
	if err != nil {
		return nobody(err)
	}
	hl.Hand = m.hand
	m.log = append(m.log, hl)
	if m.game.over() {
		m.phase, m.at = phDone, 0
		return nil
	}
	if err := m.game.nextHand(); err != nil {
		return nobody(err)
	}
	m.hand++
	return nobody(m.startHand())
}

func (m *Machine) startHand() error {
	d, err := deck.NewHand(m.session, m.hand, m.n)
	if err != nil {
		return err
	}
	if m.noLockProofs {
		d = d.WithoutLockProofs()
	}
	if m.proofs != nil {
		d = d.DeferProofs(m.proofs)
		if tiles, ok := deck.TilesFromSeeds(m.session, m.hand, m.n, m.tileSeeds[m.hand]); ok {
			d = d.HintTiles(tiles)
		}
	}
	m.deck = d
	m.resetHand()
	m.phase, m.at = phShuffle, 0
	return nil
}
