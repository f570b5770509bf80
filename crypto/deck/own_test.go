package deck

import (
	"testing"
)

// TestOwnMessages: a state applying the lock or re-key message its own Lock
// or Rekey made takes the state Lock or Rekey computed (the same *Hand: no
// decoding, no proof to check), while any other bytes, another seat's or a
// changed copy, are decoded and checked as always.
func TestOwnMessages(t *testing.T) {
	const n = 3
	rnd := newFixedRand("own")
	h, err := NewHand(testSession, 7, n)
	if err != nil {
		t.Fatal(err)
	}
	peer, err := NewHand(testSession, 7, n) // another seat's, which checks everything
	if err != nil {
		t.Fatal(err)
	}
	secrets := make([]*Secret, n)
	for i := range secrets {
		if secrets[i], err = NewSecret(testSession, 7, n, i, rnd); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		msg, own, err := h.Lock(secrets[i])
		if err != nil {
			t.Fatal(err)
		}
		bad := mutate(msg, func(b []byte) { b[len(b)-1] ^= 1 })
		if _, err := h.ApplyLock(i, bad); err == nil {
			t.Fatalf("seat %d: a changed copy of the own lock message was accepted", i)
		}
		// The caller changing the bytes it was given changes nothing kept.
		msg[len(msg)-1] ^= 1
		if _, err := h.ApplyLock(i, msg); err == nil {
			t.Fatalf("seat %d: the own lock message changed after Lock was accepted", i)
		}
		msg[len(msg)-1] ^= 1
		if i+1 < n {
			if _, err := h.ApplyLock(i+1, msg); err == nil {
				t.Fatalf("seat %d's lock message accepted for seat %d", i, i+1)
			}
		}
		got, err := h.ApplyLock(i, msg)
		if err != nil {
			t.Fatal(err)
		}
		if got != own {
			t.Fatalf("seat %d: own lock message decoded and checked again", i)
		}
		if peer, err = peer.ApplyLock(i, msg); err != nil {
			t.Fatal(err)
		}
		if peer == own || string(peer.Deck()) != string(own.Deck()) {
			t.Fatalf("seat %d: the peer's state is not its own or differs", i)
		}
		// A copy of the state (here one without lock proofs) does not use
		// the original's memo.
		if c, err := h.WithoutLockProofs().ApplyLock(i, msg); err != nil || c == own {
			t.Fatalf("seat %d: a copy of the state took the memo (%v)", i, err)
		}
		h = got
	}
	for i := 0; i < n; i++ {
		msg, own, err := h.Rekey(secrets[i], rnd)
		if err != nil {
			t.Fatal(err)
		}
		bad := mutate(msg, func(b []byte) { b[len(b)-1] ^= 1 })
		if _, err := h.ApplyRekey(i, bad, nil); err == nil {
			t.Fatalf("seat %d: a changed copy of the own re-key message was accepted", i)
		}
		got, err := h.ApplyRekey(i, msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got != own {
			t.Fatalf("seat %d: own re-key message decoded and checked again", i)
		}
		if peer, err = peer.ApplyRekey(i, msg, nil); err != nil {
			t.Fatal(err)
		}
		if peer == own || string(peer.Deck()) != string(own.Deck()) {
			t.Fatalf("seat %d: the peer's state is not its own or differs", i)
		}
		h = got
	}
	if !h.Ready() {
		t.Fatal("not ready")
	}
	if _, err := h.Audit([][]byte{secrets[0].Seed(), secrets[1].Seed(), secrets[2].Seed()}, nil); err != nil {
		t.Fatal(err)
	}
}
