package deck

import (
	"io"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/shuffle"
)

// LabelBatchWeights keys the stream of a ProofBatch's weights.
const LabelBatchWeights = "okey/v1/deck/batch-weights"

// A ProofBatch holds the lock and re-key proofs of hands whose states were
// made with DeferProofs, to be checked together by Check: one random linear
// combination of every proof's verification equations, one multi-scalar
// multiplication in which a point that several proofs share (a deck that is
// one seat's output and the next seat's input, the shuffle generators)
// enters once (protocol.md 4, "Batch verification"). It is for offline
// verification, where nothing a proof guards is used before Check's verdict
// is known; a live peer checks each message as it arrives.
//
// A ProofBatch is not safe for concurrent use.
type ProofBatch struct {
	weights *group.Stream
	items   []batchItem
}

// batchItem is one proof with its weights (drawn when it was added, the
// same in every sub-batch of a bisection) and whom it names.
type batchItem struct {
	seat, pos int
	err       error // ErrShuffleProof or ErrProof
	lock      *shuffle.Proof
	lockSt    *shuffle.Statement
	rekey     dleq.Item
	z, w      ristretto255.Scalar
}

// NewProofBatch returns an empty batch whose weights come from a 32-byte
// seed read from rand (crypto/rand if nil).
func NewProofBatch(rand io.Reader) (*ProofBatch, error) {
	var seed [32]byte
	if err := readRand(rand, seed[:]); err != nil {
		return nil, err
	}
	return &ProofBatch{weights: group.NewStream(LabelBatchWeights, seed[:])}, nil
}

// weight draws a uniform nonzero scalar (512 bits reduced mod l).
func (pb *ProofBatch) weight(z *ristretto255.Scalar) {
	var b [64]byte
	for {
		for i := 0; i < 64; i += 8 {
			v := pb.weights.Uint64()
			for k := 0; k < 8; k++ {
				b[i+k] = byte(v >> (8 * k))
			}
		}
		if _, err := z.SetUniformBytes(b[:]); err != nil {
			panic("deck: internal error: " + err.Error())
		}
		if !group.IsZero(z) {
			return
		}
	}
}

func (pb *ProofBatch) addLock(seat int, st *shuffle.Statement, p *shuffle.Proof) {
	it := batchItem{seat: seat, pos: -1, err: ErrShuffleProof, lock: p, lockSt: st}
	pb.weight(&it.z)
	pb.items = append(pb.items, it)
}

func (pb *ProofBatch) addRekey(seat, pos int, item dleq.Item) {
	it := batchItem{seat: seat, pos: pos, err: ErrProof, rekey: item}
	pb.weight(&it.z)
	pb.weight(&it.w)
	pb.items = append(pb.items, it)
}

// Len returns the number of proofs held.
func (pb *ProofBatch) Len() int { return len(pb.items) }

func (it *batchItem) addTo(b *group.Batch) {
	if it.lock != nil {
		it.lock.AddToBatch(b, it.lockSt, &it.z)
		return
	}
	it.rekey.AddToBatch(b, &it.z, &it.w)
}

func (it *batchItem) check() bool {
	if it.lock != nil {
		return it.lock.Check(it.lockSt) == nil
	}
	return it.rekey.Check() == nil
}

// Check checks every proof held and returns nil when all are valid.
// Otherwise it returns the *blame.Fault that checking them one by one, in
// the order they were added, returns first: the seat, and ErrShuffleProof
// (Pos -1) or ErrProof (Pos: the deck position). It finds that proof by
// bisection, each half a batch of its own, a single proof checked exactly.
func (pb *ProofBatch) Check() error {
	i := group.FirstFailure(len(pb.items),
		func(b *group.Batch, i int) { pb.items[i].addTo(b) },
		func(i int) bool { return pb.items[i].check() })
	if i < 0 {
		return nil
	}
	it := &pb.items[i]
	return seatFault(it.seat, it.pos, it.err)
}

// DeferProofs returns a copy of h whose ApplyLock and ApplyRekey (now and in
// every state derived from it) check everything but the proofs' equations
// and add the proofs to pb instead; pb.Check then checks them. With pb nil
// it returns a copy that checks each proof at once again. Only an offline
// verifier may defer: the messages of a hand are accepted before their
// proofs are checked, so the verifier must not act on the hand (open a
// tile, give a verdict) before pb.Check has passed, and must treat the hand
// as if checked one by one when it fails.
func (h *Hand) DeferProofs(pb *ProofBatch) *Hand {
	n := *h
	n.proofs = pb
	return &n
}
