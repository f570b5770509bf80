package table

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Faults configures the in-memory network's misbehaviour. Probabilities are
// per delivery (per message and receiver).
type Faults struct {
	Drop    float64       // lose the message
	Dup     float64       // deliver it twice
	Reorder float64       // hold it back behind the next message
	Delay   time.Duration // deliver after up to this long
	// Latency delivers every message exactly this long after it was sent
	// (a fixed one-way delay, as half a round trip on a real link), in the
	// order each sender sent them; it adds to Delay, Reorder and Dup.
	Latency time.Duration
}

// MemNet is an in-memory network for tests and `okey sim`: every member
// gets a Transport; Broadcast reaches the others through the fault model.
// Randomness comes from a seed; the draws follow the order of broadcasts,
// which goroutine scheduling decides, so a seed fixes the fault rates and
// not the exact messages hit.
type MemNet struct {
	mu      sync.Mutex
	faults  Faults
	rng     *rand.Rand
	members map[PeerID]*memTransport
}

// NewMemNet returns an empty network.
func NewMemNet(f Faults, seed uint64) *MemNet {
	return &MemNet{faults: f, rng: rand.New(rand.NewPCG(seed, 0x6f6b6579)), members: map[PeerID]*memTransport{}}
}

// ErrClosed is returned by a closed transport.
var ErrClosed = errors.New("table: transport closed")

// Join adds (or re-adds, after a restart) a member and returns its transport.
func (n *MemNet) Join(id PeerID) Transport {
	t := &memTransport{net: n, id: id, inbox: make(chan Packet, 4096), wake: make(chan struct{}, 1), done: make(chan struct{})}
	n.mu.Lock()
	if old := n.members[id]; old != nil {
		old.closeLocked()
	}
	n.members[id] = t
	n.mu.Unlock()
	go t.pump()
	return t
}

// Leave removes a member as if its process died: its transport closes.
func (n *MemNet) Leave(id PeerID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t := n.members[id]; t != nil {
		t.closeLocked()
		delete(n.members, id)
	}
}

// sortedIDs lists the members in a fixed order, so that the fault draws
// for one broadcast do not depend on map iteration.
func (n *MemNet) sortedIDs() []PeerID {
	ids := make([]PeerID, 0, len(n.members))
	for id := range n.members {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (n *MemNet) chance(p float64) bool { return p > 0 && n.rng.Float64() < p }

// queued is a packet waiting for the pump, due at its sending time plus
// the network's Latency.
type queued struct {
	p   Packet
	due time.Time
}

type memTransport struct {
	net     *MemNet
	id      PeerID
	queue   []queued // waiting for the pump (guarded by net.mu)
	held    *queued  // a reordered packet waiting for the next one
	inbox   chan Packet
	wake    chan struct{}
	done    chan struct{}
	closed  bool
	handler func(PeerID, []byte) [][]byte
}

func (t *memTransport) Self() PeerID         { return t.id }
func (t *memTransport) Inbox() <-chan Packet { return t.inbox }

func (t *memTransport) Broadcast(ctx context.Context, data []byte) error {
	n := t.net
	n.mu.Lock()
	defer n.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, id := range n.sortedIDs() {
		if id != t.id {
			t.deliverLocked(n.members[id], data)
		}
	}
	return nil
}

// deliverLocked hands data to member r through the fault model: lost,
// duplicated or held back behind the next message.
func (t *memTransport) deliverLocked(r *memTransport, data []byte) {
	n := t.net
	if r == nil || r.closed || n.chance(n.faults.Drop) {
		return
	}
	p := Packet{From: t.id, Data: append([]byte(nil), data...)}
	copies := 1
	if n.chance(n.faults.Dup) {
		copies = 2
	}
	q := queued{p: p}
	if n.faults.Latency > 0 {
		q.due = time.Now().Add(n.faults.Latency)
	}
	for c := 0; c < copies; c++ {
		r.enqueueLocked(q, n.chance(n.faults.Reorder))
	}
}

// SendTo sends data to one member only, through the fault model (a
// cheater's split view in tests and okey sim).
func (t *memTransport) SendTo(ctx context.Context, peer PeerID, data []byte) error {
	n := t.net
	n.mu.Lock()
	defer n.mu.Unlock()
	if t.closed {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t.deliverLocked(n.members[peer], data)
	return nil
}

func (t *memTransport) enqueueLocked(p queued, reorder bool) {
	switch {
	case reorder && t.held == nil:
		t.held = &p
		return
	default:
		t.queue = append(t.queue, p)
		if t.held != nil {
			t.queue = append(t.queue, *t.held)
			t.held = nil
		}
	}
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// pump moves queued packets to the inbox, applying delays, and flushes a
// held packet when nothing else comes (so reordering never loses one).
func (t *memTransport) pump() {
	defer close(t.inbox)
	for {
		t.net.mu.Lock()
		q := t.queue
		t.queue = nil
		if len(q) == 0 && t.held != nil {
			q = []queued{*t.held}
			t.held = nil
		}
		delay := t.net.faults.Delay
		var d time.Duration
		if delay > 0 {
			d = time.Duration(t.net.rng.Int64N(int64(delay)))
		}
		t.net.mu.Unlock()
		if len(q) == 0 {
			select {
			case <-t.wake:
				continue
			case <-t.done:
				return
			case <-time.After(20 * time.Millisecond):
				continue
			}
		}
		if d > 0 {
			select {
			case <-time.After(d):
			case <-t.done:
				return
			}
		}
		for _, p := range q {
			if wait := time.Until(p.due); !p.due.IsZero() && wait > 0 {
				select {
				case <-time.After(wait):
				case <-t.done:
					return
				}
			}
			select {
			case t.inbox <- p.p:
			case <-t.done:
				return
			}
		}
	}
}

func (t *memTransport) Fetch(ctx context.Context, peer PeerID, req []byte) ([][]byte, error) {
	n := t.net
	n.mu.Lock()
	if t.closed {
		n.mu.Unlock()
		return nil, ErrClosed
	}
	r := n.members[peer]
	lost := n.chance(n.faults.Drop)
	n.mu.Unlock()
	if r == nil || lost {
		return nil, errors.New("table: fetch: peer unreachable")
	}
	r.net.mu.Lock()
	h := r.handler
	r.net.mu.Unlock()
	if h == nil {
		return nil, errors.New("table: fetch: peer serves nothing")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The answer is bounded by ctx, as a stream's deadline bounds it on a
	// real network: a slow answerer does not hold the asker past it.
	got := make(chan [][]byte, 1)
	go func() { got <- h(t.id, append([]byte(nil), req...)) }()
	select {
	case frames := <-got:
		return frames, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (t *memTransport) Serve(h func(PeerID, []byte) [][]byte) {
	t.net.mu.Lock()
	t.handler = h
	t.net.mu.Unlock()
}

func (t *memTransport) Close() error {
	t.net.mu.Lock()
	defer t.net.mu.Unlock()
	t.closeLocked()
	return nil
}

func (t *memTransport) closeLocked() {
	if !t.closed {
		t.closed = true
		close(t.done)
	}
}
