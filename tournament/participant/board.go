package participant

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/tournament"
)

// Listing is a tournament heard on the network, as a lobby lists it
// (protocol.md 9.8, "The lobby"): what its announcement says, how many
// players registered, and how far it is.
type Listing struct {
	ID      [32]byte
	Name    string
	Format  tournament.Format
	Ruleset string
	Creator [32]byte // the announcement's signer
	Players int      // the players the announcement wants
	// Registered is how many distinct keys registered (the roster's size
	// once it is out).
	Registered int
	// Round is 0 while players register, else the round under way (being
	// drawn or played), 1..Format.Rounds.
	Round int
	// Ended: the last round is drawn and every one of its tables'
	// transcripts has been offered.
	Ended bool
	// Keys are the registered keys (the roster's once it is out).
	Keys [][32]byte
}

// Board caps and timing.
const (
	// BoardStale: a tournament not heard of (a record or an offer) for
	// this long is no longer listed; its participants publish their
	// records every 2 seconds while they run.
	BoardStale = 30 * time.Second
	// MaxBoardTournaments bounds the tournaments a board keeps; records of
	// further ones are dropped until one goes stale.
	MaxBoardTournaments = 64
	// MaxBoardRecords bounds the records a board keeps per tournament.
	MaxBoardRecords = 4096
)

// Board follows every tournament on a Net for a lobby: it keeps each one's
// verified records and the offers of its transcripts, lists them, and
// hands copies of what it hears to the participant it taps (Tap), since
// only one reader can drain a Net.
type Board struct {
	net     Net
	now     func() time.Time
	changes chan struct{}

	mu      sync.Mutex
	ts      map[[32]byte]*boardEntry
	taps    []*boardTap
	visible map[[32]byte]bool
}

type boardEntry struct {
	recs    [][]byte
	seen    map[string]bool
	ann     *tournament.Record
	regs    map[[32]byte]bool
	regKeys [][32]byte
	offered map[tournament.Ref]bool
	heard   time.Time
	dirty   bool
	listing Listing
}

// NewBoard returns a board over n; Run feeds it.
func NewBoard(n Net) *Board {
	return &Board{net: n, now: time.Now, changes: make(chan struct{}, 1), ts: map[[32]byte]*boardEntry{}, visible: map[[32]byte]bool{}}
}

// Changes is signalled (coalesced) when the list may have changed.
func (b *Board) Changes() <-chan struct{} { return b.changes }

func (b *Board) changed() {
	select {
	case b.changes <- struct{}{}:
	default:
	}
}

// Run reads the Net until ctx ends.
func (b *Board) Run(ctx context.Context) {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case raw := <-b.net.Records():
			b.forward(func(t *boardTap) {
				select {
				case t.records <- raw:
				default: // a full inbox loses it, as the network may
				}
			})
			if b.Add(raw) {
				b.changed()
			}
		case o := <-b.net.Offers():
			b.forward(func(t *boardTap) {
				select {
				case t.offers <- o:
				default:
				}
			})
			if b.offer(o) {
				b.changed()
			}
		case <-tick.C:
			// Tournaments going stale leave the list.
			b.mu.Lock()
			moved := false
			for id, e := range b.ts {
				if b.visible[id] != b.fresh(e) {
					moved = true
				}
			}
			b.mu.Unlock()
			if moved {
				b.changed()
			}
		}
	}
}

func (b *Board) forward(f func(t *boardTap)) {
	b.mu.Lock()
	taps := slices.Clone(b.taps)
	b.mu.Unlock()
	for _, t := range taps {
		f(t)
	}
}

func (b *Board) fresh(e *boardEntry) bool {
	return e.ann != nil && b.now().Sub(e.heard) < BoardStale
}

// entry returns tid's entry, making it when there is room (a stale one
// makes room); nil when there is none. b.mu is held.
func (b *Board) entry(tid [32]byte) *boardEntry {
	if e := b.ts[tid]; e != nil {
		return e
	}
	if len(b.ts) >= MaxBoardTournaments {
		for id, e := range b.ts {
			if b.now().Sub(e.heard) >= BoardStale {
				delete(b.ts, id)
				delete(b.visible, id)
				break
			}
		}
		if len(b.ts) >= MaxBoardTournaments {
			return nil
		}
	}
	e := &boardEntry{seen: map[string]bool{}, regs: map[[32]byte]bool{}, offered: map[tournament.Ref]bool{}}
	b.ts[tid] = e
	return e
}

// Add keeps a record heard (or published by this node: the network does
// not deliver a node's own messages back to it); true when it is new. A
// record that does not decode or verify is ignored.
func (b *Board) Add(raw []byte) bool {
	r, err := tournament.Decode(raw)
	if err != nil {
		return false
	}
	tid := r.Tournament
	if r.Kind == tournament.KindAnnounce {
		tid = r.ID()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.entry(tid)
	if e == nil {
		return false
	}
	if e.seen[string(raw)] {
		e.heard = b.now()
		return false
	}
	if len(e.recs) >= MaxBoardRecords || !r.Verify() {
		return false
	}
	e.heard = b.now()
	e.seen[string(raw)] = true
	e.recs = append(e.recs, bytes.Clone(raw))
	e.dirty = true
	switch r.Kind {
	case tournament.KindAnnounce:
		if e.ann == nil {
			e.ann = r
		}
	case tournament.KindRegister:
		if !e.regs[r.Signer] {
			e.regs[r.Signer] = true
			e.regKeys = append(e.regKeys, r.Signer)
		}
	}
	return true
}

func (b *Board) offer(o Offer) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.ts[o.Tournament]
	if e == nil {
		return false
	}
	e.heard = b.now()
	if e.offered[o.Ref] {
		return false
	}
	e.offered[o.Ref] = true
	e.dirty = true
	return true
}

// Records returns the records held of tournament tid, in arrival order.
func (b *Board) Records(tid [32]byte) [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e := b.ts[tid]; e != nil {
		return slices.Clone(e.recs)
	}
	return nil
}

// List returns the tournaments heard within BoardStale, by name then id.
func (b *Board) List() []Listing {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Listing
	for id, e := range b.ts {
		b.visible[id] = b.fresh(e)
		if !b.visible[id] {
			continue
		}
		if e.dirty {
			e.dirty = false
			e.listing = listing(e)
		}
		out = append(out, e.listing)
	}
	slices.SortFunc(out, func(x, y Listing) int {
		if x.Name != y.Name {
			if x.Name < y.Name {
				return -1
			}
			return 1
		}
		return bytes.Compare(x.ID[:], y.ID[:])
	})
	return out
}

// listing works out what the lobby says of a tournament from its records
// and offers (package tournament's checks; no transcript is needed).
func listing(e *boardEntry) Listing {
	a := e.ann
	l := Listing{ID: a.ID(), Name: a.Name, Ruleset: a.Ruleset, Creator: a.Signer, Players: a.Players, Registered: len(e.regKeys), Keys: slices.Clone(e.regKeys)}
	l.Format, _ = tournament.CheckSetup(a.Format, a.Ruleset, a.Players) // checked by Decode
	rep := tournament.Check(e.recs, nil)
	if len(rep.Players) == 0 {
		return l
	}
	l.Registered, l.Keys = len(rep.Players), nil
	for _, p := range rep.Players {
		l.Keys = append(l.Keys, p.Key)
	}
	l.Round = max(min(len(rep.Rounds), l.Format.Rounds), 1)
	if len(rep.Rounds) == l.Format.Rounds {
		last := rep.Rounds[len(rep.Rounds)-1]
		rs, err := engine.ParseRuleset(a.Ruleset)
		if last.Draw != nil && err == nil {
			_, sizes := tournament.Seatable(len(last.Draw), rs)
			l.Ended = true
			for t := range sizes {
				if !e.offered[tournament.Ref{Round: last.Number, Table: t}] {
					l.Ended = false
				}
			}
		}
	}
	return l
}

// Tap returns a Net for a participant on this board's node: it publishes,
// fetches and serves through the board's Net, and receives a copy of every
// record and offer the board hears, starting with the records it holds.
// The records it publishes are kept by the board too.
func (b *Board) Tap() Net {
	t := &boardTap{b: b, records: make(chan []byte, MaxBoardRecords), offers: make(chan Offer, 1024)}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.ts {
		for _, r := range e.recs {
			select {
			case t.records <- r:
			default:
			}
		}
	}
	b.taps = append(b.taps, t)
	return t
}

// Untap stops copying to a Net from Tap.
func (b *Board) Untap(n Net) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.taps = slices.DeleteFunc(b.taps, func(t *boardTap) bool { return Net(t) == n })
}

type boardTap struct {
	b       *Board
	records chan []byte
	offers  chan Offer
}

func (t *boardTap) Publish(ctx context.Context, record []byte) error {
	if t.b.Add(record) {
		t.b.changed()
	}
	return t.b.net.Publish(ctx, record)
}
func (t *boardTap) Records() <-chan []byte { return t.records }
func (t *boardTap) Offers() <-chan Offer   { return t.offers }
func (t *boardTap) Have(ctx context.Context, tid [32]byte, ref tournament.Ref) error {
	t.b.offer(Offer{Tournament: tid, Ref: ref})
	return t.b.net.Have(ctx, tid, ref)
}
func (t *boardTap) Fetch(ctx context.Context, from string, tid [32]byte, ref tournament.Ref) ([]byte, error) {
	return t.b.net.Fetch(ctx, from, tid, ref)
}
func (t *boardTap) Serve(h func(tid [32]byte, ref tournament.Ref) ([]byte, bool)) {
	t.b.net.Serve(h)
}
