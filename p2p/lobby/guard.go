package lobby

import (
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Bounds on what other peers may announce (protocol.md 7.5, "Limits").
const (
	// AnnounceRate is how many lobby messages per second a receiver
	// takes from one author, after a burst of AnnounceBurst; the rest
	// are dropped unread and not forwarded. An honest creator sends one
	// per table every 2 s, one per change, and one per table when a peer
	// joins the lobby topic.
	AnnounceRate = 16
	// AnnounceBurst is the burst of AnnounceRate.
	AnnounceBurst = 64
	// MaxTablesPerCreator is the most tables a receiver lists for one
	// creator; a further table id of that creator is ignored until one of
	// its tables is closed or expires.
	MaxTablesPerCreator = 8
	// lobbyGuardAuthors bounds the authors whose rate is tracked; past it
	// the idle ones are forgotten.
	lobbyGuardAuthors = 4096
	// MaxKnownTables is the most tables a receiver lists in all.
	MaxKnownTables = 512
	// lobbyLogEvery is the least time between two log lines about one
	// author's rejected or rate-limited messages.
	lobbyLogEvery = 5 * time.Second
)

// lobbyGuard rate-limits lobby messages per author (a token bucket each)
// and throttles the log lines about one author.
type lobbyGuard struct {
	check func(Announcement) error

	mu      sync.Mutex
	authors map[peer.ID]*authorState
}

type authorState struct {
	tokens  float64
	at      time.Time // of tokens
	logged  time.Time // last log line
	dropped uint64    // since the last log line
}

func newLobbyGuard(check func(Announcement) error) *lobbyGuard {
	return &lobbyGuard{check: check, authors: map[peer.ID]*authorState{}}
}

// stateLocked is from's state, created full; g.mu is held.
func (g *lobbyGuard) stateLocked(from peer.ID, now time.Time) *authorState {
	s := g.authors[from]
	if s != nil {
		return s
	}
	if len(g.authors) >= lobbyGuardAuthors {
		for id, o := range g.authors { // forget the authors whose bucket has refilled
			if o.refill(now) >= AnnounceBurst && now.Sub(o.logged) > lobbyLogEvery {
				delete(g.authors, id)
			}
		}
		if len(g.authors) >= lobbyGuardAuthors {
			clear(g.authors) // all busy: a flood of identities; start over
		}
	}
	s = &authorState{tokens: AnnounceBurst, at: now}
	g.authors[from] = s
	return s
}

func (s *authorState) refill(now time.Time) float64 {
	if d := now.Sub(s.at); d > 0 {
		s.tokens = min(AnnounceBurst, s.tokens+d.Seconds()*AnnounceRate)
		s.at = now
	}
	return s.tokens
}

// allow takes one message of from's rate; false: over it.
func (g *lobbyGuard) allow(from peer.ID, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.stateLocked(from, now)
	if s.refill(now) < 1 {
		return false
	}
	s.tokens--
	return true
}

// logDue counts one dropped or rejected message of from and says whether
// a log line is due (at most one per lobbyLogEvery per author), with the
// count since the last one.
func (g *lobbyGuard) logDue(from peer.ID, now time.Time) (uint64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.stateLocked(from, now)
	s.dropped++
	if !s.logged.IsZero() && now.Sub(s.logged) < lobbyLogEvery {
		return 0, false
	}
	n := s.dropped
	s.logged, s.dropped = now, 0
	return n, true
}
