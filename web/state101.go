package web

import (
	"fmt"
	"slices"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Okey 101's part of the state: the melds on the table (every seat's, each
// with its handle and owner, an okey marked with the face it stands for),
// how each seat stands, the selection read as melds (the opening's
// threshold: "%d of 101 points to open"), the penalty question, and the
// round's panel. Its faces come, as the classic state's do, from the
// seat's View and the round's public faces only.

type table101JSON struct {
	Round    string     `json:"round"` // round 2 (1 of 3 counted)
	Melds    []meldJSON `json:"melds"`
	Me       string     `json:"me"`       // you · 21 tiles · not opened · 0 pts
	Sel      string     `json:"sel"`      // the selection as melds ("" with none)
	Question string     `json:"question"` // a discard's penalty, asked first
}

type meldJSON struct {
	Meld   int      `json:"meld"`
	Handle string   `json:"handle"`
	Owner  string   `json:"owner"`
	Mine   bool     `json:"mine,omitempty"`
	Tiles  lineJSON `json:"tiles"`
}

type end101JSON struct {
	Head    string     `json:"head"`
	Seats   []seat101  `json:"seats"`
	Header  []string   `json:"header"` // the score table: "round", then the names
	Results [][]string `json:"results"`
	Foot    string     `json:"foot"`
}

type seat101 struct {
	Name   string      `json:"name"`
	Points string      `json:"points"` // +505
	Total  int         `json:"total"`
	Causes string      `json:"causes"`
	Rack   []*faceJSON `json:"rack"` // opened to all at the round's end
	Empty  string      `json:"empty,omitempty"`
}

// labels101 are the 101 table's words.
func labels101(l map[string]string) {
	for k, v := range map[string]string{
		"lay": i18n.T("lay"), "add": i18n.T("add"), "giveback": i18n.T("give back"), "clear": i18n.T("clear"),
		"prev": i18n.T("previous discard"), "nomelds": i18n.T("no melds on the table yet"),
		"yes": i18n.T("yes"), "no": i18n.T("no"), "total": i18n.T("total"),
		"keys": i18n.T("keys: d draw · t take · b give back · space select · l lay · a add · 1-9 A-Z add to that meld · x discard · h hint · m move a tile · c clear · s r p sort · u undo · q leave"),
	} {
		l[k] = v
	}
}

// build101 fills the state of a 101 round (s, as drawn: the ended
// round's while its panel is up).
func (g *Game) build101(st *stateJSON, s *tablemodel.Snapshot, rack *tablemodel.Rack) {
	m := g.m
	labels101(st.Labels)
	mt := s.Match101
	r := mt.Game()
	okey := r.Okey()
	t := &table101JSON{Me: i18n.T("you") + " · " + tablemodel.SeatWord101(mt, s.Seat)}
	hand, played, rounds := mt.HandNumber()+1, mt.Played(), mt.Rules().Rounds
	if len(m.Ends) > 0 {
		hand = int(m.Ends[0].Hand) + 1
		if e := m.Ends[0].R101; e != nil {
			played, rounds = e.Played, e.Rounds
		}
	}
	t.Round = i18n.T("round %d (%d of %d counted)", hand, played, rounds)
	st.Hand = hand
	for _, a := range []struct {
		k string
		a tablemodel.Action
	}{{"lay", tablemodel.Lay}, {"add", tablemodel.Add}, {"giveback", tablemodel.GiveBack}} {
		st.Actions[a.k] = actionJSON{On: m.Offered(a.a), Off: m.Off(a.a)}
	}
	if len(m.Sel) > 0 && s == m.Snap {
		t.Sel = m.SelText()
	}
	if q := g.asking; q != nil && q.snap == m.Snap {
		t.Question = q.text
	}
	if _, ind := r.Indicator(); ind != engine.NoFace {
		st.Ind, st.Okey = faceOf(ind, okey), faceOf(okey, okey)
	}
	st.Stock = len(r.Stock())
	st.Labels["bank"] = i18n.T("bank %d", st.Stock)
	turn, _, _ := r.Turn()
	scores := mt.Scores()
	for i := range st.Seats {
		se := &st.Seats[i]
		se.Tiles = len(r.Rack(i))
		for _, sl := range r.Pile(i) {
			se.Pile = append(se.Pile, faceOf(r.PublicFace(sl), okey))
		}
		se.Turn = i == turn && r.Phase() == engine.Phase101Play
		se.Dealer = i == r.Dealer()
		se.Word = tablemodel.SeatWord101(mt, i)
		if i < len(scores) {
			se.Score = scores[i]
		}
	}
	if f := tablemodel.PrevDiscard101(r); f != engine.NoFace {
		st.Take = faceOf(f, okey)
	}
	t.Melds = melds101(r, s)
	st.R101 = t
	st.Cursor, st.Lifted = rack.Cursor, rack.Lifted
	if r.Phase() < engine.Phase101Play {
		return
	}
	for p := range tablemodel.RackSize {
		sl := rack.At(p)
		if sl == engine.NoSlot || !slices.Contains(r.Rack(s.Seat), sl) {
			continue
		}
		// The face as this seat's view holds it in the snapshot drawn.
		st.Rack = append(st.Rack, rackTile{Pos: p, Face: faceOf(s.View.Face(r, sl), okey), Fresh: s == m.Snap && m.IsFresh(sl),
			Hinted: s == m.Snap && m.Hinted[sl], Sel: s == m.Snap && m.Sel[sl]})
	}
}

// end101Of is a 101 round's panel: how it ended, every seat's points with
// their causes and its rack, the score table of the rounds so far.
func end101Of(e *tablemodel.HandEnd, cur *tablemodel.Snapshot) *end101JSON {
	r := e.R101
	res := r.Result
	name := func(s int) string {
		if cur != nil && s < len(cur.Names) {
			return cur.Name(s)
		}
		if s < len(e.Names) {
			return e.Names[s]
		}
		return i18n.T("seat %d", s)
	}
	out := &end101JSON{Head: tablemodel.EndHead101(res, name), Foot: tablemodel.EndFoot101(e), Header: []string{i18n.T("round")}}
	for s := range r.Racks {
		row := seat101{Name: name(s), Causes: tablemodel.Causes101(res, r.Opened, s), Rack: []*faceJSON{}}
		if s < len(res.Points) {
			row.Points = fmt.Sprintf("%+d", res.Points[s])
		}
		if s < len(e.Scores) {
			row.Total = e.Scores[s]
		}
		if len(r.Racks[s]) == 0 {
			row.Empty = i18n.T("(empty rack)")
		}
		for _, f := range r.Racks[s] {
			row.Rack = append(row.Rack, faceOf(f, e.Okey))
		}
		out.Seats = append(out.Seats, row)
		out.Header = append(out.Header, name(s))
	}
	for i, rr := range r.Results {
		line := []string{fmt.Sprint(i + 1)}
		if rr.End == engine.EndCancelled {
			line[0] = i18n.T("void")
		}
		for s := range r.Racks {
			v := 0
			if s < len(rr.Points) {
				v = rr.Points[s]
			}
			line = append(line, fmt.Sprint(v))
		}
		out.Results = append(out.Results, line)
	}
	return out
}
