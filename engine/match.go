package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// Match is a whole match: hands in sequence, scores, the dealer passing to
// the right, and the end condition of the ruleset.
type Match struct {
	rules   Ruleset
	n       int
	scores  []int
	active  []bool
	left    []int // seats that left (leave-at-zero), in order
	dealer  int
	hands   int
	hand    *Hand
	results []HandResult
	over    bool
}

// NewMatch starts a match of n players; firstDealer comes from the table's
// commit-reveal choice. The first hand starts at once.
func NewMatch(r Ruleset, n, firstDealer int) (*Match, error) {
	if r.Preset == Preset101 {
		return nil, fmt.Errorf("%w: preset %s is played by Match101", ErrPreset, Preset101)
	}
	if err := r.CheckPlayers(n); err != nil {
		return nil, err
	}
	if firstDealer < 0 || firstDealer >= n {
		return nil, fmt.Errorf("%w: dealer %d of %d", ErrBadAction, firstDealer, n)
	}
	m := &Match{rules: r, n: n, scores: make([]int, n), active: make([]bool, n), dealer: firstDealer}
	for i := range m.scores {
		m.scores[i] = r.StartScore
		m.active[i] = true
	}
	return m, m.startHand()
}

func (m *Match) startHand() error {
	var seats []int
	for s := 0; s < m.n; s++ {
		if m.active[s] {
			seats = append(seats, s)
		}
	}
	h, err := NewHand(m.rules, m.n, seats, m.dealer)
	if err != nil {
		return err
	}
	m.hand = h
	return nil
}

// Rules returns the ruleset.
func (m *Match) Rules() Ruleset { return m.rules }

// Players returns the number of seats.
func (m *Match) Players() int { return m.n }

// Hand returns the current hand (public state).
func (m *Match) Hand() *Hand { return m.hand }

// HandNumber returns the number of the current hand, from 0.
func (m *Match) HandNumber() int { return m.hands }

// Scores returns each seat's score (partners show the same team score).
func (m *Match) Scores() []int { return append([]int(nil), m.scores...) }

// Active reports whether seat still plays (leave-at-zero).
func (m *Match) Active(seat int) bool { return m.active[seat] }

// Results returns the results of the finished hands.
func (m *Match) Results() []HandResult { return append([]HandResult(nil), m.results...) }

// Over reports whether the match has ended.
func (m *Match) Over() bool { return m.over }

// Apply applies an action to the current hand; when the hand ends, its score
// is applied. On error nothing changes.
func (m *Match) Apply(a Action) error {
	if m.over {
		return fmt.Errorf("%w: the match is over", ErrPhase)
	}
	if err := m.hand.Apply(a); err != nil {
		return err
	}
	if res, ok := m.hand.Result(); ok {
		m.finishHand(res)
	}
	return nil
}

// NextHand starts the next hand once the current one is over; the dealer
// passes to the right (the next active seat).
func (m *Match) NextHand() error {
	if m.over {
		return fmt.Errorf("%w: the match is over", ErrPhase)
	}
	if m.hand.Phase() != PhaseOver {
		return fmt.Errorf("%w: the hand is not over", ErrPhase)
	}
	for k := 1; k <= m.n; k++ {
		if s := (m.dealer + k) % m.n; m.active[s] {
			m.dealer = s
			break
		}
	}
	m.hands++
	return m.startHand()
}

// Deltas returns what a hand's result does to each seat's score.
func (m *Match) Deltas(res HandResult) []int {
	r := m.rules
	d := make([]int, m.n)
	teams := r.Teams(m.n)
	same := func(a, b int) bool { return a == b || teams && (a+2)%4 == b }
	// add gives pts to every active seat that is (or is not) on seat's side.
	add := func(seat, pts int, side bool) {
		for s := 0; s < m.n; s++ {
			if m.active[s] && same(s, seat) == side {
				d[s] += pts
			}
		}
	}
	// With partnerships a team's score changes once, not once per partner:
	// partners hold the same number, so each partner gets the delta itself.
	win := 0
	if res.Winner >= 0 {
		win = r.WinPoints
		if res.Kind == Pairs {
			win = r.PairsPoints
		}
		if res.OkeyDiscard {
			if r.OkeyDiscardMult > 0 {
				win *= r.OkeyDiscardMult
			} else if r.OkeyDiscardFlat > win {
				win = r.OkeyDiscardFlat
			}
		}
		if res.OneColour < NumColours && (r.OneColour == OneColourAny ||
			r.OneColour == OneColourRedBlack && (res.OneColour == Red || res.OneColour == Black)) {
			win *= 2
		}
	}
	switch r.Scoring {
	case CountDown:
		if res.Winner >= 0 {
			add(res.Winner, -win, false)
		}
		for _, s := range res.Shown {
			add(s, -r.GostermePoints, false)
		}
	case Penalty:
		if res.Winner >= 0 {
			add(res.Winner, win, false)
		} else {
			for s := 0; s < m.n; s++ {
				if m.active[s] {
					d[s] += r.StalematePoints
				}
			}
		}
		for _, s := range res.Shown {
			add(s, r.GostermePoints, false)
		}
	case WinnerCountDown:
		if res.Winner >= 0 {
			add(res.Winner, -win, true)
		}
		for _, s := range res.Shown {
			add(s, -r.GostermePoints, true)
		}
	case Strokes:
		if res.Winner >= 0 {
			add(res.Winner, win, true)
		}
	}
	return d
}

func (m *Match) finishHand(res HandResult) {
	d := m.Deltas(res)
	for s := range d {
		m.scores[s] += d[s]
	}
	m.results = append(m.results, res)
	r := m.rules
	switch r.Scoring {
	case CountDown, WinnerCountDown:
		var zero []int
		for s := 0; s < m.n; s++ {
			if m.active[s] && m.scores[s] <= 0 {
				zero = append(zero, s)
			}
		}
		if len(zero) == 0 {
			break
		}
		if r.LeaveAtZero {
			for _, s := range zero {
				m.active[s] = false
				m.left = append(m.left, s)
			}
			if m.activeCount() < 2 {
				m.over = true
			}
		} else {
			m.over = true
		}
	}
	if r.Rounds > 0 && len(m.results) >= r.Rounds {
		m.over = true
	}
}

func (m *Match) activeCount() int {
	c := 0
	for _, a := range m.active {
		if a {
			c++
		}
	}
	return c
}

// Standing is one line of a ranking.
type Standing struct {
	Seat  int
	Score int
	Place int // 1 for the best; equal scores share a place
}

// Ranking returns the seats best first. CountDown and Strokes rank the
// highest score first (players who left rank below those who stayed, later
// leavers higher); Penalty and WinnerCountDown rank the lowest first.
func (m *Match) Ranking() []Standing {
	better := func(a, b int) bool {
		switch m.rules.Scoring {
		case Penalty, WinnerCountDown:
			return m.scores[a] < m.scores[b]
		default:
			return m.scores[a] > m.scores[b]
		}
	}
	var seats []int
	for s := 0; s < m.n; s++ {
		if m.active[s] {
			seats = append(seats, s)
		}
	}
	for i := 1; i < len(seats); i++ {
		for j := i; j > 0 && better(seats[j], seats[j-1]); j-- {
			seats[j], seats[j-1] = seats[j-1], seats[j]
		}
	}
	var out []Standing
	for i, s := range seats {
		place := i + 1
		if i > 0 && m.scores[s] == m.scores[seats[i-1]] {
			place = out[i-1].Place
		}
		out = append(out, Standing{Seat: s, Score: m.scores[s], Place: place})
	}
	for i := len(m.left) - 1; i >= 0; i-- {
		s := m.left[i]
		out = append(out, Standing{Seat: s, Score: m.scores[s], Place: len(out) + 1})
	}
	return out
}

// Hash returns the canonical hash of the match's public state: every peer
// computes the same value after every action. Private faces never enter it.
func (m *Match) Hash() [32]byte {
	return sha256.Sum256(m.AppendState(nil))
}

// AppendState appends the canonical encoding of the public state, the input
// of Hash. The encoding is specified in protocol.md ("State hash").
func (m *Match) AppendState(b []byte) []byte {
	b = append(b, "okey/state/v1"...)
	b = appendString(b, m.rules.String())
	b = append(b, byte(m.n), byte(m.dealer))
	b = binary.BigEndian.AppendUint32(b, uint32(m.hands))
	for s := 0; s < m.n; s++ {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(m.scores[s])))
		b = appendBool(b, m.active[s])
	}
	b = appendInts(b, m.left)
	b = appendBool(b, m.over)
	return m.hand.appendState(b)
}

func (h *Hand) appendState(b []byte) []byte {
	b = append(b, byte(h.phase), byte(h.dealer))
	b = appendInts(b, h.seats)
	b = appendInts(b, h.order)
	b = appendInts(b, h.dice)
	b = append(b, byte(len(h.groups)))
	for _, g := range h.groups {
		b = appendInts(b, g)
	}
	b = appendSlots(b, h.pending)
	b = append(b, byte(h.indicator), byte(h.okey), byte(h.middle))
	b = appendSlots(b, h.stock)
	for s := 0; s < h.n; s++ {
		b = appendSlots(b, h.racks[s])
		b = appendSlots(b, h.piles[s])
		b = appendBool(b, h.hasDrawn[s])
		b = appendBool(b, h.shown[s])
	}
	for _, f := range h.public {
		b = append(b, byte(f))
	}
	b = append(b, byte(h.turn))
	b = appendBool(b, h.drawn)
	b = append(b, byte(int8(h.lastFrom)))
	b = binary.BigEndian.AppendUint32(b, uint32(h.turns))
	b = appendInts(b, h.showOrder)
	if h.result == nil {
		return append(b, 0)
	}
	r := h.result
	b = append(b, 1, byte(int8(r.Winner)), byte(r.Kind), byte(r.OneColour))
	return appendBool(b, r.OkeyDiscard)
}

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendInts(b []byte, v []int) []byte {
	b = append(b, byte(len(v)))
	for _, x := range v {
		b = append(b, byte(x))
	}
	return b
}

func appendSlots(b []byte, v []Slot) []byte {
	b = append(b, byte(len(v)))
	for _, x := range v {
		b = append(b, byte(x))
	}
	return b
}

// Clone returns a deep copy of the match.
func (m *Match) Clone() *Match {
	c := *m
	c.scores = append([]int(nil), m.scores...)
	c.active = append([]bool(nil), m.active...)
	c.left = append([]int(nil), m.left...)
	c.results = append([]HandResult(nil), m.results...)
	c.hand = m.hand.clone()
	return &c
}
