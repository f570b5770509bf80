package deck

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/blame"
	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/internal/lane"
)

// wantFault checks that err is a *blame.Fault for seat (and pos, unless
// pos is -2) wrapping rule.
func wantFault(t *testing.T, err error, rule error, seat, pos int) {
	t.Helper()
	var f *blame.Fault
	if !errors.As(err, &f) {
		t.Fatalf("got %v, want a fault for seat %d", err, seat)
	}
	if !errors.Is(err, rule) || f.Seat != seat || (pos != -2 && f.Pos != pos) {
		t.Fatalf("got %v (seat %d, pos %d), want %v for seat %d pos %d", err, f.Seat, f.Pos, rule, seat, pos)
	}
}

func mutate(b []byte, f func([]byte)) []byte {
	c := append([]byte(nil), b...)
	f(c)
	return c
}

// lockOf returns the offset of deck element k in a lock message.
func lockOf(k int) int { return group.PointSize * (1 + k) }

func TestApplyLockRejects(t *testing.T) {
	tab := newTable(t, 3, "shared")
	h, msg := tab.states[1], tab.locks[1]
	if _, err := h.ApplyLock(1, msg); err != nil {
		t.Fatalf("honest: %v", err)
	}
	if _, err := h.ApplyLock(2, msg); !errors.Is(err, ErrWrongStep) {
		t.Errorf("wrong seat: %v", err)
	}
	t.Run("missing element", func(t *testing.T) {
		_, err := h.ApplyLock(1, msg[:len(msg)-group.PointSize])
		wantFault(t, err, ErrEncoding, 1, -1)
	})
	t.Run("extra element", func(t *testing.T) {
		_, err := h.ApplyLock(1, append(append([]byte(nil), msg...), msg[lockOf(0):lockOf(1)]...))
		wantFault(t, err, ErrEncoding, 1, -1)
	})
	t.Run("identity key", func(t *testing.T) {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) { copy(b, make([]byte, 32)) }))
		wantFault(t, err, ErrIdentity, 1, -1)
	})
	t.Run("identity element", func(t *testing.T) {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) { copy(b[lockOf(40):], make([]byte, 32)) }))
		wantFault(t, err, ErrIdentity, 1, 40)
	})
	t.Run("non-canonical element", func(t *testing.T) {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) { b[lockOf(77)+31] |= 0x80 }))
		wantFault(t, err, ErrEncoding, 1, 77)
	})
	t.Run("lowest bad position reported", func(t *testing.T) {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) {
			b[lockOf(100)+31] |= 0x80
			b[lockOf(3)+31] |= 0x80
		}))
		wantFault(t, err, ErrEncoding, 1, 3)
	})
	t.Run("duplicated element", func(t *testing.T) {
		_, err := h.ApplyLock(1, mutate(msg, func(b []byte) { copy(b[lockOf(90):lockOf(91)], b[lockOf(12):lockOf(13)]) }))
		wantFault(t, err, ErrDuplicate, 1, 90)
	})
	// The receiver is unchanged by a rejected message.
	if h.NextLock() != 1 {
		t.Fatal("receiver changed")
	}
}

// rekeyEntry returns the offset of position j's entry.
func rekeyEntry(j int) int { return j * RekeyEntrySize }

func TestApplyRekeyRejects(t *testing.T) {
	tab := newTable(t, 3, "shared")
	h, msg := tab.states[3+1], tab.rekeys[1]
	rnd := newFixedRand("v")
	if _, err := h.ApplyRekey(1, msg, rnd); err != nil {
		t.Fatalf("honest: %v", err)
	}
	if _, err := h.ApplyRekey(0, msg, rnd); !errors.Is(err, ErrWrongStep) {
		t.Errorf("wrong seat: %v", err)
	}
	t.Run("short", func(t *testing.T) {
		_, err := h.ApplyRekey(1, msg[:len(msg)-1], rnd)
		wantFault(t, err, ErrEncoding, 1, -1)
	})
	t.Run("forged proof", func(t *testing.T) {
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) { b[rekeyEntry(50)+RekeyEntrySize-32] ^= 1 }), rnd)
		wantFault(t, err, ErrProof, 1, 50)
	})
	t.Run("proof replayed from another tile", func(t *testing.T) {
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) {
			copy(b[rekeyEntry(60)+64:rekeyEntry(61)], msg[rekeyEntry(61)+64:rekeyEntry(62)])
		}), rnd)
		wantFault(t, err, ErrProof, 1, 60)
	})
	t.Run("whole entries swapped", func(t *testing.T) {
		// Each entry is a valid proof, but for the other position's context
		// and input element.
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) {
			copy(b[rekeyEntry(8):rekeyEntry(9)], msg[rekeyEntry(9):rekeyEntry(10)])
			copy(b[rekeyEntry(9):rekeyEntry(10)], msg[rekeyEntry(8):rekeyEntry(9)])
		}), rnd)
		wantFault(t, err, ErrProof, 1, 8)
	})
	t.Run("substituted output element", func(t *testing.T) {
		// Junk E_i[j] with the original proof.
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) {
			copy(b[rekeyEntry(20)+32:rekeyEntry(20)+64], ristretto255.NewGeneratorElement().Bytes())
		}), rnd)
		wantFault(t, err, ErrProof, 1, 20)
	})
	t.Run("identity key point", func(t *testing.T) {
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) { copy(b[rekeyEntry(5):], make([]byte, 32)) }), rnd)
		wantFault(t, err, ErrIdentity, 1, 5)
	})
	t.Run("non-canonical scalar", func(t *testing.T) {
		_, err := h.ApplyRekey(1, mutate(msg, func(b []byte) { b[rekeyEntry(6)+RekeyEntrySize-1] = 0xff }), rnd)
		wantFault(t, err, ErrEncoding, 1, 6)
	})
	t.Run("message of another seat", func(t *testing.T) {
		// Seat 2's state expects seat 2; seat 1's message replayed as seat 2.
		h2 := tab.states[3+2]
		_, err := h2.ApplyRekey(2, msg, rnd)
		wantFault(t, err, ErrProof, 2, 0)
	})
}

// TestProofBinding checks that a re-key proof verifies only in its own
// context: another tile, seat, hand or session makes it fail.
func TestProofBinding(t *testing.T) {
	lane.NoRace(t)
	tab := newTable(t, 2, "shared")
	h := tab.states[2+1]
	const seat, j = 1, 9
	e := tab.rekeys[seat][rekeyEntry(j):]
	bp, _ := group.DecodePoint(e[:32])
	ep, _ := group.DecodePoint(e[32:64])
	proof, err := dleq.DecodeProof(e[64:RekeyEntrySize])
	if err != nil {
		t.Fatal(err)
	}
	in := h.rekeyInput(seat)
	st := &dleq.Statement{G1: &h.locks[seat].key, H1: bp, G2: &in[j], H2: ep}
	if err := dleq.Verify(RekeyContext(testSession, 7, seat, j), st, proof); err != nil {
		t.Fatalf("own context: %v", err)
	}
	for name, ctx := range map[string][]byte{
		"other tile":    RekeyContext(testSession, 7, seat, j+1),
		"other seat":    RekeyContext(testSession, 7, 0, j),
		"other hand":    RekeyContext(testSession, 8, seat, j),
		"other session": RekeyContext([]byte("test-session-0002"), 7, seat, j),
	} {
		if err := dleq.Verify(ctx, st, proof); !errors.Is(err, dleq.ErrInvalidProof) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestShares(t *testing.T) {
	tab := newTable(t, 3, "shared")
	h := tab.hand
	shares := tab.shares(t, 4)
	if err := h.CheckShare(2, 4, shares[2]); err != nil {
		t.Fatalf("honest share: %v", err)
	}
	t.Run("wrong key share", func(t *testing.T) {
		other, _ := h.Share(tab.secrets[2], 5)
		wantFault(t, h.CheckShare(2, 4, other), ErrShare, 2, 4)
		bad := append([][]byte(nil), shares...)
		bad[2] = other
		_, err := h.Open(4, bad)
		wantFault(t, err, ErrShare, 2, 4)
	})
	t.Run("another seat's share", func(t *testing.T) {
		wantFault(t, h.CheckShare(1, 4, shares[2]), ErrShare, 1, 4)
	})
	t.Run("zero share", func(t *testing.T) {
		wantFault(t, h.CheckShare(0, 4, make([]byte, 32)), ErrEncoding, 0, 4)
	})
	t.Run("non-canonical share", func(t *testing.T) {
		wantFault(t, h.CheckShare(0, 4, bytes.Repeat([]byte{0xff}, 32)), ErrEncoding, 0, 4)
	})
	t.Run("share list", func(t *testing.T) {
		list, err := h.Shares(tab.secrets[1], []int{0, 4, 105})
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.CheckShares(1, list)
		if err != nil || len(got) != 3 || got[2].Pos != 105 || !bytes.Equal(got[1].Key, shares[1]) {
			t.Fatalf("CheckShares: %v", err)
		}
		_, err = h.CheckShares(0, list)
		wantFault(t, err, ErrShare, 0, 0)
		if _, err := h.Shares(tab.secrets[1], []int{4, 4}); !errors.Is(err, ErrParams) {
			t.Errorf("repeated position: %v", err)
		}
	})
}

func TestDecodeSharesRejects(t *testing.T) {
	good, err := EncodeShares([]Share{{Pos: 1, Key: bytes.Repeat([]byte{1}, 32)}, {Pos: 2, Key: bytes.Repeat([]byte{2}, 32)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeShares(good); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"empty":         {},
		"zero count":    {0},
		"count too big": append([]byte{107}, make([]byte, 107*33)...),
		"short":         good[:len(good)-1],
		"long":          append(append([]byte(nil), good...), 0),
		"unordered":     mutate(good, func(b []byte) { b[1], b[34] = 2, 1 }),
		"repeated":      mutate(good, func(b []byte) { b[34] = 1 }),
		"position 106":  mutate(good, func(b []byte) { b[34] = 106 }),
		"zero share":    mutate(good, func(b []byte) { copy(b[2:34], make([]byte, 32)) }),
		"noncanonical":  mutate(good, func(b []byte) { copy(b[2:34], bytes.Repeat([]byte{0xff}, 32)) }),
	} {
		if _, err := DecodeShares(b); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

// TestJunkElement: a shuffler substitutes a junk element for one of its
// outputs. The shuffle proof refuses it at once; with the proof check
// switched off (the second line of defence alone) receivers cannot tell (it
// is a valid, distinct point); it surfaces when that tile is opened, and the
// audit blames the shuffler.
func TestJunkElement(t *testing.T) {
	const n, cheat, junkPos = 3, 1, 33
	rnd := newFixedRand("junk")
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
			junk := ristretto255.NewIdentityElement().ScalarBaseMult(uniformScalar(bytes.Repeat([]byte{9}, 64)))
			copy(msg[lockOf(junkPos):], junk.Bytes())
			_, err := proven.ApplyLock(i, msg)
			wantFault(t, err, ErrShuffleProof, cheat, -1)
		}
		if i < cheat {
			if proven, err = proven.ApplyLock(i, msg); err != nil {
				t.Fatal(err)
			}
		}
		if h, err = h.ApplyLock(i, msg); err != nil {
			t.Fatalf("receivers must accept a valid junk point: %v", err)
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
	seeds := make([][]byte, n)
	for i := range seeds {
		seeds[i] = secrets[i].Seed()
	}
	// The junk sits at the final position j with P_2[j] = junkPos (seat 2
	// shuffled after the cheater); that position opens to junk, the others
	// to tiles.
	junkAt := -1
	for j, k := range secrets[2].perm {
		if int(k) == junkPos {
			junkAt = j
		}
	}
	open := func(pos int) error {
		shares := make([][]byte, n)
		for i := range shares {
			shares[i], _ = h.Share(secrets[i], pos)
		}
		_, err := h.Open(pos, shares)
		return err
	}
	err := open(junkAt)
	var je *JunkError
	if !errors.As(err, &je) || je.Pos != junkAt || !errors.Is(err, ErrJunk) {
		t.Fatalf("position %d: got %v, want a junk error", junkAt, err)
	}
	if err := open((junkAt + 1) % DeckSize); err != nil {
		t.Fatalf("honest position: %v", err)
	}
	_, err = h.Audit(seeds, rnd)
	wantFault(t, err, ErrLockAudit, cheat, junkPos)
}

func TestAuditRejects(t *testing.T) {
	tab := newTable(t, 3, "shared")
	rnd := newFixedRand("w")
	if _, err := tab.hand.Audit(tab.seeds(), rnd); err != nil {
		t.Fatal(err)
	}
	t.Run("wrong seed", func(t *testing.T) {
		seeds := tab.seeds()
		seeds[2][0] ^= 1
		_, err := tab.hand.Audit(seeds, rnd)
		wantFault(t, err, ErrRevealedSeed, 2, -1)
	})
	t.Run("short seed", func(t *testing.T) {
		seeds := tab.seeds()
		seeds[1] = seeds[1][:31]
		_, err := tab.hand.Audit(seeds, rnd)
		wantFault(t, err, ErrEncoding, 1, -1)
	})
	t.Run("other permutation", func(t *testing.T) {
		// Seat 1 locks with its key but a permutation not derived from its
		// seed: receivers accept it, the audit does not.
		s := *tab.secrets[1]
		s.perm[0], s.perm[1] = s.perm[1], s.perm[0]
		h := tab.states[1]
		msg, _, err := h.Lock(&s)
		if err != nil {
			t.Fatal(err)
		}
		h = replay(t, h, 1, msg, tab)
		_, err = h.Audit(tab.seeds(), rnd)
		wantFault(t, err, ErrLockAudit, 1, 0)
	})
	t.Run("re-key scalars from another seed", func(t *testing.T) {
		// Seat 2 re-keys with valid proofs but b_2j not derived from its
		// seed: its shares still check against its B_2j, the audit fails it.
		s := *tab.secrets[2]
		s.seed[0] ^= 1
		h := tab.states[3+2]
		msg, _, err := h.Rekey(&s, rnd)
		if err != nil {
			t.Fatal(err)
		}
		if h, err = h.ApplyRekey(2, msg, rnd); err != nil {
			t.Fatal(err)
		}
		_, err = h.Audit(tab.seeds(), rnd)
		wantFault(t, err, ErrRekeyAudit, 2, 0)
	})
}

// replay applies msg as seat's lock on h and runs the rest of the hand
// honestly with tab's secrets.
func replay(t *testing.T, h *Hand, seat int, msg []byte, tab *table) *Hand {
	t.Helper()
	h, err := h.ApplyLock(seat, msg)
	if err != nil {
		t.Fatal(err)
	}
	rnd := newFixedRand("replay")
	for i := seat + 1; i < h.players; i++ {
		if _, h, err = h.Lock(tab.secrets[i]); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < h.players; i++ {
		if _, h, err = h.Rekey(tab.secrets[i], rnd); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func TestSecretEncoding(t *testing.T) {
	s, err := NewSecret(testSession, 9, 4, 3, newFixedRand("secret"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.MarshalBinary()
	s2, err := ParseSecret(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := s2.MarshalBinary()
	if !bytes.Equal(b, b2) || s2.a.Equal(&s.a) != 1 || s2.perm != s.perm || s2.Seat() != 3 {
		t.Fatal("secret round trip differs")
	}
	for name, bad := range map[string][]byte{
		"version":    mutate(b, func(b []byte) { b[0] = 2 }),
		"seat":       mutate(b, func(b []byte) { b[2] = 4 }),
		"players":    mutate(b, func(b []byte) { b[1] = 1 }),
		"short":      b[:len(b)-1],
		"long":       append(append([]byte(nil), b...), 0),
		"empty":      {},
		"no session": mutate(b[:8+32], func(b []byte) { b[7] = 0 }),
	} {
		if _, err := ParseSecret(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	h, _ := NewHand(testSession, 8, 4)
	if _, _, err := h.Lock(s); !errors.Is(err, ErrWrongSecret) {
		t.Errorf("secret of another hand: %v", err)
	}
}

func TestWrongStep(t *testing.T) {
	tab := newTable(t, 2, "shared")
	h0 := tab.states[0]
	if _, _, err := h0.Lock(tab.secrets[1]); !errors.Is(err, ErrWrongStep) {
		t.Errorf("lock out of turn: %v", err)
	}
	if _, _, err := h0.Rekey(tab.secrets[0], nil); !errors.Is(err, ErrWrongStep) {
		t.Errorf("re-key before locking: %v", err)
	}
	if _, err := h0.Open(0, tab.shares(t, 0)); !errors.Is(err, ErrWrongStep) {
		t.Errorf("open before the deck is ready: %v", err)
	}
	if _, err := h0.Audit(tab.seeds(), nil); !errors.Is(err, ErrWrongStep) {
		t.Errorf("audit before the deck is ready: %v", err)
	}
	if _, err := NewHand(nil, 1, 2); !errors.Is(err, ErrParams) {
		t.Errorf("empty session: %v", err)
	}
	if _, err := NewHand(testSession, 1, 1); !errors.Is(err, ErrParams) {
		t.Errorf("one player: %v", err)
	}
}
