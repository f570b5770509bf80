package deck

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/internal/lane"
)

// bumpScalar adds one to the canonical scalar at b[:32] (still canonical).
func bumpScalar(t *testing.T, b []byte) {
	t.Helper()
	s, err := ristretto255.NewScalar().SetCanonicalBytes(b[:32])
	if err != nil {
		t.Fatal(err)
	}
	var one [32]byte
	one[0] = 1
	o, _ := ristretto255.NewScalar().SetCanonicalBytes(one[:])
	copy(b, s.Add(s, o).Bytes())
}

// badProof names one proof of a hand: a seat's lock (pos -1), its re-key
// proof for pos, or its key share for pos.
type badProof struct {
	lock, share bool
	seat, pos   int
}

// corrupt returns the hand's messages with the given proofs made invalid
// (a response scalar changed: still well formed, no longer a proof).
func corrupt(t *testing.T, tab *table, bad []badProof) (locks, rekeys [][]byte) {
	t.Helper()
	for i := range tab.locks {
		locks = append(locks, append([]byte(nil), tab.locks[i]...))
		rekeys = append(rekeys, append([]byte(nil), tab.rekeys[i]...))
	}
	for _, b := range bad {
		if b.share {
			continue // shareLists
		}
		if b.lock {
			bumpScalar(t, locks[b.seat][LockMessageSize-32:])
		} else {
			off := b.pos*RekeyEntrySize + 128
			bumpScalar(t, rekeys[b.seat][off:off+32])
		}
	}
	return locks, rekeys
}

// shareLists returns each seat's share list for every position, with the
// bad shares of bad replaced by another seat's share (a canonical scalar
// that does not match).
func shareLists(t *testing.T, tab *table, bad []badProof) [][]byte {
	t.Helper()
	lists := make([][]byte, len(tab.secrets))
	for i, s := range tab.secrets {
		list := make([]Share, DeckSize)
		for pos := range list {
			k, err := tab.hand.Share(s, pos)
			if err != nil {
				t.Fatal(err)
			}
			list[pos] = Share{Pos: pos, Key: k}
		}
		for _, b := range bad {
			if b.share && b.seat == i {
				other := tab.secrets[(i+1)%len(tab.secrets)]
				list[b.pos].Key, _ = tab.hand.Share(other, b.pos)
			}
		}
		var err error
		if lists[i], err = EncodeShares(list); err != nil {
			t.Fatal(err)
		}
	}
	return lists
}

// applyAll applies every message to h (strict or deferring), then checks
// every seat's share list, and returns the first error.
func applyAll(h *Hand, locks, rekeys, shares [][]byte) (*Hand, error) {
	var err error
	for i, m := range locks {
		if h, err = h.ApplyLock(i, m); err != nil {
			return nil, err
		}
	}
	for i, m := range rekeys {
		if h, err = h.ApplyRekey(i, m, nil); err != nil {
			return nil, err
		}
	}
	for i, l := range shares {
		if _, err := h.CheckShares(i, l); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func faultOf(t *testing.T, err error) *blame.Fault {
	t.Helper()
	var f *blame.Fault
	if !errors.As(err, &f) {
		t.Fatalf("got %v, want a fault", err)
	}
	return f
}

// TestProofBatchNamesTheSeat is a property test: a hand's lock and re-key
// proofs and every seat's key shares, with one or two bad proofs or shares
// at random places, checked in one batch
// (the bad one found by bisection), give exactly the fault that checking
// them one by one gives: the same seat, position and rule. With none bad
// the batch passes and the deferred state equals the checked one.
func TestProofBatchNamesTheSeat(t *testing.T) {
	tab := newTable(t, 4, "batch")
	start := tab.states[0]
	pb, err := NewProofBatch(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := applyAll(start.DeferProofs(pb), tab.locks, tab.rekeys, shareLists(t, tab, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := 4 + 4*DeckSize + 4*DeckSize; pb.Len() != want {
		t.Fatalf("batch holds %d proofs and shares, want %d", pb.Len(), want)
	}
	if err := pb.Check(); err != nil {
		t.Fatalf("honest hand: %v", err)
	}
	if string(h.Deck()) != string(tab.hand.Deck()) {
		t.Fatal("deferred state differs from the checked one")
	}

	rng := rand.New(rand.NewPCG(40, 2))
	trials := 10
	if testing.Short() || raceEnabled {
		trials = 3
	}
	for trial := 0; trial < trials; trial++ {
		bad := randomBad(rng, trial, 8, 3)
		locks, rekeys := corrupt(t, tab, bad)
		shares := shareLists(t, tab, bad)
		_, strictErr := applyAll(start, locks, rekeys, shares)
		want := faultOf(t, strictErr)
		pb, err := NewProofBatch(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := applyAll(start.DeferProofs(pb), locks, rekeys, shares); err != nil {
			t.Fatalf("%v: deferring hand rejected a well-formed message: %v", bad, err)
		}
		got := faultOf(t, pb.Check())
		sameFault(t, bad, got, want)
	}
}

// TestProofBatchLockFirst: a bad lock proof and a bad re-key proof of an
// earlier seat: the lock comes first in the hand, so it is named.
func TestProofBatchLockFirst(t *testing.T) {
	tab := newTable(t, 3, "batch")
	locks, rekeys := corrupt(t, tab, []badProof{{seat: 0, pos: 5}, {lock: true, seat: 2, pos: -1}})
	pb, err := NewProofBatch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := applyAll(tab.states[0].DeferProofs(pb), locks, rekeys, nil); err != nil {
		t.Fatal(err)
	}
	wantFault(t, pb.Check(), ErrShuffleProof, 2, -1)
}

// TestDeferProofsChecksForm: a deferring hand still rejects at once what
// does not decode (the proofs' form is checked on receipt).
func TestDeferProofsChecksForm(t *testing.T) {
	tab := newTable(t, 3, "batch")
	pb, err := NewProofBatch(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := tab.states[0].DeferProofs(pb)
	bad := mutate(tab.locks[0], func(b []byte) { copy(b[LockMessageSize-32:], make([]byte, 31)); b[LockMessageSize-1] = 0xff })
	_, err = h.ApplyLock(0, bad)
	wantFault(t, err, ErrShuffleProof, 0, -1)
	if pb.Len() != 0 {
		t.Fatal("a malformed proof was added to the batch")
	}
	if h.DeferProofs(nil).proofs != nil {
		t.Fatal("DeferProofs(nil) still defers")
	}
}

// TestProofBatchAudit: a hand whose audit fails (a lock with a permutation
// not from the seat's seed; re-key scalars not from it), audited with the
// check deferred: the batch names the seat and position Audit names.
func TestProofBatchAudit(t *testing.T) {
	lane.NoRace(t)
	tab := newTable(t, 3, "shared")
	rnd := newFixedRand("w")
	deferred := func(h *Hand) error {
		pb, err := NewProofBatch(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.DeferProofs(pb).Audit(tab.seeds(), rnd); err != nil {
			t.Fatalf("deferred audit failed at once: %v", err)
		}
		if pb.Len() != 1 {
			t.Fatalf("batch holds %d items, want the audit", pb.Len())
		}
		return pb.Check()
	}
	if err := deferred(tab.hand); err != nil {
		t.Fatalf("honest hand: %v", err)
	}
	s := *tab.secrets[1]
	s.perm[0], s.perm[1] = s.perm[1], s.perm[0]
	msg, _, err := tab.states[1].Lock(&s)
	if err != nil {
		t.Fatal(err)
	}
	h := replay(t, tab.states[1], 1, msg, tab)
	_, err = h.Audit(tab.seeds(), rnd)
	wantFault(t, err, ErrLockAudit, 1, 0)
	wantFault(t, deferred(h), ErrLockAudit, 1, 0)

	s = *tab.secrets[2]
	s.seed[0] ^= 1
	h = tab.states[3+2]
	if msg, _, err = h.Rekey(&s, rnd); err != nil {
		t.Fatal(err)
	}
	if h, err = h.ApplyRekey(2, msg, rnd); err != nil {
		t.Fatal(err)
	}
	_, err = h.Audit(tab.seeds(), rnd)
	wantFault(t, err, ErrRekeyAudit, 2, 0)
	wantFault(t, deferred(h), ErrRekeyAudit, 2, 0)
}

// TestHintTiles: a deferring hand with hints (the seeds' tiles) opens each
// position to the tile computing it gives, without computing it, and the
// batch passes; with a wrong hint the batch fails with ErrHint (nobody
// named), and the strict hand still opens the true tile; a bad share among
// the hinted openings is still named as the one-by-one check names it.
func TestHintTiles(t *testing.T) {
	lane.NoRace(t)
	tab := newTable(t, 3, "hint")
	tiles, ok := TilesFromSeeds(testSession, 7, 3, tab.seeds())
	if !ok {
		t.Fatal("TilesFromSeeds refused honest seeds")
	}
	want, err := tab.hand.Audit(tab.seeds(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if tiles[j] != want[j] {
			t.Fatalf("position %d: TilesFromSeeds says %d, the audit %d", j, tiles[j], want[j])
		}
	}
	if _, ok := TilesFromSeeds(testSession, 7, 3, tab.seeds()[:2]); ok {
		t.Fatal("TilesFromSeeds took two seeds for three seats")
	}
	open := func(hint []int, shares func(pos int) [][]byte) (*ProofBatch, []int) {
		t.Helper()
		pb, err := NewProofBatch(nil)
		if err != nil {
			t.Fatal(err)
		}
		h := tab.states[0].DeferProofs(pb).HintTiles(hint)
		if h, err = applyAll(h, tab.locks, tab.rekeys, nil); err != nil {
			t.Fatal(err)
		}
		var got []int
		for pos := 0; pos < 12; pos++ {
			j, err := h.Open(pos, shares(pos))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, j)
		}
		return pb, got
	}
	honest := func(pos int) [][]byte { return tab.shares(t, pos) }
	pb, got := open(tiles, honest)
	for pos, j := range got {
		if strict, err := tab.hand.Open(pos, honest(pos)); err != nil || strict != j {
			t.Fatalf("position %d: hinted open %d, computed %d (%v)", pos, j, strict, err)
		}
	}
	if err := pb.Check(); err != nil {
		t.Fatalf("honest hints: %v", err)
	}

	wrong := append([]int(nil), tiles...)
	wrong[5], wrong[6] = wrong[6], wrong[5]
	pb, got = open(wrong, honest)
	if got[5] != wrong[5] {
		t.Fatalf("hinted open returned %d, want the hint %d", got[5], wrong[5])
	}
	if err := pb.Check(); !errors.Is(err, ErrHint) {
		t.Fatalf("wrong hint: Check = %v, want ErrHint", err)
	}
	var f *blame.Fault
	if errors.As(pb.Check(), &f) {
		t.Fatal("a wrong hint names a seat")
	}

	// Seat 2's share for position 3 replaced by seat 0's: the one-by-one
	// check names seat 2 at position 3; so does the hinted batch.
	bad := func(pos int) [][]byte {
		s := tab.shares(t, pos)
		if pos == 3 {
			s[2] = s[0]
		}
		return s
	}
	_, strictErr := tab.hand.Open(3, bad(3))
	wantF := faultOf(t, strictErr)
	pb, _ = open(tiles, bad)
	gotF := faultOf(t, pb.Check())
	if gotF.Seat != wantF.Seat || gotF.Pos != wantF.Pos || !errors.Is(gotF, wantF.Err) {
		t.Fatalf("hinted batch names seat %d pos %d (%v), one by one seat %d pos %d (%v)",
			gotF.Seat, gotF.Pos, gotF.Err, wantF.Seat, wantF.Pos, wantF.Err)
	}

	// Without a batch, hints are ignored: a strict hand computes.
	if h := tab.hand.HintTiles(wrong); h != tab.hand {
		t.Fatal("HintTiles changed a hand that checks at once")
	}
}

// TestProofBatchKnownPoints: with the hand's audit in the batch, Check
// checks every lock key, deck point and re-key key against its value from
// the revealed seeds and an honest hand passes in that sum (ProofBatch.Known
// counts the points; 0 if the values were wrong and the bisection had to
// decide); with one or two bad proofs or shares at random places it still
// names exactly what checking one by one names (the seat, position and
// rule), by bisection over the items' own equations.
func TestProofBatchKnownPoints(t *testing.T) {
	lane.NoRace(t)
	tab := newTable(t, 4, "known")
	start := tab.states[0]
	audited := func(locks, rekeys, shares [][]byte) *ProofBatch {
		t.Helper()
		pb, err := NewProofBatch(nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := applyAll(start.DeferProofs(pb), locks, rekeys, shares)
		if err != nil {
			t.Fatalf("deferring hand rejected a well-formed message: %v", err)
		}
		if _, err := h.Audit(tab.seeds(), nil); err != nil {
			t.Fatalf("deferred audit failed at once: %v", err)
		}
		return pb
	}
	pb := audited(tab.locks, tab.rekeys, shareLists(t, tab, nil))
	if err := pb.Check(); err != nil {
		t.Fatalf("honest hand: %v", err)
	}
	if want := 4 * (1 + 3*DeckSize); pb.Known() != want {
		t.Fatalf("Check checked %d points against their known values, want %d (A_i, D_i, B_ij, E_i)", pb.Known(), want)
	}

	rng := rand.New(rand.NewPCG(40, 3))
	trials := 8
	if testing.Short() || raceEnabled {
		trials = 3
	}
	for trial := 0; trial < trials; trial++ {
		bad := randomBad(rng, trial, 6, 2)
		locks, rekeys := corrupt(t, tab, bad)
		shares := shareLists(t, tab, bad)
		_, strictErr := applyAll(start, locks, rekeys, shares)
		want := faultOf(t, strictErr)
		got := faultOf(t, audited(locks, rekeys, shares).Check())
		sameFault(t, bad, got, want)
	}
}

// randomBad draws trial's bad proofs for a 4-seat hand: one or two (by the
// trial's parity), each a bad lock proof with odds 1 in n, a bad share with
// odds shares in n, else a bad re-key proof, at a random seat and position.
func randomBad(rng *rand.Rand, trial, n, shares int) []badProof {
	var bad []badProof
	for k := 0; k < 1+trial%2; k++ {
		b := badProof{seat: rng.IntN(4), pos: rng.IntN(DeckSize)}
		switch r := rng.IntN(n); {
		case r == 0:
			b.lock, b.pos = true, -1
		case r <= shares:
			b.share = true
		}
		bad = append(bad, b)
	}
	return bad
}

// sameFault fails t unless the batch's fault got names what the one-by-one
// check's want names: the seat, the position and the rule.
func sameFault(t *testing.T, bad []badProof, got, want *blame.Fault) {
	t.Helper()
	if got.Seat != want.Seat || got.Pos != want.Pos || !errors.Is(got, want.Err) {
		t.Fatalf("%v: batch names seat %d pos %d (%v), one by one names seat %d pos %d (%v)",
			bad, got.Seat, got.Pos, got.Err, want.Seat, want.Pos, want.Err)
	}
}
