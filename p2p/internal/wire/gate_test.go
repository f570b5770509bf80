package wire

import (
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestGate: the gate's policy, step by step (perPeer 2, total 4).
func TestGate(t *testing.T) {
	g := NewGate(2, 4)
	var evicted []string
	enter := func(p peer.ID, name string) *Ticket {
		tk, _ := g.Enter(p, func() { evicted = append(evicted, name) })
		return tk
	}
	held := func(p peer.ID) int { k, _ := g.Streams(p); return k }
	all := func() int { _, n := g.Streams(""); return n }
	a, b, c, d, e := peer.ID("a"), peer.ID("b"), peer.ID("c"), peer.ID("d"), peer.ID("e")

	a1, a2 := enter(a, "a1"), enter(a, "a2")
	if a1 == nil || a2 == nil {
		t.Fatal("a's first two streams refused")
	}
	// Per-peer cap: a third stream of a is refused, whatever room is left.
	if tk, why := g.Enter(a, func() { t.Fatal("evicted") }); tk != nil || !strings.Contains(why, "of one peer") {
		t.Fatalf("a's third stream: %v %q", tk, why)
	}
	b1, c1 := enter(b, "b1"), enter(c, "c1")
	if b1 == nil || c1 == nil || all() != 4 {
		t.Fatalf("b and c refused, %d held", all())
	}
	// Full. A newcomer that holds nothing takes the oldest waiting stream
	// of the peer holding the most (a, 2 streams): a1.
	d1 := enter(d, "d1")
	if d1 == nil || len(evicted) != 1 || evicted[0] != "a1" || held(a) != 1 || all() != 4 {
		t.Fatalf("d's stream: %v, evicted %v, a holds %d, %d in all", d1, evicted, held(a), all())
	}
	// The evicted stream's request, should it come now, is not served, and
	// its leave frees nothing more.
	if g.Served(a1) {
		t.Fatal("an evicted stream was served")
	}
	g.Leave(a1)
	if all() != 4 || held(a) != 1 {
		t.Fatalf("the evicted stream's leave freed a place: %d, a %d", all(), held(a))
	}
	// Everyone holds one now: a newcomer with none takes the oldest (a2).
	e1 := enter(e, "e1")
	if e1 == nil || evicted[len(evicted)-1] != "a2" || held(a) != 0 {
		t.Fatalf("e's stream: evicted %v", evicted)
	}
	// A second stream of e (e holds 1, as does everyone) takes no place.
	if tk, why := g.Enter(e, func() {}); tk != nil || !strings.Contains(why, "places taken") {
		t.Fatalf("e's second stream: %v %q", tk, why)
	}
	// A stream that has delivered its request is never evicted: with b, c,
	// d and e all served, a newcomer finds no place.
	for _, tk := range []*Ticket{b1, c1, d1, e1} {
		if !g.Served(tk) {
			t.Fatal("a held stream was not served")
		}
	}
	if tk, _ := g.Enter(a, func() {}); tk != nil {
		t.Fatal("a served stream lost its place")
	}
	g.Leave(b1)
	if tk := enter(a, "a3"); tk == nil || all() != 4 {
		t.Fatalf("a freed place not given: %d", all())
	}
	if got, want := g.OverCap.Load(), uint64(3); got != want {
		t.Fatalf("overCap %d, want %d", got, want)
	}
	if got := g.Evicted.Load(); got != 2 {
		t.Fatalf("evicted %d, want 2", got)
	}
	for _, tk := range []*Ticket{c1, d1, e1} {
		g.Leave(tk)
	}
	if all() != 1 || held(a) != 1 || len(g.waiting) != 1 {
		t.Fatalf("after the leaves: %d held, a %d, %d waiting", all(), held(a), len(g.waiting))
	}
}
