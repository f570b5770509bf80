package tablemodel

import (
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

// Pick is mine when seat is the player's, else other: two whole sentences,
// already translated ("you discard", "ayse discards"), as languages other
// than English do not build them from a name and a verb.
func (s *Snapshot) Pick(seat int, mine, other string) string {
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
	// As is the face an okey stands for in a meld or a winning hand
	// (Wild set): written As* as okey analyze writes it.
	As   engine.Face
	Wild bool
}

// FaceText is how a tile span reads: its face, or for an okey standing for
// another face that face with a star ("R8*").
func (sp Span) FaceText() string {
	if sp.Wild {
		return sp.As.String() + "*"
	}
	return sp.Face.String()
}

// Line is one log line.
type Line []Span

func (l Line) String() string {
	out := ""
	prev := false
	for _, sp := range l {
		if sp.Face != engine.NoFace {
			if prev {
				out += " "
			}
			out += sp.FaceText()
			prev = true
		} else {
			out += sp.Text
			prev = false
		}
	}
	return out
}

// Plural is one when n is 1, else many (English counts: "1 meld", "2
// melds"; Turkish has one form, the catalogue gives both the same).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func txt(s string) Span       { return Span{Text: s, Face: engine.NoFace} }
func tile(f engine.Face) Span { return Span{Face: f} }

// Text is a span of text (already in the interface's language).
func Text(s string) Span { return txt(s) }

// Tile is a span of one tile face.
func Tile(f engine.Face) Span { return tile(f) }

// Wild is an okey tile f standing for as ("as*" when as differs from f).
func Wild(f, as, okey engine.Face) Span {
	if f == okey && as != engine.NoFace && as != f {
		return Span{Face: f, As: as, Wild: true}
	}
	return Span{Face: f}
}

// GroupSpans are tiles of a meld (or a group of a winning hand) with the
// faces they play as: one span a tile, the okeys marked.
func GroupSpans(tiles, as []engine.Face, okey engine.Face) Line {
	var l Line
	for i, f := range tiles {
		a := engine.NoFace
		if i < len(as) {
			a = as[i]
		}
		l = append(l, Wild(f, a, okey))
	}
	return l
}

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

	// At is the snapshot the hand ended at (Events sets it): while its
	// panel is up a front end draws the table under it as it was then.
	At *Snapshot
}

// Events compares two consecutive snapshots and tells what happened: log
// lines, and the end of a hand.
func Events(prev, cur *Snapshot) (lines []Line, end *HandEnd) {
	g := gameOf(cur)
	if g == nil {
		return nil, nil
	}
	lines, end = g.events(prev, cur)
	if end != nil {
		end.At = cur
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
		if g := gameOf(s); g != nil {
			drawer = g.turnOf(s)
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
