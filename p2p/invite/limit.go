package invite

import (
	"time"
)

// Limiter rate-limits failed admissions per peer: a token bucket of Burst
// failures that refills one token every Refill. A peer whose bucket is
// empty is refused before its proof is even checked. The time is given by
// the caller (the package reads no clock). It is not safe for concurrent
// use: the lobby calls it under its lock.
type Limiter struct {
	Burst  int
	Refill time.Duration
	// Max bounds the peers tracked; above it the least recently failed
	// peer is forgotten.
	Max   int
	peers map[string]*bucket
}

type bucket struct {
	// tat is when the bucket is full again: each failure moves it Refill
	// later (from now at the latest); a peer may try while tat-now is at
	// most (Burst-1)*Refill (GCRA).
	tat time.Time
}

// DefaultLimiter allows 3 failures at once, then one every 20 s, for up to
// 4096 peers.
func DefaultLimiter() *Limiter {
	return &Limiter{Burst: 3, Refill: 20 * time.Second, Max: 4096}
}

// Allow reports whether peer p may try an admission now, and if not, how
// long until it may.
func (l *Limiter) Allow(p string, now time.Time) (bool, time.Duration) {
	b := l.peers[p]
	if b == nil {
		return true, 0
	}
	over := b.tat.Sub(now) - time.Duration(l.Burst-1)*l.Refill
	if over <= 0 {
		return true, 0
	}
	return false, over
}

// Fail records a failed admission of peer p.
func (l *Limiter) Fail(p string, now time.Time) {
	if l.peers == nil {
		l.peers = map[string]*bucket{}
	}
	b := l.peers[p]
	if b == nil {
		if l.Max > 0 && len(l.peers) >= l.Max {
			var oldest string
			var at time.Time
			for k, v := range l.peers { // which one goes decides no game
				if oldest == "" || v.tat.Before(at) {
					oldest, at = k, v.tat
				}
			}
			delete(l.peers, oldest)
		}
		b = &bucket{}
		l.peers[p] = b
	}
	if b.tat.Before(now) {
		b.tat = now
	}
	b.tat = b.tat.Add(l.Refill)
}

// Tracked is how many peers the limiter remembers.
func (l *Limiter) Tracked() int { return len(l.peers) }
