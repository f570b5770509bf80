package deck

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
)

// fixedRand is a deterministic byte stream: SHA-512(label || counter) blocks.
type fixedRand struct {
	label string
	ctr   uint64
	buf   []byte
}

func newFixedRand(label string) *fixedRand { return &fixedRand{label: label} }

func (r *fixedRand) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(r.buf) == 0 {
			h := sha512.New()
			h.Write([]byte(r.label))
			h.Write(binary.BigEndian.AppendUint64(nil, r.ctr))
			r.ctr++
			r.buf = h.Sum(nil)
		}
		c := copy(p, r.buf)
		r.buf, p = r.buf[c:], p[c:]
	}
	return n, nil
}

var testSession = []byte("test-session-0001")

// table runs a whole honest hand for n players and returns the final state,
// the secrets and the intermediate messages.
type table struct {
	hand    *Hand
	secrets []*Secret
	locks   [][]byte
	rekeys  [][]byte
	states  []*Hand // state before each lock step, then before each re-key step
}

var (
	tablesMu sync.Mutex
	tables   = map[string]*table{}
)

// newTable returns the honest hand for n players and label, computed once
// per test binary (tests only read it).
func newTable(tb testing.TB, n int, label string) *table {
	tb.Helper()
	tablesMu.Lock()
	defer tablesMu.Unlock()
	key := fmt.Sprint(n, "/", label)
	if t, ok := tables[key]; ok {
		return t
	}
	t := makeTable(tb, n, label)
	tables[key] = t
	return t
}

func makeTable(tb testing.TB, n int, label string) *table {
	tb.Helper()
	rnd := newFixedRand(label)
	h, err := NewHand(testSession, 7, n)
	if err != nil {
		tb.Fatal(err)
	}
	t := &table{}
	for i := 0; i < n; i++ {
		s, err := NewSecret(testSession, 7, n, i, rnd)
		if err != nil {
			tb.Fatal(err)
		}
		t.secrets = append(t.secrets, s)
	}
	for i := 0; i < n; i++ {
		t.states = append(t.states, h)
		msg, own, err := detached(h).Lock(t.secrets[i])
		if err != nil {
			tb.Fatal(err)
		}
		t.locks = append(t.locks, msg)
		if h, err = h.ApplyLock(i, msg); err != nil {
			tb.Fatal(err)
		}
		if string(own.Deck()) != string(h.Deck()) {
			tb.Fatal("sender's state differs from receiver's")
		}
	}
	for i := 0; i < n; i++ {
		t.states = append(t.states, h)
		msg, own, err := detached(h).Rekey(t.secrets[i], rnd)
		if err != nil {
			tb.Fatal(err)
		}
		t.rekeys = append(t.rekeys, msg)
		if h, err = h.ApplyRekey(i, msg, rnd); err != nil {
			tb.Fatal(err)
		}
		if string(own.Deck()) != string(h.Deck()) {
			tb.Fatal("sender's state differs from receiver's")
		}
	}
	t.hand = h
	return t
}

// detached returns a copy of h that does not share h's memory of the
// message its own Lock or Rekey made (Hand.recall): a message made from the
// copy is decoded and checked by h's ApplyLock and ApplyRekey, as by any
// other seat's, and the table's states (each seat's message made from a
// copy) check every message.
func detached(h *Hand) *Hand {
	c := *h
	return &c
}

func (t *table) shares(tb testing.TB, pos int) [][]byte {
	tb.Helper()
	out := make([][]byte, len(t.secrets))
	for i, s := range t.secrets {
		b, err := t.hand.Share(s, pos)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

func (t *table) seeds() [][]byte {
	out := make([][]byte, len(t.secrets))
	for i, s := range t.secrets {
		out[i] = s.Seed()
	}
	return out
}
