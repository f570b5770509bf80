package deck

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/internal/par"
	"github.com/okey-game/okey/crypto/shuffle"
)

// LabelBatchWeights keys the stream of a ProofBatch's weights.
const LabelBatchWeights = "okey/v1/deck/batch-weights"

// A ProofBatch holds the lock and re-key proofs, the key shares' checks
// (b*G = B_ij) and the audits of hands whose states were made with
// DeferProofs, to be checked together by Check: one random linear
// combination of all their equations, one multi-scalar multiplication in
// which a point that several share (a deck that is one seat's output and
// the next seat's input, B_ij in a re-key proof, a share's check and the
// audit, the shuffle generators) enters once (protocol.md 4, "Batch
// verification"). It is for offline verification, where nothing a proof
// guards is used before Check's verdict is known; a live peer checks each
// message as it arrives.
//
// Items are added under a lock, but their order is the order of the calls:
// a caller that wants Check's fault to be the first in message order adds
// them from one goroutine (deck does).
type ProofBatch struct {
	mu      sync.Mutex
	weights *group.Stream
	items   []batchItem
	known   int // points of known value the last Check substituted
}

// batchItem is one proof or check with its weights (drawn when it was
// added, the same in every sub-batch of a bisection) and whom it names.
type batchItem struct {
	seat, pos int
	lock      *shuffle.Proof // a lock's shuffle argument
	lockSt    *shuffle.Statement
	rekey     *dleq.Item   // a re-key proof
	share     *group.Point // a key share: b*G = share (B_ij)
	b         ristretto255.Scalar
	audit     *auditItem // a hand's audit (checks 2 and 3 of every seat)
	open      *openItem  // an opening claimed by a hint: prod*M = E_n[pos]
	z, w      ristretto255.Scalar
}

type openItem struct {
	prod      ristretto255.Scalar // prod_i b_i,pos
	tile, enc *group.Point        // M_t (the hinted tile) and E_n[pos]
}

type auditItem struct {
	h       *Hand
	secrets []*Secret
	wseed   []byte
	bs      [][]*ristretto255.Scalar // re-key scalars (prepare); nil if one is zero
}

// baseElement is the generator G, one pointer so that the batch merges
// every term of G.
var baseElement = ristretto255.NewGeneratorElement()

// NewProofBatch returns an empty batch whose weights come from a 32-byte
// seed read from rand (crypto/rand if nil).
func NewProofBatch(rand io.Reader) (*ProofBatch, error) {
	var seed [32]byte
	if err := readRand(rand, seed[:]); err != nil {
		return nil, err
	}
	return &ProofBatch{weights: group.NewStream(LabelBatchWeights, seed[:])}, nil
}

// weight draws a uniform nonzero 128-bit weight: two words of the stream,
// little-endian, as a scalar below 2^128 (protocol.md 4, "Batch
// verification": a failing item then passes with probability at most
// 2^-128, and a term whose scalar is a weight, such as -z*R1 of a re-key
// proof, costs half a full one in the multi-scalar multiplication).
func (pb *ProofBatch) weight(z *ristretto255.Scalar) {
	var b [32]byte
	for {
		binary.LittleEndian.PutUint64(b[0:], pb.weights.Uint64())
		binary.LittleEndian.PutUint64(b[8:], pb.weights.Uint64())
		if _, err := z.SetCanonicalBytes(b[:]); err != nil {
			panic("deck: internal error: " + err.Error())
		}
		if !group.IsZero(z) {
			return
		}
	}
}

func (pb *ProofBatch) add(it batchItem) {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	pb.weight(&it.z)
	if it.rekey != nil {
		pb.weight(&it.w)
	}
	pb.items = append(pb.items, it)
}

func (pb *ProofBatch) addLock(seat int, st *shuffle.Statement, p *shuffle.Proof) {
	pb.add(batchItem{seat: seat, pos: -1, lock: p, lockSt: st})
}

func (pb *ProofBatch) addRekey(seat, pos int, item dleq.Item) {
	pb.add(batchItem{seat: seat, pos: pos, rekey: &item})
}

func (pb *ProofBatch) addShare(seat, pos int, b *ristretto255.Scalar, key *group.Point) {
	it := batchItem{seat: seat, pos: pos, share: key}
	it.b.Set(b)
	pb.add(it)
}

// addAudit adds a hand's audit (auditAll's combination). A re-key scalar
// that is zero (probability 2^-252 per scalar) is found when the terms are
// made (addTo), where it makes the item fail.
func (pb *ProofBatch) addAudit(h *Hand, secrets []*Secret, wseed []byte) {
	pb.add(batchItem{seat: -1, pos: -1, audit: &auditItem{h: h, secrets: secrets, wseed: append([]byte(nil), wseed...)}})
}

func (pb *ProofBatch) addOpen(pos int, prod *ristretto255.Scalar, tile, enc *group.Point) {
	it := batchItem{seat: -1, pos: pos, open: &openItem{tile: tile, enc: enc}}
	it.open.prod.Set(prod)
	pb.add(it)
}

// Len returns the number of proofs and checks held.
func (pb *ProofBatch) Len() int { return len(pb.items) }

// Openings returns the number of hinted openings held (HintTiles).
func (pb *ProofBatch) Openings() int {
	n := 0
	for i := range pb.items {
		if pb.items[i].open != nil {
			n++
		}
	}
	return n
}

func (it *batchItem) addTo(b group.Adder) {
	switch {
	case it.lock != nil:
		it.lock.AddToBatch(b, it.lockSt, &it.z)
	case it.rekey != nil:
		it.rekey.AddToBatch(b, &it.z, &it.w)
	case it.share != nil:
		var t ristretto255.Scalar
		b.Add(t.Multiply(&it.z, &it.b), baseElement)
		b.Add(t.Negate(&it.z), it.share.Element())
	case it.open != nil:
		var t ristretto255.Scalar
		b.Add(t.Multiply(&it.z, &it.open.prod), it.open.tile.Element())
		b.Add(t.Negate(&it.z), it.open.enc.Element())
	default:
		if it.audit.bs == nil {
			// A zero re-key scalar, which auditSeats names: the item's sum
			// is z*G, never the identity.
			b.Add(&it.z, baseElement)
			return
		}
		it.audit.h.auditTerms(b, it.audit.secrets, it.audit.bs, it.audit.wseed, &it.z)
	}
}

// terms is the number of terms addTo adds (at most).
func (it *batchItem) terms() int {
	switch {
	case it.lock != nil:
		return 3*len(it.lockSt.In) + 10
	case it.rekey != nil:
		return 6
	case it.share != nil, it.open != nil:
		return 2
	default:
		return 3*len(it.audit.secrets)*DeckSize + 1
	}
}

// check checks the item alone, exactly, and returns the fault that the
// one-by-one check returns.
func (it *batchItem) check() error {
	switch {
	case it.lock != nil:
		if it.lock.Check(it.lockSt) != nil {
			return seatFault(it.seat, -1, ErrShuffleProof)
		}
	case it.rekey != nil:
		if it.rekey.Check() != nil {
			return seatFault(it.seat, it.pos, ErrProof)
		}
	case it.share != nil:
		var e ristretto255.Element
		if e.ScalarBaseMult(&it.b).Equal(it.share.Element()) != 1 {
			return seatFault(it.seat, it.pos, ErrShare)
		}
	case it.open != nil:
		var e ristretto255.Element
		if e.ScalarMult(&it.open.prod, it.open.tile.Element()).Equal(it.open.enc.Element()) != 1 {
			return ErrHint
		}
	default:
		return it.audit.h.auditSeats(it.audit.secrets, it.audit.wseed)
	}
	return nil
}

// Check checks every proof and check held and returns nil when all pass.
// Otherwise it returns the *blame.Fault that checking them one by one, in
// the order they were added, returns first: for a lock ErrShuffleProof
// (Pos -1), for a re-key proof ErrProof, for a key share ErrShare (Pos:
// the deck position), for an audit ErrLockAudit or ErrRekeyAudit as Audit
// names them; for an opening that its hint got wrong ErrHint, nobody's
// fault (HintTiles). It finds that item by bisection, each half a batch of
// its own, a single item checked exactly.
//
// It first checks the whole batch with every point whose value revealed
// seeds give (the hands whose audits it holds: Hand.knownPoints) checked
// against that value, which makes those points' scalars 128-bit weights
// (protocol.md 4, "Batch verification", "Points of known value"); only
// when that fails does it bisect, over the items' own equations.
func (pb *ProofBatch) Check() error {
	// The audits' re-key scalars and known points, then each item's terms,
	// are computed once, on every core (hashing the challenges is most of
	// it); the bisection's batches add the lists.
	known := make([][]knownPoint, len(pb.items))
	par.For(len(pb.items), 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if a := pb.items[i].audit; a != nil {
				var ok bool
				if a.bs, ok = rekeyScalars(a.secrets); ok {
					known[i] = a.h.knownPoints(a.secrets, a.bs)
				}
			}
		}
	})
	terms := make([]group.Terms, len(pb.items))
	par.For(len(pb.items), 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			terms[i].Grow(pb.items[i].terms())
			pb.items[i].addTo(&terms[i])
		}
	})
	if pb.checkKnown(terms, known) {
		return nil
	}
	var fault error
	i := group.FirstFailure(len(pb.items),
		func(b *group.Batch, i int) { b.AddTerms(&terms[i]) },
		func(i int) bool { fault = pb.items[i].check(); return fault == nil })
	if i < 0 {
		return nil
	}
	return fault
}

// checkKnown sums every item's terms, weighted, with every known point p
// of value v (knownPoints) replaced: the batch's term c*p becomes
// rho_p*p + (c - rho_p)*v, that is c*v + rho_p*(p - v), for a fresh
// 128-bit weight rho_p (group.Batch.Substitute). The sum is the identity
// when every item passes and every known point has its value; otherwise,
// the weights being random, it is not, except with probability about
// 2^-128 (protocol.md 4, "Batch verification"). It reports false, for the
// bisection to decide, when it fails or when no point is known.
func (pb *ProofBatch) checkKnown(terms []group.Terms, known [][]knownPoint) bool {
	values := map[*ristretto255.Element]*knownPoint{}
	for i := range known {
		for k := range known[i] {
			values[known[i][k].p] = &known[i][k]
		}
	}
	pb.known = 0
	if len(values) == 0 {
		return false
	}
	var b group.Batch
	// The distinct points are about half the terms (a deck point is in
	// two proofs, a key in a proof, a share and the audit).
	n := 0
	for i := range terms {
		n += terms[i].Len()
	}
	b.Grow(n / 2)
	for i := range terms {
		b.AddTerms(&terms[i])
	}
	subst := b.Substitute(func(p *ristretto255.Element) (*ristretto255.Scalar, *ristretto255.Element, bool) {
		v, ok := values[p]
		if !ok {
			return nil, nil, false
		}
		return &v.s, v.base, true
	}, pb.weight)
	if !b.IsIdentity() {
		return false
	}
	pb.known = subst
	return true
}

// Known returns the number of points the last Check checked against their
// values known from revealed seeds, in a sum that passed (0 when it had no
// audit, or when that sum failed and the bisection decided).
func (pb *ProofBatch) Known() int { return pb.known }

// DeferProofs returns a copy of h whose ApplyLock, ApplyRekey, CheckShare(s),
// Open and Audit (now and in every state derived from it) check everything
// but the equations of the proofs, shares and audit, and add those to pb
// instead; pb.Check then checks them. With pb nil it returns a copy that
// checks each at once again. Only an offline verifier may defer: messages
// are accepted, and tiles opened, before their proofs are checked, so the
// verifier must not conclude anything from the hand before pb.Check has
// passed, and must replay the hand checking one by one when it fails.
func (h *Hand) DeferProofs(pb *ProofBatch) *Hand {
	n := *h
	n.proofs = pb
	if pb == nil {
		n.hints = nil
	}
	return &n
}

// ErrHint is ProofBatch.Check's error for an opening whose hinted tile
// (HintTiles) is not the tile the position opens to: nobody's fault; the
// caller checks again without hints.
var ErrHint = errors.New("deck: a position does not open to its hinted tile")

// HintTiles returns a copy of h, which must defer its proofs (DeferProofs),
// whose Open (now and in every state derived from it) does not compute the
// opening of a position: it returns tiles[pos] and adds to the batch the
// claim that the position opens to it, (prod_i b_i,pos)*M_tiles[pos] =
// E_n[pos], whose points are in the batch already (protocol.md 4, "Batch
// verification"). The shares are checked (deferred) as before. When the
// batch passes, every Open returned what computing it returns; a wrong hint
// fails the batch with ErrHint. An offline verifier takes the hints from
// the seeds the hand's audit reveals later in the transcript
// (TilesFromSeeds); it MUST NOT use a hand's results before the batch
// passes, and replays without hints when it fails. tiles must hold 106
// tile indices; otherwise, or without a batch, h is returned unchanged.
func (h *Hand) HintTiles(tiles []int) *Hand {
	if h.proofs == nil || len(tiles) != DeckSize {
		return h
	}
	for _, t := range tiles {
		if t < 0 || t >= DeckSize {
			return h
		}
	}
	n := *h
	n.hints = append([]int(nil), tiles...)
	return &n
}

// TilesFromSeeds returns the tile each final deck position opens to if the
// hand's seats used these seeds (seeds[i] from seat i), t(j) = P_0[P_1[...
// P_{n-1}[j]...]] as Audit's: hashing only, nothing checked against the
// hand. It returns false when a seed is malformed or degenerate.
func TilesFromSeeds(session []byte, hand uint32, players int, seeds [][]byte) ([]int, bool) {
	if len(seeds) != players {
		return nil, false
	}
	secrets := make([]*Secret, players)
	for i, seed := range seeds {
		s, err := SecretFromSeed(session, hand, players, i, seed)
		if err != nil {
			return nil, false
		}
		secrets[i] = s
	}
	h := &Hand{players: players}
	return h.auditTiles(secrets), true
}
