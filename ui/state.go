package ui

import (
	"slices"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// Snapshot is what the table screen shows: a copy of the public state and of
// the player's view after one protocol step. The UI never reads the live
// machine: a peer's goroutine takes a snapshot after every step.
type Snapshot struct {
	Seat     int      // the player's seat
	Names    []string // seat names
	Ruleset  string
	Match    *engine.Match    // a clone; nil before the first hand's randomness
	Match101 *engine.Match101 // Okey 101: a clone (Match is nil then)
	View     engine.View      // the player's view (a copy)
	Step     uint32
	Hand     uint32
	Expect   int        // the seat that must speak next, -1 when done
	Kind     table.Kind // what it must send
	Done     bool
	Aborted  *table.Violation
	At       time.Time // when the step was applied
	Finished []table.HandLog
}

// TakeSnapshot copies what the UI needs from a machine and a view. It is
// called from the peer's goroutine (PeerConfig.OnStep).
func TakeSnapshot(m *table.Machine, v *engine.View, seat int) *Snapshot {
	cfg := m.Config()
	s := &Snapshot{Seat: seat, Ruleset: cfg.Ruleset, Step: m.Step(), Hand: m.HandNumber(), Done: m.Done(),
		Aborted: m.Aborted(), At: time.Now(), Finished: m.Hands()}
	for _, st := range cfg.Seats {
		s.Names = append(s.Names, st.Name)
	}
	if mt := m.Match(); mt != nil {
		s.Match = mt.Clone()
	}
	if mt := m.Match101(); mt != nil {
		s.Match101 = mt.Clone()
	}
	if v != nil {
		s.View = *v
	} else {
		s.View = *engine.NewView(seat)
	}
	s.Expect, s.Kind = m.Expect()
	return s
}

// HandState returns the current hand, or nil.
func (s *Snapshot) HandState() *engine.Hand {
	if s == nil || s.Match == nil {
		return nil
	}
	return s.Match.Hand()
}

// Name returns a seat's display name, "you" for the player.
func (s *Snapshot) Name(seat int) string {
	if seat == s.Seat {
		return i18n.T("you")
	}
	if seat >= 0 && seat < len(s.Names) {
		return s.Names[seat]
	}
	return i18n.T("seat %d", seat)
}

// pick is mine when seat is the player's, else other: two whole sentences,
// already translated ("you discard", "ayse discards"), as languages other
// than English do not build them from a name and a verb.
func (s *Snapshot) pick(seat int, mine, other string) string {
	if seat == s.Seat {
		return mine
	}
	return other
}

// MyTurn reports whether the player must move now (a move, not a protocol step).
func (s *Snapshot) MyTurn() bool {
	return s != nil && !s.Done && s.Expect == s.Seat && s.Kind == table.KindMove
}

// Span is a piece of a log line: text, or a tile face.
type Span struct {
	Text string
	Face engine.Face // engine.NoFace for text
}

// Line is one log line.
type Line []Span

func (l Line) String() string {
	out := ""
	for _, sp := range l {
		if sp.Face != engine.NoFace {
			out += sp.Face.String()
		} else {
			out += sp.Text
		}
	}
	return out
}

func txt(s string) Span       { return Span{Text: s, Face: engine.NoFace} }
func tile(f engine.Face) Span { return Span{Face: f} }

// HandEnd is what the end-of-hand screen shows.
type HandEnd struct {
	Hand    uint32
	Result  engine.HandResult
	Winner  string
	Discard engine.Face // the winner's final discard (NoFace for none)
	Deltas  []int
	Scores  []int
	Names   []string
	Over    bool // the match ended with this hand
	Ranking []engine.Standing
	Okey    engine.Face
	// Racks are the slots each seat held when the hand ended; the audit
	// that follows opens them all (Snapshot.Finished), and the score table
	// then shows every player's hand.
	Racks [][]engine.Slot
	// R101 is an Okey 101 round's end (Result is then zero).
	R101 *End101
}

// Events compares two consecutive snapshots and tells what happened: log
// lines, and the end of a hand.
func Events(prev, cur *Snapshot) (lines []Line, end *HandEnd) {
	if cur != nil && cur.Match101 != nil {
		return events101(prev, cur)
	}
	if cur == nil || cur.Match == nil {
		return nil, nil
	}
	ch := cur.Match.Hand()
	if prev == nil || prev.Match == nil || prev.Match.HandNumber() != cur.Match.HandNumber() {
		hn, dealer := cur.Match.HandNumber()+1, ch.Dealer()
		lines = append(lines, Line{txt(cur.pick(dealer, i18n.T("hand %d: you deal", hn), i18n.T("hand %d: %s deals", hn, cur.Name(dealer))))})
		if prev == nil || prev.Match == nil {
			return lines, nil
		}
		// The previous hand's end was reported at its last move.
		return lines, nil
	}
	ph := prev.Match.Hand()
	if ph.Phase() < engine.PhasePlay && ch.Phase() >= engine.PhasePlay {
		_, ind := ch.Indicator()
		first := ch.Order()[0]
		lines = append(lines, Line{txt(i18n.T("face-up tile") + " "), tile(ind), txt(", okey "), tile(ch.Okey()),
			txt("; " + cur.pick(first, i18n.T("you start"), i18n.T("%s starts", cur.Name(first))))})
	}
	if ph.Phase() != engine.PhasePlay {
		return lines, nil
	}
	n := cur.Match.Players()
	grew := -1
	for s := 0; s < n; s++ {
		if len(ch.Rack(s)) > len(ph.Rack(s)) {
			grew = s
		}
	}
	for s := 0; s < n; s++ {
		pp, cp := ph.Pile(s), ch.Pile(s)
		switch {
		case len(cp) > len(pp):
			lines = append(lines, Line{txt(cur.pick(s, i18n.T("you discard "), i18n.T("%s discards ", cur.Name(s)))), tile(ch.PublicFace(cp[len(cp)-1]))})
		case len(cp) < len(pp) && grew >= 0:
			lines = append(lines, Line{txt(cur.pick(grew, i18n.T("you take "), i18n.T("%s takes ", cur.Name(grew)))), tile(ch.PublicFace(pp[len(pp)-1]))})
		}
		if ch.Shown(s) && !ph.Shown(s) {
			_, ind := ch.Indicator()
			lines = append(lines, Line{txt(cur.pick(s, i18n.T("you show "), i18n.T("%s shows ", cur.Name(s)))), tile(ind), txt(" (gösterme)")})
		}
	}
	if ch.StockLen() < ph.StockLen() && grew >= 0 {
		lines = append(lines, Line{txt(cur.pick(grew, i18n.T("you draw from the stock"), i18n.T("%s draws from the stock", cur.Name(grew))))})
	}
	if res, ok := ch.Result(); ok && ph.Phase() == engine.PhasePlay {
		end = &HandEnd{Hand: cur.Hand, Result: res, Names: cur.Names, Scores: cur.Match.Scores(),
			Over: cur.Match.Over(), Discard: engine.NoFace, Okey: ch.Okey()}
		for s := range cur.Names {
			end.Racks = append(end.Racks, slices.Clone(ch.Rack(s)))
		}
		before := prev.Match.Scores()
		for i, sc := range end.Scores {
			end.Deltas = append(end.Deltas, sc-before[i])
		}
		if end.Over {
			end.Ranking = cur.Match.Ranking()
		}
		if res.Winner >= 0 {
			end.Winner = cur.Name(res.Winner)
			kept := map[engine.Slot]bool{}
			for _, s := range ch.Rack(res.Winner) {
				kept[s] = true
			}
			for _, s := range ph.Rack(res.Winner) {
				if !kept[s] {
					end.Discard = ch.PublicFace(s)
				}
			}
			w := res.Winner
			l := Line{txt(cur.pick(w, i18n.T("you win with groups"), i18n.T("%s wins with groups", cur.Name(w))))}
			if res.Kind == engine.Pairs {
				l = Line{txt(cur.pick(w, i18n.T("you win with seven pairs"), i18n.T("%s wins with seven pairs", cur.Name(w))))}
			}
			if end.Discard != engine.NoFace {
				l = append(l, txt(i18n.T(", discarding ")), tile(end.Discard))
			}
			lines = append(lines, l)
		} else {
			lines = append(lines, Line{txt(i18n.T("the stock is empty: the hand ends with no winner"))})
		}
	}
	return lines, end
}

// Progress says who is working on what while the table runs its protocol
// (shuffling, re-keying, proving), or whose move it is.
func Progress(s *Snapshot) string {
	if s == nil {
		return i18n.T("starting the table")
	}
	if s.Aborted != nil {
		return i18n.T("the match stopped: %s broke %s", s.Name(s.Aborted.Seat), RuleName(s.Aborted.Rule))
	}
	if s.Done {
		return i18n.T("the match is over")
	}
	who := s.Name(s.Expect)
	n := len(s.Names)
	k := s.Expect + 1
	switch s.Kind {
	case table.KindHello:
		return i18n.T("waiting for %s to join", who)
	case table.KindShuffle:
		return i18n.T("shuffling: %s locks and shuffles the tiles (%d/%d)", who, k, n)
	case table.KindRekey:
		return i18n.T("re-keying: %s re-keys every tile, with proofs (%d/%d)", who, k, n)
	case table.KindOpen:
		return i18n.T("opening: %s helps turn up a tile", who)
	case table.KindDeal:
		return i18n.T("dealing: %s hands out the keys to the dealt tiles (%d/%d)", who, k, n)
	case table.KindShare:
		drawer := -1
		if h := s.HandState(); h != nil {
			drawer, _ = h.Turn()
		} else if s.Match101 != nil {
			drawer, _, _ = s.Match101.Game().Turn()
		}
		return i18n.T("%s opens the drawn tile for %s", who, s.Name(drawer))
	case table.KindAudit:
		return i18n.T("audit: %s reveals its keys, every proof is checked (%d/%d)", who, k, n)
	case table.KindMove:
		if s.Expect == s.Seat {
			return i18n.T("your turn")
		}
		return i18n.T("%s to play", who)
	}
	return who + ": " + KindName(s.Kind)
}
