package engine

import (
	"crypto/sha256"
	"encoding/binary"
)

// MaxReplays101 caps the replays of a round cancelled because every player
// opened with doubles, by default: after this many cancellations in a row
// the next playing of the round is not cancelled, so a match always ends.
// cancels=N changes it (Options101.MaxCancels).
const MaxReplays101 = DefaultCancels101

// Match101 is a match of Okey 101: rounds in sequence, penalty totals,
// the dealer passing to the right after every round that counts, lowest
// total first at the end.
type Match101 struct {
	rules   Ruleset
	n       int
	scores  []int
	dealer  int
	hands   int // hands dealt before the current one (cancelled ones too)
	played  int // rounds that counted
	replays int // cancellations in a row
	game    *Game101
	results []Result101
	over    bool
}

// NewMatch101 starts a match of n players; firstDealer comes from the
// table's commit-reveal choice. The first round is dealt at once.
func NewMatch101(r Ruleset, n, firstDealer int) (*Match101, error) {
	if r.Preset != Preset101 {
		return nil, errorf(ErrPreset, "%s is not %s", r.Preset, Preset101)
	}
	g, err := NewGame101(r, n, firstDealer, true)
	if err != nil {
		return nil, err
	}
	return &Match101{rules: r, n: n, scores: make([]int, n), dealer: firstDealer, game: g}, nil
}

// Rules returns the ruleset.
func (m *Match101) Rules() Ruleset { return m.rules }

// Players returns the number of seats.
func (m *Match101) Players() int { return m.n }

// Game returns the current round (public state).
func (m *Match101) Game() *Game101 { return m.game }

// HandNumber returns the number of the current hand from 0; a cancelled
// round is replayed with the next hand number.
func (m *Match101) HandNumber() int { return m.hands }

// Played returns the number of rounds that counted so far.
func (m *Match101) Played() int { return m.played }

// Scores returns each seat's total so far.
func (m *Match101) Scores() []int { return append([]int(nil), m.scores...) }

// TeamScores returns, with partnerships, each seat's team total (its own
// plus its partner's, seats i and i+2); otherwise the seats' totals.
func (m *Match101) TeamScores() []int {
	out := m.Scores()
	if m.rules.Teams(m.n) {
		for s := range out {
			out[s] = m.scores[s] + m.scores[(s+2)%4]
		}
	}
	return out
}

// Results returns the results of the finished rounds, cancelled ones too.
func (m *Match101) Results() []Result101 {
	out := make([]Result101, len(m.results))
	for i, r := range m.results {
		out[i] = r.clone()
	}
	return out
}

// Over reports whether the match has ended.
func (m *Match101) Over() bool { return m.over }

// Apply applies an action to the current round and, when the round ends,
// its points. On error nothing changes.
func (m *Match101) Apply(a Action101) error {
	if m.over {
		return errorf(ErrPhase, "the match is over")
	}
	if err := m.game.Apply(a); err != nil {
		return err
	}
	if res, ok := m.game.Result(); ok {
		m.results = append(m.results, res)
		if res.End == EndCancelled {
			m.replays++
			return nil
		}
		m.replays = 0
		m.played++
		for s, p := range res.Points {
			m.scores[s] += p
		}
		m.over = m.played >= m.rules.Rounds
	}
	return nil
}

// NextHand deals the next round once the current one is over. After a
// round that counted the dealer passes to the right; a cancelled round is
// replayed by the same dealer.
func (m *Match101) NextHand() error {
	if m.over {
		return errorf(ErrPhase, "the match is over")
	}
	res, ok := m.game.Result()
	if !ok {
		return errorf(ErrPhase, "the round is not over")
	}
	if res.End != EndCancelled {
		m.dealer = (m.dealer + 1) % m.n
	}
	g, err := NewGame101(m.rules, m.n, m.dealer, m.replays < m.rules.Game101.MaxCancels())
	if err != nil {
		return err
	}
	m.hands++
	m.game = g
	return nil
}

// Ranking returns the seats best first: the lowest total (with
// partnerships, the lowest team total) first; equal totals share a place.
func (m *Match101) Ranking() []Standing {
	seats := make([]int, m.n)
	for s := range seats {
		seats[s] = s
	}
	return rank(make([]Standing, 0, m.n), seats, m.TeamScores(), true)
}

// Clone returns a deep copy of the match.
func (m *Match101) Clone() *Match101 {
	c := *m
	c.scores = append([]int(nil), m.scores...)
	c.results = m.Results()
	c.game = m.game.clone()
	return &c
}

// Hash returns the canonical hash of the match's public state (protocol.md
// 3.6, "State hash"): every peer computes the same value after every step.
func (m *Match101) Hash() [32]byte { return sha256.Sum256(m.AppendState(nil)) }

// AppendState appends the canonical encoding of the public state.
func (m *Match101) AppendState(b []byte) []byte {
	b = append(b, "okey/state101/v1"...)
	b = appendString(b, m.rules.String())
	b = append(b, byte(m.n), byte(m.dealer))
	b = binary.BigEndian.AppendUint32(b, uint32(m.hands))
	b = append(b, byte(m.played), byte(m.replays))
	for s := 0; s < m.n; s++ {
		b = appendI32(b, m.scores[s])
	}
	b = appendBool(b, m.over)
	return m.game.appendState(b)
}

func appendI32(b []byte, v int) []byte { return binary.BigEndian.AppendUint32(b, uint32(int32(v))) }

func (g *Game101) appendState(b []byte) []byte {
	b = append(b, byte(g.phase), byte(g.dealer))
	b = appendBool(b, g.cancel)
	b = appendInts(b, g.order)
	b = appendSlots(b, g.pending)
	b = append(b, byte(g.indicator), byte(g.okey))
	b = appendSlots(b, g.stock)
	for s := 0; s < g.n; s++ {
		b = appendSlots(b, g.racks[s])
		b = appendSlots(b, g.piles[s])
		b = append(b, byte(g.opened[s]))
		b = appendI32(b, g.openedAt[s])
	}
	for _, f := range g.public {
		b = append(b, byte(f))
	}
	b = append(b, byte(len(g.melds)))
	for _, m := range g.melds {
		b = append(b, byte(m.Owner), byte(m.Kind), byte(len(m.Tiles)))
		for i, t := range m.Tiles {
			b = append(b, byte(t), byte(m.As[i]))
		}
	}
	b = append(b, byte(len(g.penalties)))
	for _, p := range g.penalties {
		b = append(b, byte(p.Seat), byte(p.Kind), byte(p.Slot))
		b = appendI32(b, p.Points)
	}
	b = append(b, byte(g.turn))
	b = binary.BigEndian.AppendUint32(b, uint32(g.turns))
	b = appendBool(b, g.drawn)
	b = append(b, byte(int8(g.lastFrom)), byte(g.taken), byte(int8(g.takenFrom)))
	b = appendBool(b, g.takenUsed)
	b = appendBool(b, g.gaveBack)
	if g.result == nil {
		return append(b, 0)
	}
	r := g.result
	b = append(b, 1, byte(r.End), byte(int8(r.Finisher)))
	b = appendBool(b, r.JokerFinish)
	b = appendBool(b, r.OneTurn)
	b = append(b, byte(len(r.Points)))
	for s := range r.Points {
		b = appendI32(b, r.HandPoints[s])
		b = appendI32(b, r.Points[s])
	}
	return b
}
