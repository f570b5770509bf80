package wire

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Gate decides which streams a node serves (a creator's lobby streams, a
// member's spectators' sync streams): at most perPeer of one remote peer
// and total in all. When all places are taken, a new stream takes the place of the oldest stream still waiting for its request
// among the peers holding the most streams, provided that peer holds more
// than the newcomer's: so many identities holding idle streams cannot keep
// out a peer that holds none, such as an honest joiner. A stream that has
// delivered its request is never taken: it is answered at once.
type Gate struct {
	perPeer, total int

	mu      sync.Mutex
	held    map[peer.ID]int
	n       int
	waiting []*Ticket // Streams waiting for their request, oldest first

	Arrived atomic.Uint64 // Streams that came to the gate
	OverCap atomic.Uint64 // Streams reset unread: over a cap, no place to take
	Evicted atomic.Uint64 // waiting streams whose place was taken
}

// Ticket is one stream's place at the gate.
type Ticket struct {
	peer    peer.ID
	evict   func()
	waiting bool
	gone    bool
}

// NewGate is a gate of perPeer places per remote peer and total in all.
func NewGate(perPeer, total int) Gate {
	return Gate{perPeer: perPeer, total: total, held: map[peer.ID]int{}}
}

// Enter gives a stream of p a place, or returns nil and why not. Taking a
// place calls the evicted stream's evict.
func (g *Gate) Enter(p peer.ID, evict func()) (*Ticket, string) {
	g.Arrived.Add(1)
	g.mu.Lock()
	k := g.held[p]
	if k >= g.perPeer {
		g.mu.Unlock()
		g.OverCap.Add(1)
		return nil, fmt.Sprintf("more than %d lobby streams of one peer at once", g.perPeer)
	}
	var victim *Ticket
	if g.n >= g.total {
		for _, t := range g.waiting { // oldest first: the first of the most held wins
			if h := g.held[t.peer]; h > k && (victim == nil || h > g.held[victim.peer]) {
				victim = t
			}
		}
		if victim == nil {
			g.mu.Unlock()
			g.OverCap.Add(1)
			return nil, fmt.Sprintf("all %d lobby places taken", g.total)
		}
		g.dropLocked(victim)
	}
	t := &Ticket{peer: p, evict: evict, waiting: true}
	g.held[p]++
	g.n++
	g.waiting = append(g.waiting, t)
	g.mu.Unlock()
	if victim != nil {
		g.Evicted.Add(1)
		victim.evict()
	}
	return t, ""
}

// Served marks t's request as received; false if t lost its place.
func (g *Gate) Served(t *Ticket) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t.gone {
		return false
	}
	g.unwaitLocked(t)
	return true
}

// Leave frees t's place (if it still has one).
func (g *Gate) Leave(t *Ticket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !t.gone {
		g.dropLocked(t)
	}
}

func (g *Gate) dropLocked(t *Ticket) {
	g.unwaitLocked(t)
	t.gone = true
	g.n--
	if g.held[t.peer]--; g.held[t.peer] <= 0 {
		delete(g.held, t.peer)
	}
}

func (g *Gate) unwaitLocked(t *Ticket) {
	if t.waiting {
		t.waiting = false
		g.waiting = slices.DeleteFunc(g.waiting, func(x *Ticket) bool { return x == t })
	}
}

// Streams is how many streams of p are being served, and in all.
func (g *Gate) Streams(p peer.ID) (ofPeer, all int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held[p], g.n
}
