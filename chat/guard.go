package chat

import (
	"errors"
	"slices"
	"time"
)

// The limits of protocol.md 7.13.
const (
	// Window is the rate limit's window.
	Window = 10 * time.Second
	// MaxPerWindow is the most messages a receiver accepts from one member
	// within Window (by their arrival); SendPerWindow the most a sender
	// sends within Window (one fewer, so that delays on the way never make
	// a sender that keeps its limit break a receiver's).
	MaxPerWindow  = 5
	SendPerWindow = 4
	// Skew is how far from the receiver's clock a message's time may be
	// when it arrives on the chat topic.
	Skew = 5 * time.Minute
	// KeepSeen is how many of a member's latest times a Guard remembers:
	// more than a member can send within the clock window at the rate
	// limit (2 Skew / Window * MaxPerWindow = 300).
	KeepSeen = 512
)

// Why a Guard drops a message (not a fault of the peer that forwarded it:
// the topic ignores such a message, it does not reject it).
var (
	ErrReplay  = errors.New("chat: not newer than the member's last message (a replay or a duplicate)")
	ErrRate    = errors.New("chat: the member sent more than its share of messages")
	ErrStale   = errors.New("chat: the message's time is too far from this clock")
	ErrTooFast = errors.New("chat: wait a moment before sending more")
)

// Guard is what a receiver keeps per member of a table: the times of the
// member's messages it accepted (so that a replay or a duplicate is
// dropped, while messages that arrive out of order are not) and the recent
// arrivals (the rate limit). It is not safe for concurrent use.
type Guard struct {
	seen     map[int][]uint64 // ascending, at most KeepSeen
	arrivals map[int][]time.Time
}

// Admit accepts m, arrived at now, or says why it is dropped. fresh
// applies the clock check and the rate limit (a message on the chat
// topic); a message fetched by a spectator (history served by a member)
// skips them. A member's time accepted once is never accepted again; nor,
// once KeepSeen of its times are remembered, one older than all of them.
func (g *Guard) Admit(m *Message, now time.Time, fresh bool) error {
	if g.seen == nil {
		g.seen, g.arrivals = map[int][]uint64{}, map[int][]time.Time{}
	}
	s := g.seen[m.Member]
	i, found := slices.BinarySearch(s, m.Time)
	if found || len(s) >= KeepSeen && i == 0 {
		return ErrReplay
	}
	if fresh {
		at := time.UnixMilli(int64(min(m.Time, 1<<62)))
		if at.Before(now.Add(-Skew)) || at.After(now.Add(Skew)) {
			return ErrStale
		}
		recent := g.arrivals[m.Member][:0]
		for _, t := range g.arrivals[m.Member] {
			if now.Sub(t) < Window {
				recent = append(recent, t)
			}
		}
		if len(recent) >= MaxPerWindow {
			g.arrivals[m.Member] = recent
			return ErrRate
		}
		g.arrivals[m.Member] = append(recent, now)
	}
	s = slices.Insert(s, i, m.Time)
	if len(s) > KeepSeen {
		s = s[1:]
	}
	g.seen[m.Member] = s
	return nil
}

// Sender is what a sender keeps: its last time at the table and its
// recent sends. It is not safe for concurrent use.
type Sender struct {
	last  uint64
	sends []time.Time
}

// Next returns the time of a message sent now (strictly after the last),
// or ErrTooFast when SendPerWindow were sent within Window.
func (s *Sender) Next(now time.Time) (uint64, error) {
	recent := s.sends[:0]
	for _, t := range s.sends {
		if now.Sub(t) < Window {
			recent = append(recent, t)
		}
	}
	s.sends = recent
	if len(recent) >= SendPerWindow {
		return 0, ErrTooFast
	}
	s.sends = append(s.sends, now)
	t := max(uint64(max(now.UnixMilli(), 0)), s.last+1)
	s.last = t
	return t, nil
}
