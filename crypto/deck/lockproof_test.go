package deck

import (
	"bytes"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/crypto/shuffle"
	"github.com/okey-game/okey/internal/lane"
)

// lockParts splits a lock message into its key, deck and proof.
func lockParts(t *testing.T, msg []byte) (*group.Point, []group.Point, []byte) {
	t.Helper()
	key, err := group.DecodePoint(msg[:32])
	if err != nil {
		t.Fatal(err)
	}
	deck, _, err := group.DecodePoints(msg[32:lockOf(DeckSize)], DeckSize)
	if err != nil {
		t.Fatal(err)
	}
	return key, deck, msg[lockOf(DeckSize):]
}

// lockMessage encodes a lock message.
func lockMessage(key *group.Point, deck []group.Point, proof []byte) []byte {
	msg := append([]byte(nil), key.Bytes()...)
	for k := range deck {
		msg = append(msg, deck[k].Bytes()...)
	}
	return append(msg, proof...)
}

// forge runs the real prover, without its witness check, on a statement
// that may be false: the strongest generic cheater, who has the honest
// witness for most of it. (shuffle.Prove itself refuses a false statement.)
func forge(t *testing.T, ctx []byte, key *group.Point, in, out []group.Point, s *Secret) []byte {
	t.Helper()
	perm := make([]int, DeckSize)
	for k := range perm {
		perm[k] = int(s.perm[k])
	}
	st := &shuffle.Statement{Context: ctx, Key: key, In: in, Out: out}
	proof, err := shuffle.ProveUnchecked(st, &shuffle.Witness{Scalar: &s.a, Perm: perm}, s.lockProofKey())
	if err != nil {
		t.Fatal(err)
	}
	return proof
}

func mul(a *ristretto255.Scalar, p *group.Point) group.Point {
	q, err := group.NewPoint(ristretto255.NewIdentityElement().ScalarMult(a, p.Element()))
	if err != nil {
		panic(err)
	}
	return *q
}

// TestLockProofRefusesBadShuffles: every way of breaking
// D_i[k] = a_i*D_{i-1}[P_i[k]] is refused at the lock step with the sender
// named, both with the honest proof left on the message and with a proof
// the cheater made for its dishonest deck.
func TestLockProofRefusesBadShuffles(t *testing.T) {
	lane.NoRace(t)       // shuffle arguments checked one by one, no goroutine: the batch's parallel terms run under the race detector in the ProofBatch tests
	const n, seat = 3, 2 // the last locker: the one that could learn tiles
	tab := newTable(t, n, "shared")
	h, s := tab.states[seat], tab.secrets[seat]
	key, honest, proof := lockParts(t, tab.locks[seat])
	in := h.lockInput(seat)
	ctx := LockContext(testSession, 7, n, seat)
	other, _ := NewHand(testSession, 8, n) // another hand's tile points
	two := ristretto255.NewScalar().Add(&s.a, &s.a)
	var sum group.Point
	if err := sum.Set(ristretto255.NewIdentityElement().Add(honest[1].Element(), honest[2].Element())); err != nil {
		t.Fatal(err)
	}
	junk, _ := group.NewPoint(group.NewTranscript("test/junk").Element())
	cases := map[string]func(d []group.Point){
		"junk element":          func(d []group.Point) { d[5] = *junk },
		"element times 2a":      func(d []group.Point) { d[5] = mul(two, &in[s.perm[5]]) },
		"substituted tile":      func(d []group.Point) { d[5] = mul(&s.a, other.TilePoint(int(s.perm[5]))) },
		"learn-tiles sum":       func(d []group.Point) { d[0] = sum },
		"two elements swapped":  func(d []group.Point) { d[3], d[4] = d[4], d[3] },
		"element from the past": func(d []group.Point) { d[9] = in[s.perm[9]] },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			d := append([]group.Point(nil), honest...)
			change(d)
			_, err := h.ApplyLock(seat, lockMessage(key, d, proof))
			wantFault(t, err, ErrShuffleProof, seat, -1)
			_, err = h.ApplyLock(seat, lockMessage(key, d, forge(t, ctx, key, in, d, s)))
			wantFault(t, err, ErrShuffleProof, seat, -1)
		})
	}
	t.Run("dropped and duplicated tile", func(t *testing.T) {
		d := append([]group.Point(nil), honest...)
		d[6] = d[5]
		_, err := h.ApplyLock(seat, lockMessage(key, d, forge(t, ctx, key, in, d, s)))
		wantFault(t, err, ErrDuplicate, seat, 6) // the form check comes first
		st := &shuffle.Statement{Context: ctx, Key: key, In: in, Out: d}
		if err := shuffle.Verify(st, forge(t, ctx, key, in, d, s)); err == nil {
			t.Fatal("the proof accepts a duplicated tile")
		}
	})
	t.Run("proof from another hand, seat, session or deck", func(t *testing.T) {
		for name, c := range map[string][]byte{
			"hand":    LockContext(testSession, 8, n, seat),
			"seat":    LockContext(testSession, 7, n, 1),
			"session": LockContext([]byte("another-session"), 7, n, seat),
			"players": LockContext(testSession, 7, n+1, seat),
		} {
			_, err := h.ApplyLock(seat, lockMessage(key, honest, forge(t, c, key, in, honest, s)))
			if err == nil {
				t.Fatalf("%s: accepted", name)
			}
			wantFault(t, err, ErrShuffleProof, seat, -1)
		}
		// The same seat's honest lock of another table's deck: its proof
		// speaks of another D_{i-1}.
		ot := newTable(t, n, "other")
		_, _, otherProof := lockParts(t, ot.locks[seat])
		_, err := h.ApplyLock(seat, lockMessage(key, honest, otherProof))
		wantFault(t, err, ErrShuffleProof, seat, -1)
		d := make([]group.Point, DeckSize)
		oin := ot.states[seat].lockInput(seat)
		for k := range d {
			d[k] = mul(&s.a, &oin[s.perm[k]])
		}
		_, err = h.ApplyLock(seat, lockMessage(key, honest, forge(t, ctx, key, oin, d, s)))
		wantFault(t, err, ErrShuffleProof, seat, -1)
	})
	t.Run("proof for a different key", func(t *testing.T) {
		// Seat 0's published key in place of the sender's, proof unchanged
		// or re-made for it: the sender does not know seat 0's scalar.
		k0, _ := h.LockKey(0)
		_, err := h.ApplyLock(seat, lockMessage(k0, honest, proof))
		wantFault(t, err, ErrShuffleProof, seat, -1)
		_, err = h.ApplyLock(seat, lockMessage(k0, honest, forge(t, ctx, k0, in, honest, s)))
		wantFault(t, err, ErrShuffleProof, seat, -1)
		// A deck locked with another scalar than the key's.
		d := make([]group.Point, DeckSize)
		for k := range d {
			d[k] = mul(two, &in[s.perm[k]])
		}
		_, err = h.ApplyLock(seat, lockMessage(key, d, forge(t, ctx, key, in, d, s)))
		wantFault(t, err, ErrShuffleProof, seat, -1)
	})
	if h.NextLock() != seat {
		t.Fatal("a refused message changed the receiver")
	}
}

// TestLockProofEveryByte flips bytes all over the proof in turn (every
// seventh, and the last one): each is refused.
func TestLockProofEveryByte(t *testing.T) {
	lane.NoRace(t) // shuffle arguments checked one by one, no goroutine: the batch's parallel terms run under the race detector in the ProofBatch tests
	const seat = 1
	tab := newTable(t, 2, "shared")
	h, msg := tab.states[seat], tab.locks[seat]
	// Every seventh byte of the proof, the bit flipped turning with the
	// position (7 and 8 are coprime: every bit place is reached); -short
	// every 61st. Each is a whole check of the argument: 1,006 of them.
	stride := 7
	if testing.Short() {
		stride = 61
	}
	for i := lockOf(DeckSize); i < len(msg); i += stride {
		bad := mutate(msg, func(b []byte) { b[i] ^= 0x01 << (i % 8) })
		if _, err := h.ApplyLock(seat, bad); err == nil {
			t.Fatalf("proof byte %d flipped: accepted", i-lockOf(DeckSize))
		} else {
			wantFault(t, err, ErrShuffleProof, seat, -1)
		}
	}
	bad := mutate(msg, func(b []byte) { b[len(b)-1] ^= 0x40 })
	_, err := h.ApplyLock(seat, bad)
	wantFault(t, err, ErrShuffleProof, seat, -1)
}

// TestLockProofCompleteness: for 2 to 8 seats every honest lock message is
// accepted by the others, and the proof is the same bytes when made again
// (a restarted peer repeats itself).
func TestLockProofCompleteness(t *testing.T) {
	lane.NoRace(t) // shuffle arguments made and checked one by one, no goroutine
	counts := []int{2, 3, 4, 5, 6, 7, 8}
	if raceEnabled {
		counts = []int{2, 8}
	}
	for _, n := range counts {
		rnd := newFixedRand("complete")
		h, err := NewHand(testSession, 3, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			s, err := NewSecret(testSession, 3, n, i, rnd)
			if err != nil {
				t.Fatal(err)
			}
			msg, _, err := h.Lock(s)
			if err != nil {
				t.Fatal(err)
			}
			if len(msg) != LockMessageSize {
				t.Fatalf("n=%d seat %d: lock message of %d bytes", n, i, len(msg))
			}
			if again, _, _ := h.Lock(s); i == n-1 && !bytes.Equal(msg, again) {
				t.Fatalf("n=%d seat %d: lock message not deterministic", n, i)
			}
			if h, err = h.ApplyLock(i, msg); err != nil {
				t.Fatalf("n=%d seat %d: %v", n, i, err)
			}
		}
	}
	if LockProofSize != shuffle.Size(DeckSize) {
		t.Fatalf("LockProofSize %d, shuffle.Size %d", LockProofSize, shuffle.Size(DeckSize))
	}
}

// TestLearnTilesAttack shows the attack the lock proof exists for is real:
// with the proof check switched off, the last locker that puts
// a*(D[x]+D[y]) at position 0 learns, once position 0 is opened to it, the
// tiles at positions 1 and 2 by a search over the 5,565 pairs of tile
// points. With the check on, the message is refused before any tile opens.
func TestLearnTilesAttack(t *testing.T) {
	const n, cheat = 3, 2
	rnd := newFixedRand("learn")
	proven, _ := NewHand(testSession, 7, n)
	h := proven.WithoutLockProofs()
	secrets := make([]*Secret, n)
	for i := range secrets {
		secrets[i], _ = NewSecret(testSession, 7, n, i, rnd)
	}
	for i := 0; i < n; i++ {
		msg, _, err := h.Lock(secrets[i])
		if err != nil {
			t.Fatal(err)
		}
		if i == cheat {
			key, d, proof := lockParts(t, msg)
			if err := d[0].Set(ristretto255.NewIdentityElement().Add(d[1].Element(), d[2].Element())); err != nil {
				t.Fatal(err)
			}
			msg = lockMessage(key, d, proof)
			_, err := proven.ApplyLock(i, msg)
			wantFault(t, err, ErrShuffleProof, cheat, -1)
		} else if proven, err = proven.ApplyLock(i, msg); err != nil {
			t.Fatal(err)
		}
		if h, err = h.ApplyLock(i, msg); err != nil {
			t.Fatalf("form checks alone accept the sum: %v", err)
		}
	}
	for i := 0; i < n; i++ {
		msg, _, err := h.Rekey(secrets[i], rnd)
		if err != nil {
			t.Fatal(err)
		}
		if h, err = h.ApplyRekey(i, msg, rnd); err != nil {
			t.Fatal(err)
		}
	}
	shares := func(pos int) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			out[i], _ = h.Share(secrets[i], pos)
		}
		return out
	}
	// Position 0 is dealt to the cheater: it unblinds the point with every
	// share, as Open does, and finds a sum of two tile points.
	prod := ristretto255.NewScalar()
	for seat, sh := range shares(0) {
		b, err := h.checkShare(seat, 0, sh)
		if err != nil {
			t.Fatal(err)
		}
		if seat == 0 {
			prod.Set(b)
		} else {
			prod.Multiply(prod, b)
		}
	}
	opened := ristretto255.NewIdentityElement().ScalarMult(prod.Invert(prod), h.rekeys[n-1].deck[0].Element())
	found, tries := [][2]int{}, 0
	var sumUV ristretto255.Element
	for u := 0; u < DeckSize; u++ {
		for v := u + 1; v < DeckSize; v++ {
			tries++
			if sumUV.Add(h.tiles.points[u].Element(), h.tiles.points[v].Element()).Equal(opened) == 1 {
				found = append(found, [2]int{u, v})
			}
		}
	}
	if tries != 5565 || len(found) != 1 {
		t.Fatalf("%d pairs searched, %d found, want 5565 and 1", tries, len(found))
	}
	t1, err1 := h.Open(1, shares(1))
	t2, err2 := h.Open(2, shares(2))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if got := [2]int{min(t1, t2), max(t1, t2)}; got != found[0] {
		t.Fatalf("the search names tiles %v, positions 1 and 2 hold %v", found[0], got)
	}
}
