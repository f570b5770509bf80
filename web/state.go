package web

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The state sent to the page after every change: what the player's own
// view holds and nothing else. Its faces come from two places only: the
// seat's View (the tiles of its own rack the protocol opened to it) and the
// hand's PublicFace (the indicator, discards, tiles opened to all); a tile
// hidden from the seat is never a face here (TestStateHoldsNoHiddenTile).

// faceJSON is a tile's face as the page draws it.
type faceJSON struct {
	S    string `json:"s"`           // okey notation: R7, FJ
	N    int    `json:"n,omitempty"` // number 1..13 (0: the false joker)
	C    int    `json:"c"`           // colour 0..3 (engine.Colour), -1 for the false joker
	FJ   bool   `json:"fj,omitempty"`
	Okey bool   `json:"okey,omitempty"` // the hand's okey (the wild tile)
}

func faceOf(f, okey engine.Face) *faceJSON {
	if f == engine.NoFace || !f.Valid() {
		return nil
	}
	if f.IsFalseJoker() {
		return &faceJSON{S: f.String(), C: -1, FJ: true}
	}
	return &faceJSON{S: f.String(), N: f.Number(), C: int(f.Colour()), Okey: f == okey && okey != engine.NoFace}
}

type rackTile struct {
	Pos    int       `json:"pos"`
	Face   *faceJSON `json:"face"` // nil: not open to the player yet
	Fresh  bool      `json:"fresh,omitempty"`
	Hinted bool      `json:"hinted,omitempty"`
	Sel    bool      `json:"sel,omitempty"` // Okey 101: selected
}

type seatJSON struct {
	Seat   int         `json:"seat"`
	Name   string      `json:"name"`
	Me     bool        `json:"me,omitempty"`
	Tiles  int         `json:"tiles"`            // how many tiles it holds
	Pile   []*faceJSON `json:"pile"`             // its discards, oldest first (public)
	Turn   bool        `json:"turn,omitempty"`   // its move
	Dealer bool        `json:"dealer,omitempty"` // dealt this hand
	Score  int         `json:"score"`
	Shown  bool        `json:"shown,omitempty"` // gösterme
	Word   string      `json:"word,omitempty"`  // Okey 101: how it stands (opened, its total)
	Open   []*faceJSON `json:"open,omitempty"`  // seen from no seat: its rack (nil: a face not opened to all)
}

type actionJSON struct {
	On  bool   `json:"on"`            // offered now
	Off string `json:"off,omitempty"` // why not
}

type lineJSON []spanJSON

type spanJSON struct {
	T string    `json:"t,omitempty"`
	F *faceJSON `json:"f,omitempty"`
}

type handEndJSON struct {
	Title  string       `json:"title"`
	Line   string       `json:"line"`
	Groups [][]spanJSON `json:"groups,omitempty"`
	Rows   []endRow     `json:"rows"`
	Over   bool         `json:"over,omitempty"`
	R101   *end101JSON  `json:"r101,omitempty"` // an Okey 101 round's panel
}

type endRow struct {
	Name   string `json:"name"`
	Change string `json:"change"`
	Score  int    `json:"score"`
	Why    string `json:"why,omitempty"`
}

type matchEndJSON struct {
	Title   string   `json:"title"`
	Head    string   `json:"head"`
	Rows    []endRow `json:"rows"`
	Verdict string   `json:"verdict"`
	Good    bool     `json:"good"`
	File    string   `json:"file,omitempty"`
}

type stateJSON struct {
	Lang     string                `json:"lang"`
	Labels   map[string]string     `json:"labels"`
	Game     string                `json:"game"`
	Hand     int                   `json:"hand"` // 1-based, 0 before the first
	Turn     string                `json:"turn"`
	Whose    int                   `json:"whose"` // tablemodel.Whose
	MyMove   bool                  `json:"myMove"`
	Timer    int                   `json:"timer"` // seconds left, -1: no timer
	Msg      string                `json:"msg"`
	MsgBad   bool                  `json:"msgBad,omitempty"`
	Seats    []seatJSON            `json:"seats"`
	Me       int                   `json:"me"`
	Ind      *faceJSON             `json:"indicator"`
	Okey     *faceJSON             `json:"okey"`
	Stock    int                   `json:"stock"`
	Take     *faceJSON             `json:"take"` // the discard the player may take
	Rack     []rackTile            `json:"rack"`
	Cursor   int                   `json:"cursor"`
	Lifted   int                   `json:"lifted"`
	Actions  map[string]actionJSON `json:"actions"`
	CanUndo  bool                  `json:"canUndo"`
	Log      []lineJSON            `json:"log"`
	HandEnd  *handEndJSON          `json:"handEnd"`
	MatchEnd *matchEndJSON         `json:"matchEnd"`
	Cols     int                   `json:"cols"`
	R101     *table101JSON         `json:"r101,omitempty"`     // an Okey 101 round's table
	Board    *boardJSON            `json:"board,omitempty"`    // a table seen from no seat (watch, replay)
	Links    []linkJSON            `json:"links,omitempty"`    // a LAN match: how this peer reaches each other seat
	Left     bool                  `json:"left,omitempty"`     // the player left: the last state
	Chat     *chatJSON             `json:"chat,omitempty"`     // a LAN table's chat (chat.go)
	Context  string                `json:"context,omitempty"`  // the header's word on the match (a tournament's round and table)
	LeaveAsk *leaveAskJSON         `json:"leaveAsk,omitempty"` // the leave asks first (a match under way)
}

// leaveAskJSON is the question a leave asks while the match is under way:
// the terminal's quit question, in its words.
type leaveAskJSON struct {
	Title string   `json:"title"`
	Lines []string `json:"lines"`
	Yes   string   `json:"yes"` // leave
	No    string   `json:"no"`  // stay
}

// leaveAsk is the leave's question now: nil once the match is over (the
// leave then only closes the end panel) or left.
func (g *Game) leaveAsk() *leaveAskJSON {
	if g.m.Final != nil || g.leaving {
		return nil
	}
	return &leaveAskJSON{Title: i18n.T("leave the table?"), Lines: []string{
		i18n.T("The match is not over. If you leave, the table stops;"),
		i18n.T("what was played so far stays saved in the data dir."),
		cmp.Or(g.leaveNote, i18n.T("okey play offers to resume it later.")),
	}, Yes: i18n.T("leave"), No: i18n.T("stay")}
}

// logShown is how many log lines the page gets.
const logShown = 60

// labels are the page's words, in the interface's language: the page holds
// no text of its own.
func labels() map[string]string {
	return map[string]string{
		"title": i18n.T("okey table"), "draw": i18n.T("draw"), "take": i18n.T("take"), "discard": i18n.T("discard"),
		"win": i18n.T("win"), "show": i18n.T("show"), "hint": i18n.T("hint"), "sets": i18n.T("sets"),
		"runs": i18n.T("runs"), "pairs": i18n.T("pairs"), "undo": i18n.T("undo"), "leave": i18n.T("leave"),
		"close": i18n.T("close"), "stock": i18n.T("stock"), "indicator": i18n.T("indicator"), "okey": i18n.T("okey"),
		"log": i18n.T("log"), "links": i18n.T("links"), "score": i18n.T("score"), "change": i18n.T("change"), "why": i18n.T("why"),
		"tiles": i18n.T("tiles"), "shown": i18n.T("(gösterme)"), "timer": i18n.T("timer"), "dealer": i18n.T("dealer"),
		"keys":         i18n.T("keys: d draw · t take · x discard · w win · g show · h hint · arrows move · space pick up/put down · s r p sort · u undo · q leave"),
		"disconnected": i18n.T("the table's process is gone: this page no longer plays"),
		"reconnecting": i18n.T("the connection to okey dropped: reconnecting…"),
		"left":         i18n.T("you left the table; the match is saved: okey play --resume continues it"),
	}
}

// build is the state of the model now (on the model's goroutine).
func (g *Game) build() *stateJSON {
	m := g.m
	st := &stateJSON{Lang: i18n.Current().String(), Labels: labels(), Timer: -1, Me: g.seat, Lifted: -1,
		Msg: m.Msg, MsgBad: m.MsgBad, Actions: map[string]actionJSON{}, Cols: tablemodel.RackCols, Left: g.leaving}
	// While a hand's panel is up, the table under it is that hand's as it
	// ended (its rack, piles and turn line), not the next one's.
	s, rack := m.Snap, m.Rack
	if len(m.Ends) > 0 {
		if at := m.EndedAt(m.Ends[0]); at != nil {
			s, rack = at.Snap, at.Rack
		}
	}
	t := m.Turn()
	if s != m.Snap {
		t = tablemodel.Turn{Text: tablemodel.Progress(s), Whose: tablemodel.TurnTable}
	}
	st.Turn, st.Whose, st.MyMove = t.Text, int(t.Whose), m.MyMove()
	if left, ok := m.TimeLeft(); ok {
		st.Timer = int((left + 999_999_999) / 1_000_000_000)
	}
	for _, a := range []struct {
		k string
		a tablemodel.Action
	}{{"draw", tablemodel.Draw}, {"take", tablemodel.Take}, {"discard", tablemodel.Discard}, {"win", tablemodel.Win}, {"show", tablemodel.Show}} {
		st.Actions[a.k] = actionJSON{On: m.Offered(a.a), Off: m.Off(a.a)}
	}
	st.CanUndo = m.Rack.CanUndo()
	st.Links = g.linkStates()
	st.Chat = g.chatState()
	st.Context, st.LeaveAsk = g.context, g.leaveAsk()
	for _, l := range tail(m.Log, logShown) {
		st.Log = append(st.Log, lineOf(l, engine.NoFace))
	}
	if s != nil {
		st.Game = tablemodel.Game(s)
		for i := range s.Names {
			st.Seats = append(st.Seats, seatJSON{Seat: i, Name: s.Name(i), Me: i == s.Seat, Pile: []*faceJSON{}})
		}
	}
	if s != nil && s.Match101 != nil {
		g.build101(st, s, rack)
	}
	if h := s.HandState(); h != nil {
		okey := h.Okey()
		st.Hand = s.Match.HandNumber() + 1
		_, ind := h.Indicator()
		st.Ind, st.Okey = faceOf(ind, okey), faceOf(okey, okey)
		st.Stock = h.StockLen()
		turn, _ := h.Turn()
		scores := s.Match.Scores()
		for i := range st.Seats {
			se := &st.Seats[i]
			se.Tiles = len(h.Rack(i))
			for _, sl := range h.Pile(i) {
				se.Pile = append(se.Pile, faceOf(h.PublicFace(sl), okey))
			}
			se.Turn = i == turn && h.Phase() == engine.PhasePlay
			se.Dealer = i == h.Dealer()
			se.Shown = h.Shown(i)
			if i < len(scores) {
				se.Score = scores[i]
			}
		}
		if tablemodel.CanTake(s) {
			if from := h.LastDiscard(); from >= 0 {
				if p := h.Pile(from); len(p) > 0 {
					st.Take = faceOf(h.PublicFace(p[len(p)-1]), okey)
				}
			}
		}
		st.Cursor, st.Lifted = rack.Cursor, rack.Lifted
		for p := range tablemodel.RackSize {
			sl := rack.At(p)
			if sl == engine.NoSlot {
				continue
			}
			// The face as this seat's view holds it in the snapshot drawn.
			st.Rack = append(st.Rack, rackTile{Pos: p, Face: faceOf(s.View.Face(h, sl), okey), Fresh: s == m.Snap && m.IsFresh(sl),
				Hinted: s == m.Snap && m.Hinted[sl]})
		}
	}
	if len(m.Ends) > 0 {
		st.HandEnd = handEndOf(m.Ends[0], m.Snap)
	} else if m.Final != nil {
		st.MatchEnd = matchEndOf(m.Final, m.Snap)
	}
	return st
}

func tail[T any](l []T, n int) []T {
	if len(l) > n {
		return l[len(l)-n:]
	}
	return l
}

func lineOf(l tablemodel.Line, okey engine.Face) lineJSON {
	out := lineJSON{}
	for _, sp := range l {
		if sp.Face != engine.NoFace {
			out = append(out, spanJSON{F: faceOf(sp.Face, okey), T: starOf(sp)})
			continue
		}
		out = append(out, spanJSON{T: sp.Text})
	}
	return out
}

// starOf is the face an okey stands for, written as the log writes it.
func starOf(sp tablemodel.Span) string {
	if sp.Wild {
		return sp.FaceText()
	}
	return ""
}

// handEndOf is a hand's end panel: who won and how, each seat's change,
// score and its causes (the terminal's panel, in the same words).
func handEndOf(e *tablemodel.HandEnd, cur *tablemodel.Snapshot) *handEndJSON {
	out := &handEndJSON{Title: i18n.T("hand %d is over", e.Hand+1), Over: e.Over}
	at := e.At
	if at == nil {
		at = cur
	}
	mine := at != nil && e.Result.Winner == at.Seat
	switch {
	case e.R101 != nil:
		out.Title = i18n.T("round %d is over", e.Hand+1)
		out.R101 = end101Of(e, at)
	case e.Result.Winner < 0:
		out.Line = i18n.T("The stock ran out: no one won this hand.")
	default:
		line := i18n.T("%s won with groups", e.Winner)
		switch {
		case mine && e.Result.Kind == engine.Pairs:
			line = i18n.T("you won with seven pairs")
		case mine:
			line = i18n.T("you won with groups")
		case e.Result.Kind == engine.Pairs:
			line = i18n.T("%s won with seven pairs", e.Winner)
		}
		if e.Result.OkeyDiscard {
			line += i18n.T(", finishing with an okey")
		}
		out.Line = line
		for _, gr := range e.Result.Groups {
			l := tablemodel.GroupSpans(gr.Tiles, gr.As, e.Okey)
			out.Groups = append(out.Groups, lineOf(l, e.Okey))
		}
	}
	var why []string
	if at != nil && at.Match != nil && e.R101 == nil {
		why = tablemodel.Causes(at.Match, e.Result, e.Names)
	}
	for seat, name := range e.Names {
		r := endRow{Name: name}
		if at != nil {
			r.Name = at.Name(seat)
		}
		if seat < len(e.Deltas) {
			r.Change = fmt.Sprintf("%+d", e.Deltas[seat])
		}
		if seat < len(e.Scores) {
			r.Score = e.Scores[seat]
		}
		if seat < len(why) {
			r.Why = why[seat]
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// matchEndOf is the match's end panel.
func matchEndOf(e *tablemodel.MatchEnd, s *tablemodel.Snapshot) *matchEndJSON {
	out := &matchEndJSON{Title: i18n.T("the match is over"), Verdict: e.Verdict, Good: e.Verified, File: e.Transcript}
	switch {
	case e.Err != nil:
		out.Head = i18n.T("The match stopped: %s", tablemodel.Explain(e.Err))
	case e.Note != "":
		out.Head = e.Note
	}
	for _, r := range e.Ranking {
		name := i18n.T("seat %d", r.Seat)
		if s != nil {
			name = s.Name(r.Seat)
		}
		if s != nil && r.Seat == s.Seat && e.Err == nil && out.Head == "" {
			out.Head = i18n.T("You finished %s of %d.", fmt.Sprint(r.Place), len(e.Ranking))
			if r.Place == 1 {
				out.Head = i18n.T("You won the match!")
			}
		}
		out.Rows = append(out.Rows, endRow{Name: name, Score: r.Score, Change: fmt.Sprint(r.Place)})
	}
	return out
}

// linkStates are the seats' links as the page shows them: the links' poll,
// corrected by presence (a seat whose peer is gone is reconnecting at
// once, and one the poll does not know yet too).
func (g *Game) linkStates() []linkJSON {
	var out []linkJSON
	for _, l := range g.links {
		if slices.Contains(g.away, l.Name) {
			l.Kind, l.RTT = "none", 0
		}
		out = append(out, linkJSON{Name: l.Name, Kind: l.Kind, Text: linkText(l)})
	}
	for _, n := range g.away {
		if !slices.ContainsFunc(g.links, func(l table.SeatLink) bool { return l.Name == n }) {
			out = append(out, linkJSON{Name: n, Kind: "none", Text: linkText(table.SeatLink{Name: n, Kind: "none"})})
		}
	}
	return out
}
