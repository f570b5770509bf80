package participant

import (
	"context"
	"errors"
	"sync"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// MemBus connects participants in one process (tests, okey tournament
// --local): records and offers reach every other member, a member that
// joins late gets every earlier record, and each table's seats share one
// table.MemNet.
type MemBus struct {
	mu      sync.Mutex
	members map[string]*memMember
	order   []string
	history [][]byte
	tables  map[[16]byte]*table.MemNet
}

// NewMemBus returns an empty bus.
func NewMemBus() *MemBus {
	return &MemBus{members: map[string]*memMember{}, tables: map[[16]byte]*table.MemNet{}}
}

type memMember struct {
	bus     *MemBus
	id      string
	records chan []byte
	offers  chan Offer
	serve   func(tid [32]byte, ref tournament.Ref) ([]byte, bool)
	admit   func(from string, record []byte, proof [32]byte) // admit.go
}

// Join adds a member with this peer id; its Net replays the bus's history.
func (b *MemBus) Join(id string) Net {
	m := &memMember{bus: b, id: id, records: make(chan []byte, 1<<16), offers: make(chan Offer, 1<<16)}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.history {
		m.records <- r
	}
	b.members[id] = m
	b.order = append(b.order, id)
	return m
}

// TableNet returns id's transport at the table cfg.
func (b *MemBus) TableNet(id string, cfg table.Config) table.Transport {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.tables[cfg.ID]
	if n == nil {
		n = table.NewMemNet(table.Faults{}, 1)
		b.tables[cfg.ID] = n
	}
	return n.Join(table.PeerID(id))
}

func (m *memMember) Publish(_ context.Context, record []byte) error {
	m.bus.mu.Lock()
	defer m.bus.mu.Unlock()
	m.bus.history = append(m.bus.history, record)
	for _, id := range m.bus.order {
		if o := m.bus.members[id]; o != m {
			select {
			case o.records <- record:
			default: // a full inbox loses it, as a network may; it is published again
			}
		}
	}
	return nil
}

func (m *memMember) Records() <-chan []byte { return m.records }
func (m *memMember) Offers() <-chan Offer   { return m.offers }

func (m *memMember) Have(_ context.Context, tid [32]byte, ref tournament.Ref) error {
	m.bus.mu.Lock()
	defer m.bus.mu.Unlock()
	for _, id := range m.bus.order {
		if o := m.bus.members[id]; o != m {
			select {
			case o.offers <- Offer{From: m.id, Tournament: tid, Ref: ref}:
			default:
			}
		}
	}
	return nil
}

func (m *memMember) Fetch(ctx context.Context, from string, tid [32]byte, ref tournament.Ref) ([]byte, error) {
	m.bus.mu.Lock()
	o := m.bus.members[from]
	m.bus.mu.Unlock()
	if o == nil {
		return nil, errors.New("tourney: no such member")
	}
	o.bus.mu.Lock()
	h := o.serve
	o.bus.mu.Unlock()
	if h == nil {
		return nil, errors.New("tourney: not serving")
	}
	// The handler runs apart, so that the asker's deadline holds even
	// against a member that never answers.
	type answer struct {
		b  []byte
		ok bool
	}
	ch := make(chan answer, 1)
	go func() {
		b, ok := h(tid, ref)
		ch <- answer{b, ok}
	}()
	select {
	case a := <-ch:
		if !a.ok {
			return nil, errors.New("tourney: not held")
		}
		return a.b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (m *memMember) Serve(h func(tid [32]byte, ref tournament.Ref) ([]byte, bool)) {
	m.bus.mu.Lock()
	m.serve = h
	m.bus.mu.Unlock()
}
