package deck

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

var (
	fuzzOnce sync.Once
	fuzzTab  *table
)

func fuzzTable(tb testing.TB) *table {
	fuzzOnce.Do(func() { fuzzTab = newTable(tb, 2, "shared") })
	return fuzzTab
}

// sameDeferred checks that a hand deferring its proofs to a batch gives the
// one-by-one check's verdict: the same error at once, or acceptance and then
// the same error (or none) from the batch.
func sameDeferred(t *testing.T, strictErr error, start *Hand, apply func(*Hand) error) {
	t.Helper()
	pb, err := NewProofBatch(nil)
	if err != nil {
		t.Fatal(err)
	}
	derr := apply(start.DeferProofs(pb))
	if derr == nil {
		derr = pb.Check()
	}
	if fmt.Sprint(derr) != fmt.Sprint(strictErr) {
		t.Fatalf("deferred to a batch: %v; checked one by one: %v", derr, strictErr)
	}
}

// FuzzApplyLock: never panics; an accepted message round-trips: the
// accepted deck is exactly the message's elements. (Only the honest message
// itself can pass the shuffle proof; the fuzzer exercises every rejection.)
// A hand deferring its proofs to a batch gives the same verdict.
func FuzzApplyLock(f *testing.F) {
	tab := fuzzTable(f)
	f.Add(tab.locks[1])
	f.Add(tab.locks[1][:100])
	f.Fuzz(func(t *testing.T, msg []byte) {
		h, err := tab.states[1].ApplyLock(1, msg)
		sameDeferred(t, err, tab.states[1], func(d *Hand) error { _, e := d.ApplyLock(1, msg); return e })
		if err != nil {
			return
		}
		if !bytes.Equal(h.Deck(), msg[32:lockOf(DeckSize)]) {
			t.Fatal("accepted deck differs from the message")
		}
		k, _ := h.LockKey(1)
		if !bytes.Equal(k.Bytes(), msg[:32]) {
			t.Fatal("accepted key differs from the message")
		}
	})
}

// FuzzApplyRekey: never panics; an accepted message's deck round-trips.
// A hand deferring its proofs to a batch gives the same verdict.
func FuzzApplyRekey(f *testing.F) {
	tab := fuzzTable(f)
	f.Add(tab.rekeys[1])
	f.Add(tab.rekeys[0])
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, msg []byte) {
		h, err := tab.states[3].ApplyRekey(1, msg, newFixedRand("f"))
		sameDeferred(t, err, tab.states[3], func(d *Hand) error { _, e := d.ApplyRekey(1, msg, nil); return e })
		if err != nil {
			return
		}
		d := h.Deck()
		for j := 0; j < DeckSize; j++ {
			if !bytes.Equal(d[32*j:32*j+32], msg[j*RekeyEntrySize+32:j*RekeyEntrySize+64]) {
				t.Fatal("accepted deck differs from the message")
			}
		}
	})
}

func FuzzDecodeShares(f *testing.F) {
	tab := fuzzTable(f)
	l, _ := tab.hand.Shares(tab.secrets[0], []int{0, 7, 105})
	f.Add(l)
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := DecodeShares(b)
		if err != nil {
			return
		}
		out, err := EncodeShares(list)
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip: %x -> %x (%v)", b, out, err)
		}
		tab.hand.CheckShares(0, b) // must not panic
	})
}

func FuzzParseSecret(f *testing.F) {
	s, _ := NewSecret(testSession, 1, 4, 2, newFixedRand("fs"))
	b, _ := s.MarshalBinary()
	f.Add(b)
	f.Add([]byte{1, 2, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSecret(b)
		if err != nil {
			return
		}
		out, _ := s.MarshalBinary()
		if !bytes.Equal(out, b) {
			t.Fatalf("round trip: %x -> %x", b, out)
		}
	})
}

// FuzzOpen: arbitrary share bytes never panic Open, and an accepted opening
// is the tile the honest shares give.
func FuzzOpen(f *testing.F) {
	tab := fuzzTable(f)
	sh := tab.shares(f, 5)
	f.Add(5, sh[0], sh[1])
	f.Add(0, []byte{}, make([]byte, 32))
	f.Fuzz(func(t *testing.T, pos int, a, b []byte) {
		j, err := tab.hand.Open(pos, [][]byte{a, b})
		if err != nil {
			return
		}
		want, err := tab.hand.Open(pos, tab.shares(t, pos))
		if err != nil || j != want {
			t.Fatal("accepted shares open to another tile")
		}
	})
}
