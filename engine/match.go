package engine

import (
	"crypto/sha256"
	"encoding/binary"
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
	settled bool // the current hand's audit facts are in (Settle)
}

// NewMatch starts a match of n players; firstDealer comes from the table's
// commit-reveal choice. The first hand starts at once.
func NewMatch(r Ruleset, n, firstDealer int) (*Match, error) {
	if r.Preset == Preset101 {
		return nil, errorf(ErrPreset, "preset %s is played by Match101", Preset101)
	}
	if err := r.CheckPlayers(n); err != nil {
		return nil, err
	}
	if firstDealer < 0 || firstDealer >= n {
		return nil, errorf(ErrBadAction, "dealer %d of %d", firstDealer, n)
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
		return errorf(ErrPhase, "the match is over")
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
		return errorf(ErrPhase, "the match is over")
	}
	if m.hand.Phase() != PhaseOver {
		return errorf(ErrPhase, "the hand is not over")
	}
	for k := 1; k <= m.n; k++ {
		if s := (m.dealer + k) % m.n; m.active[s] {
			m.dealer = s
			break
		}
	}
	m.hands++
	m.settled = false
	return m.startHand()
}

// Settled reports whether the current hand has been settled (Settle).
func (m *Match) Settled() bool { return m.settled }

// Settle completes a finished hand with what its audit reveals to everyone:
// dealt[s] holds the faces of the tiles dealt to seat s, in the order of
// Hand.Dealt(s) (empty for a seat not dealt in). It applies the upcard bonus
// of rulesets that have one (turkish-rummy: the opponents of the seat dealt
// the indicator's twin get UpcardPoints each, whoever won), so a hand's scores
// are final only once it is settled. Call it once per hand, after the hand is
// over (the match may be over too) and before NextHand. The faces must agree
// with every face already opened to everyone; on error nothing changes.
func (m *Match) Settle(dealt [][]Face) error {
	h := m.hand
	if h.phase != PhaseOver || m.settled {
		return errorf(ErrPhase, "settle needs a finished, unsettled hand")
	}
	if len(dealt) != m.n {
		return errorf(ErrBadAction, "dealt racks for %d seats, want %d", len(dealt), m.n)
	}
	_, ind := h.Indicator()
	holder := -1
	for s := 0; s < m.n; s++ {
		var slots []Slot
		if h.dealt != nil {
			slots = h.dealt[s]
		}
		if len(dealt[s]) != len(slots) {
			return errorf(ErrBadAction, "seat %d: %d dealt faces, want %d", s, len(dealt[s]), len(slots))
		}
		for i, f := range dealt[s] {
			if !f.Valid() {
				return errorf(ErrBadAction, "seat %d: face %d", s, f)
			}
			if pf := h.public[slots[i]]; pf != NoFace && pf != f {
				return errorf(ErrFace, "slot %d was %v, audit says %v", slots[i], pf, f)
			}
			if f == ind && ind != NoFace {
				if holder >= 0 && holder != s {
					return errorf(ErrFace, "the indicator's twin dealt to seats %d and %d", holder, s)
				}
				holder = s
			}
		}
	}
	if m.rules.UpcardPoints > 0 && len(m.results) > 0 {
		last := &m.results[len(m.results)-1]
		last.Upcard = holder
		h.result.Upcard = holder
		if holder >= 0 {
			d := m.upcardDeltas(holder)
			for s := range d {
				m.scores[s] += d[s]
			}
		}
	}
	m.settled = true
	return nil
}

// upcardDeltas is the upcard bonus: every active opponent of holder gets
// UpcardPoints.
func (m *Match) upcardDeltas(holder int) []int {
	d := make([]int, m.n)
	for s := 0; s < m.n; s++ {
		if m.active[s] && !m.sameSide(s, holder) {
			d[s] += m.rules.UpcardPoints
		}
	}
	return d
}

// sameSide reports whether two seats share a score (partners or one seat).
func (m *Match) sameSide(a, b int) bool {
	return a == b || m.rules.Teams(m.n) && (a+2)%4 == b
}

// sides returns the number of sides (seats, or teams) still playing.
func (m *Match) sides() int {
	c := 0
	for s := 0; s < m.n; s++ {
		if m.active[s] && !(m.rules.Teams(m.n) && s >= 2 && m.active[s-2]) {
			c++
		}
	}
	return c
}

// PrizeLimit is turkish-rummy's quick-game prize rule: the winner takes at
// least 75% of the pool, and the rest is shared by the other players with
// fewer penalty points than this limit: 40 after a 1-round game, 80 after 3.
// It is 0 for rulesets without a prize.
func (r Ruleset) PrizeLimit() int {
	if r.Scoring != Penalty {
		return 0
	}
	switch r.Rounds {
	case 1:
		return 40
	case 3:
		return 80
	}
	return 0
}

// Deltas returns what a hand's result does to each seat's score.
func (m *Match) Deltas(res HandResult) []int {
	r := m.rules
	d := make([]int, m.n)
	same := m.sameSide
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
		if res.Winner >= 0 || r.StalemateShow {
			for _, s := range res.Shown {
				add(s, -r.GostermePoints, false)
			}
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
		if res.Upcard >= 0 {
			add(res.Upcard, r.UpcardPoints, false)
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
			if m.sides() < 2 {
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

// Standing is one line of a ranking.
type Standing struct {
	Seat  int
	Score int
	Place int // 1 for the best; equal scores share a place
	// Prize: with a prize rule (Ruleset.PrizeLimit), the seat shares the
	// pool: the first place always, the others under the limit.
	Prize bool
}

// Ranking returns the seats best first. CountDown and Strokes rank the
// highest score first, Penalty and WinnerCountDown the lowest. Seats that
// left (leave-at-zero) lost in CountDown (they rank last, later leavers
// higher) and finished in WinnerCountDown (they rank first, earlier
// finishers higher). Equal scores share a place among the seats still
// playing; among those that left, partners share theirs.
func (m *Match) Ranking() []Standing {
	low := m.rules.Scoring == Penalty || m.rules.Scoring == WinnerCountDown
	var seats []int
	for s := 0; s < m.n; s++ {
		if m.active[s] {
			seats = append(seats, s)
		}
	}
	var out []Standing
	pushLeft := func(s int) {
		place := len(out) + 1
		if k := len(out) - 1; k >= 0 && m.sameSide(s, out[k].Seat) {
			place = out[k].Place
		}
		out = append(out, Standing{Seat: s, Score: m.scores[s], Place: place})
	}
	finishedFirst := m.rules.Scoring == WinnerCountDown
	if finishedFirst {
		for _, s := range m.left {
			pushLeft(s)
		}
	}
	out = rank(out, seats, m.scores, low)
	if !finishedFirst {
		for i := len(m.left) - 1; i >= 0; i-- {
			pushLeft(m.left[i])
		}
	}
	if lim := m.rules.PrizeLimit(); lim > 0 {
		for i := range out {
			out[i].Prize = out[i].Place == 1 || out[i].Score < lim
		}
	}
	return out
}

// rank appends seats to out best first (the lowest score first when low),
// a stable sort: equal scores keep seat order and share a place.
func rank(out []Standing, seats, score []int, low bool) []Standing {
	better := func(a, b int) bool {
		if low {
			return score[a] < score[b]
		}
		return score[a] > score[b]
	}
	seats = append([]int(nil), seats...)
	for i := 1; i < len(seats); i++ {
		for j := i; j > 0 && better(seats[j], seats[j-1]); j-- {
			seats[j], seats[j-1] = seats[j-1], seats[j]
		}
	}
	for i, s := range seats {
		place := len(out) + 1
		if i > 0 && score[s] == score[seats[i-1]] {
			place = out[len(out)-1].Place
		}
		out = append(out, Standing{Seat: s, Score: score[s], Place: place})
	}
	return out
}

// Hash returns the canonical hash of the match's public state: every peer
// computes the same value after every action. Private faces never enter it.
func (m *Match) Hash() [32]byte {
	return sha256.Sum256(m.AppendState(nil))
}

// StateLabel opens the state encoding; it names the encoding's version.
const StateLabel = "okey/state/v2"

// AppendState appends the canonical encoding of the public state, the input
// of Hash. The encoding is specified field by field in protocol.md 3.5.
func (m *Match) AppendState(b []byte) []byte {
	b = append(b, StateLabel...)
	b = appendString(b, m.rules.String())
	b = append(b, byte(m.n), byte(m.dealer))
	b = binary.BigEndian.AppendUint32(b, uint32(m.hands))
	for s := 0; s < m.n; s++ {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(m.scores[s])))
		b = appendBool(b, m.active[s])
	}
	b = appendInts(b, m.left)
	b = appendBool(b, m.over)
	b = appendBool(b, m.settled)
	return m.hand.appendState(b)
}

func (h *Hand) appendState(b []byte) []byte {
	b = append(b, byte(h.phase))
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
	b = appendBool(b, r.OkeyDiscard)
	return append(b, byte(int8(r.Upcard)))
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
