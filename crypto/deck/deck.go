// Package deck implements the mental-poker deck of an okey hand: 106 tiles
// shuffled and encrypted together by 2 to 8 players so that no player learns
// a tile it should not, with every step checkable by every other player.
//
// The protocol (protocol.md, section 4, is normative):
//
//  1. Tile points M_j (j = 0..105) are hashed to ristretto255 from the
//     session id and hand number. NewHand computes them.
//  2. Lock and shuffle, seats 0..n-1 in order: D_i = P_i(a_i * D_{i-1}),
//     publishing A_i = a_i*G and a zero-knowledge proof (crypto/shuffle)
//     that D_i is such a permutation of D_{i-1} under the scalar of A_i.
//     (Hand.Lock, Hand.ApplyLock)
//  3. Re-key, seats 0..n-1 in order: E_i[j] = (b_ij/a_i) * E_{i-1}[j],
//     publishing B_ij = b_ij*G and a DLEQ proof per position.
//     (Hand.Rekey, Hand.ApplyRekey)
//  4. Reveal: a seat's key share for position j is b_ij, checked against
//     B_ij; with all n shares E_n[j] opens to its tile.
//     (Hand.Share, Hand.CheckShare, Hand.Open)
//  5. Audit after the hand: every seat reveals its seed; every step is
//     re-checked and a failing seat is named. (Hand.Audit)
//
// A seat's whole secret for a hand is a 32-byte seed (Secret): the lock
// scalar a_i, the permutation P_i and the re-key scalars b_ij are derived
// from it, so a restarted peer resumes from a few bytes.
//
// Hand values are immutable: Apply methods return a new Hand and leave the
// receiver unchanged, so a caller may keep every intermediate state.
// Failures caused by a seat are *blame.Fault errors wrapping one of this
// package's sentinel errors.
package deck

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
)

// Parameters.
const (
	// DeckSize is the number of tiles: two copies of 4 colours x 13 numbers
	// and two false jokers.
	DeckSize = 106
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers = 2
	MaxPlayers = 8
	// MaxSessionSize bounds the session id (at least one byte).
	MaxSessionSize = 255
	// SeedSize is the size of a seat's per-hand secret seed.
	SeedSize = 32
)

// Domain labels (see protocol.md, section 4).
const (
	LabelTile          = "okey/v1/deck/tile"
	LabelLockScalar    = "okey/v1/deck/lock-scalar"
	LabelPermutation   = "okey/v1/deck/permutation"
	LabelRekeyScalar   = "okey/v1/deck/rekey-scalar"
	LabelRekeyProof    = "okey/v1/deck/rekey-proof"
	LabelAuditWeights  = "okey/v1/deck/audit-weights"
	LabelLockProof     = "okey/v1/deck/lock-proof"
	LabelLockProofKey  = "okey/v1/deck/lock-proof-key"
	labelDegenerateMsg = "deck: degenerate seed"
)

// Sentinel errors. Errors caused by a seat are *blame.Fault values that wrap
// one of these.
var (
	ErrParams       = errors.New("deck: invalid parameters")
	ErrWrongStep    = errors.New("deck: message for the wrong step")
	ErrWrongSecret  = errors.New("deck: secret belongs to another hand or seat")
	ErrEncoding     = errors.New("deck: malformed encoding")
	ErrIdentity     = errors.New("deck: identity element")
	ErrDuplicate    = errors.New("deck: duplicate element in deck")
	ErrProof        = errors.New("deck: invalid re-key proof")
	ErrShuffleProof = errors.New("deck: invalid shuffle proof in lock message")
	ErrShare        = errors.New("deck: key share does not match its public point")
	ErrJunk         = errors.New("deck: opened point is not a tile")
	ErrRevealedSeed = errors.New("deck: revealed seed does not match the lock key")
	ErrLockAudit    = errors.New("deck: lock step does not match the revealed seed")
	ErrRekeyAudit   = errors.New("deck: re-key step does not match the revealed seed")
)

// JunkError is returned by Open when the opened point is none of the 106
// tile points. The re-key steps are proven, so the junk entered in a lock
// step; Audit names the seat. JunkError matches ErrJunk with errors.Is.
type JunkError struct {
	Pos int // deck position that opened to junk
}

func (e *JunkError) Error() string {
	return fmt.Sprintf("deck: position %d opened to a point that is not a tile (a lock step was dishonest; the audit names the seat)", e.Pos)
}

// Is reports whether target is ErrJunk.
func (e *JunkError) Is(target error) bool { return target == ErrJunk }

// tileTable is M_0..M_105 for one (session, hand) and the reverse lookup.
type tileTable struct {
	points []group.Point
	index  map[[group.PointSize]byte]int
}

// TilePoint returns M_j = hash-to-group(LabelTile, session, hand, j).
func TilePoint(session []byte, hand uint32, j int) (*group.Point, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	if j < 0 || j >= DeckSize {
		return nil, ErrParams
	}
	e := group.NewTranscript(LabelTile).Bytes(session).Uint32(hand).Int(j).Element()
	p, err := group.NewPoint(e)
	if err != nil {
		return nil, ErrParams // hashing to the identity: negligible
	}
	return p, nil
}

func checkSession(session []byte) error {
	if len(session) < 1 || len(session) > MaxSessionSize {
		return ErrParams
	}
	return nil
}

func checkPlayers(players int) error {
	if players < MinPlayers || players > MaxPlayers {
		return ErrParams
	}
	return nil
}

// lockStep is one accepted lock message.
type lockStep struct {
	key  group.Point   // A_i
	deck []group.Point // D_i
}

// rekeyStep is one accepted re-key message.
type rekeyStep struct {
	keys []group.Point // B_ij
	deck []group.Point // E_i
}

// Hand is the public state of one hand's deck: the tile points and every
// accepted lock and re-key step. It is immutable.
type Hand struct {
	session []byte
	hand    uint32
	players int
	tiles   *tileTable
	locks   []*lockStep
	rekeys  []*rekeyStep
	checked *checkedShares // set once the hand is ready
	// noLockProofs: ApplyLock skips the shuffle proof (WithoutLockProofs).
	noLockProofs bool
	// proofs, when set, receives the lock and re-key proofs instead of
	// ApplyLock and ApplyRekey checking them (DeferProofs).
	proofs *ProofBatch
	// hints, with proofs set, is the tile each final position is expected
	// to open to (HintTiles): Open adds that claim to proofs instead of
	// computing the opening.
	hints []int
	// own remembers the lock or re-key message this state's Lock or Rekey
	// made (ownStep); nil until then. Copies of the state share the box
	// but not the memo (ownStep.from).
	own *atomic.Pointer[ownStep]
}

// ownStep is a seat's own message and the state it leads to: when the same
// bytes come back to ApplyLock or ApplyRekey of the state that made them
// (a table applies its own messages as everyone else's), the state is the
// one Lock or Rekey already computed, with nothing to decode or check.
type ownStep struct {
	from *Hand
	seat int
	lock bool
	msg  []byte
	next *Hand
}

// remember keeps msg, seat's own lock (lock) or re-key message from h,
// and next, the state it leads to.
func (h *Hand) remember(seat int, lock bool, msg []byte, next *Hand) {
	if h.own != nil {
		// A copy: the caller may change the bytes it was given.
		m := append([]byte(nil), msg...)
		h.own.Store(&ownStep{from: h, seat: seat, lock: lock, msg: m, next: next})
	}
}

// recall returns the state h's own message msg of seat leads to, or nil
// when msg is not the message h's Lock or Rekey made.
func (h *Hand) recall(seat int, lock bool, msg []byte) *Hand {
	if h.own == nil || h.proofs != nil {
		return nil
	}
	o := h.own.Load()
	if o == nil || o.from != h || o.seat != seat || o.lock != lock || string(o.msg) != string(msg) {
		return nil
	}
	return o.next
}

// NewHand starts the public state for a hand: the tile points M_j, before
// any lock step.
func NewHand(session []byte, hand uint32, players int) (*Hand, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	if err := checkPlayers(players); err != nil {
		return nil, err
	}
	t := &tileTable{points: make([]group.Point, DeckSize), index: make(map[[group.PointSize]byte]int, DeckSize)}
	// Hashed on every core (a square root or two each); the error, if any,
	// is the lowest position's.
	if _, err := par.FirstFailure(DeckSize, 8, func(lo, hi int) (int, error) {
		// TilePoint's, several side by side (group.PointsFromUniform).
		in := make([][64]byte, hi-lo)
		for j := lo; j < hi; j++ {
			in[j-lo] = group.NewTranscript(LabelTile).Bytes(session).Uint32(hand).Int(j).Sum()
		}
		if k, err := group.PointsFromUniform(t.points[lo:hi], in); err != nil {
			return lo + k, ErrParams // hashing to the identity: negligible
		}
		return -1, nil
	}); err != nil {
		return nil, err
	}
	for j := range t.points {
		enc := t.points[j].Encoding()
		if _, dup := t.index[enc]; dup {
			return nil, ErrParams // a hash collision: negligible
		}
		t.index[enc] = j
	}
	return &Hand{session: append([]byte(nil), session...), hand: hand, players: players, tiles: t,
		own: new(atomic.Pointer[ownStep])}, nil
}

// Session returns a copy of the hand's session.
func (h *Hand) Session() []byte { return append([]byte(nil), h.session...) }

// Number returns the hand number.
func (h *Hand) Number() uint32 { return h.hand }

// Players returns the number of seats.
func (h *Hand) Players() int { return h.players }

// NextLock returns the seat whose lock message is expected next, or -1 when
// every seat has locked.
func (h *Hand) NextLock() int {
	if len(h.locks) == h.players {
		return -1
	}
	return len(h.locks)
}

// NextRekey returns the seat whose re-key message is expected next, or -1
// before locking is complete or after every seat has re-keyed.
func (h *Hand) NextRekey() int {
	if len(h.locks) < h.players || len(h.rekeys) == h.players {
		return -1
	}
	return len(h.rekeys)
}

// Ready reports whether the deck is complete: every seat has locked and
// re-keyed, so tiles can be opened.
func (h *Hand) Ready() bool { return len(h.rekeys) == h.players }

// TileIndex returns the tile index j with M_j = p, or false.
func (h *Hand) TileIndex(p *group.Point) (int, bool) {
	j, ok := h.tiles.index[p.Encoding()]
	return j, ok
}

// TilePoint returns M_j for this hand.
func (h *Hand) TilePoint(j int) *group.Point {
	p := h.tiles.points[j]
	return &p
}

// LockKey returns A_seat, the published lock key of a seat that has locked.
func (h *Hand) LockKey(seat int) (*group.Point, bool) {
	if seat < 0 || seat >= len(h.locks) {
		return nil, false
	}
	p := h.locks[seat].key
	return &p, true
}

// Deck returns the encoding of the current deck: D_i after i lock steps,
// then E_i after i re-key steps (106 points of 32 bytes).
func (h *Hand) Deck() []byte {
	d := h.current()
	out := make([]byte, 0, DeckSize*group.PointSize)
	for k := range d {
		out = append(out, d[k].Bytes()...)
	}
	return out
}

func (h *Hand) current() []group.Point {
	switch {
	case len(h.rekeys) > 0:
		return h.rekeys[len(h.rekeys)-1].deck
	case len(h.locks) > 0:
		return h.locks[len(h.locks)-1].deck
	default:
		return h.tiles.points
	}
}

func (h *Hand) lockInput(seat int) []group.Point {
	if seat == 0 {
		return h.tiles.points
	}
	return h.locks[seat-1].deck
}

func (h *Hand) rekeyInput(seat int) []group.Point {
	if seat == 0 {
		return h.locks[h.players-1].deck
	}
	return h.rekeys[seat-1].deck
}

func (h *Hand) checkSecret(s *Secret) error {
	if s == nil || s.hand != h.hand || s.players != h.players || string(s.session) != string(h.session) {
		return ErrWrongSecret
	}
	return nil
}

func (h *Hand) withLock(l *lockStep) *Hand {
	n := *h
	n.locks = append(h.locks[:len(h.locks):len(h.locks)], l)
	n.own = new(atomic.Pointer[ownStep])
	return &n
}

func (h *Hand) withRekey(r *rekeyStep) *Hand {
	n := *h
	n.rekeys = append(h.rekeys[:len(h.rekeys):len(h.rekeys)], r)
	n.own = new(atomic.Pointer[ownStep])
	if n.Ready() {
		n.checked = &checkedShares{}
	}
	return &n
}

// readRand reads len(b) bytes from r, or crypto/rand if r is nil.
func readRand(r io.Reader, b []byte) error {
	if r == nil {
		r = cryptoRand
	}
	if _, err := io.ReadFull(r, b); err != nil {
		return errors.New("deck: reading randomness failed")
	}
	return nil
}

// seatFault wraps err as a fault of seat at pos (pos -1: no position).
func seatFault(seat, pos int, err error) error { return blame.At(seat, pos, err) }

// mapPointErr turns a group decoding error into this package's sentinel.
func mapPointErr(err error) error {
	if errors.Is(err, group.ErrIdentity) {
		return ErrIdentity
	}
	return ErrEncoding
}
