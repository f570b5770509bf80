package tablemodel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// End101 is what the end of an Okey 101 round shows: how it ended, each
// seat's points with their causes, every rack (opened at the round's end),
// the totals and the rounds left.
type End101 struct {
	Result  engine.Result101
	Opened  []engine.Opened
	Racks   [][]engine.Face // what each seat held at the end
	Results []engine.Result101
	Played  int // rounds that counted so far
	Rounds  int // rounds of the match
}

// RoundsLeft is how many rounds the match has left after this one.
func (e *End101) RoundsLeft() int { return max(e.Rounds-e.Played, 0) }

// events101 is Events for a 101 match: the log lines of one step, and the
// end of a round.
func events101(prev, cur *Snapshot) (lines []Line, end *HandEnd) {
	m := cur.Match101
	g := m.Game()
	if prev == nil || prev.Match101 == nil || prev.Match101.HandNumber() != m.HandNumber() {
		lines = append(lines, Line{txt(i18n.T("round %d: %s", m.HandNumber()+1, cur.Pick(g.Dealer(), i18n.T("you deal"), i18n.T("%s deals", cur.Name(g.Dealer())))))})
		return lines, nil
	}
	pg := prev.Match101.Game()
	defer func() {
		if end = end101(prev, cur); end != nil {
			lines = append(lines, endLine101(cur, end.R101.Result))
		}
	}()
	if pg.Phase() < engine.Phase101Play && g.Phase() >= engine.Phase101Play {
		_, ind := g.Indicator()
		lines = append(lines, Line{txt(i18n.T("indicator ")), tile(ind), txt(i18n.T(", okey ")), tile(g.Okey()),
			txt("; " + cur.Pick(g.Order()[0], i18n.T("you start"), i18n.T("%s starts", cur.Name(g.Order()[0]))))})
	}
	if pg.Phase() != engine.Phase101Play {
		return lines, nil
	}
	seat, _, _ := pg.Turn()
	if len(g.Stock()) < len(pg.Stock()) {
		lines = append(lines, Line{txt(cur.Pick(seat, i18n.T("you draw from the bank"), i18n.T("%s draws from the bank", cur.Name(seat))))})
	}
	for s := 0; s < m.Players(); s++ {
		pp, cp := pg.Pile(s), g.Pile(s)
		switch {
		case len(cp) < len(pp):
			lines = append(lines, Line{txt(cur.Pick(seat, i18n.T("you take "), i18n.T("%s takes ", cur.Name(seat)))), tile(pg.PublicFace(pp[len(pp)-1]))})
		case len(cp) > len(pp) && g.Turns() > pg.Turns():
			lines = append(lines, Line{txt(cur.Pick(s, i18n.T("you discard "), i18n.T("%s discards ", cur.Name(s)))), tile(g.PublicFace(cp[len(cp)-1]))})
		case len(cp) > len(pp):
			lines = append(lines, Line{txt(cur.Pick(seat, i18n.T("you give back "), i18n.T("%s gives back ", cur.Name(seat)))), tile(g.PublicFace(cp[len(cp)-1]))})
		}
	}
	pm, cm := pg.Melds(), g.Melds()
	if len(cm) > len(pm) {
		l := Line{}
		if pg.Opened(seat) == engine.NotOpened && g.Opened(seat) != engine.NotOpened {
			if g.Opened(seat) == engine.OpenedDoubles {
				l = append(l, txt(cur.Pick(seat, i18n.T("you open with %d doubles: ", len(cm)-len(pm)), i18n.T("%s opens with %d doubles: ", cur.Name(seat), len(cm)-len(pm)))))
			} else {
				l = append(l, txt(cur.Pick(seat, i18n.T("you open with %d points: ", meldsValue(cm[len(pm):])), i18n.T("%s opens with %d points: ", cur.Name(seat), meldsValue(cm[len(pm):])))))
			}
		} else {
			l = append(l, txt(cur.Pick(seat, i18n.T("you lay "), i18n.T("%s lays ", cur.Name(seat)))))
		}
		for i, md := range cm[len(pm):] {
			if i > 0 {
				l = append(l, txt(" · "))
			}
			for k, s := range md.Tiles {
				l = append(l, MeldTile(g, md, k, s))
			}
		}
		lines = append(lines, l)
	}
	for i := range pm {
		if i >= len(cm) {
			break
		}
		switch {
		case len(cm[i].Tiles) > len(pm[i].Tiles):
			l := Line{txt(cur.Pick(seat, i18n.T("you add "), i18n.T("%s adds ", cur.Name(seat))))}
			for k, s := range cm[i].Tiles {
				if !slices.Contains(pm[i].Tiles, s) {
					l = append(l, MeldTile(g, cm[i], k, s))
				}
			}
			lines = append(lines, append(l, txt(i18n.T(" to meld %c", HandleOf(i)))))
		case fmt.Sprint(cm[i].Tiles) != fmt.Sprint(pm[i].Tiles):
			lines = append(lines, Line{txt(cur.Pick(seat, i18n.T("you take the okey of meld %c", HandleOf(i)), i18n.T("%s takes the okey of meld %c", cur.Name(seat), HandleOf(i))))})
		}
	}
	if pp, cp := pg.Penalties(), g.Penalties(); len(cp) > len(pp) {
		for _, p := range cp[len(pp):] {
			lines = append(lines, Line{txt(i18n.T("penalty: %s +%d (%s)", cur.Name(p.Seat), p.Points, PenaltyText(p.Kind)))})
		}
	}
	return lines, nil
}

// MeldTile is the k-th tile s of meld m as the log writes it: an okey
// marked with the face it stands for ("R8*").
func MeldTile(g *engine.Game101, m engine.Meld, k int, s engine.Slot) Span {
	as := engine.NoFace
	if k < len(m.As) {
		as = m.As[k]
	}
	return Wild(g.PublicFace(s), as, g.Okey())
}

// end101 reports the end of a round: called when the round's result first
// appears (prev without it).
func end101(prev, cur *Snapshot) *HandEnd {
	m := cur.Match101
	g := m.Game()
	res, ok := g.Result()
	if !ok {
		return nil
	}
	if prev != nil && prev.Match101 != nil && prev.Match101.HandNumber() == m.HandNumber() {
		if _, was := prev.Match101.Game().Result(); was {
			return nil
		}
	}
	e := &HandEnd{Hand: uint32(m.HandNumber()), Names: cur.Names, Scores: m.Scores(), Over: m.Over(),
		Discard: engine.NoFace, Okey: g.Okey(),
		R101: &End101{Result: res, Results: m.Results(), Played: m.Played(), Rounds: m.Rules().Rounds}}
	for s := 0; s < m.Players(); s++ {
		e.R101.Opened = append(e.R101.Opened, g.Opened(s))
		var faces []engine.Face
		for _, sl := range g.Rack(s) {
			faces = append(faces, g.PublicFace(sl))
		}
		e.R101.Racks = append(e.R101.Racks, faces)
		e.Deltas = append(e.Deltas, res.Points[s])
	}
	if res.Finisher >= 0 {
		e.Winner = cur.Name(res.Finisher)
	}
	if e.Over {
		e.Ranking = m.Ranking()
	}
	return e
}

// endLine is the log line of a round's end.
func endLine101(cur *Snapshot, r engine.Result101) Line {
	switch r.End {
	case engine.EndFinish:
		s := cur.Pick(r.Finisher, i18n.T("you finish the round"), i18n.T("%s finishes the round", cur.Name(r.Finisher)))
		if r.JokerFinish {
			s += i18n.T(" with the okey (points doubled)")
		}
		return Line{txt(s)}
	case engine.EndCancelled:
		return Line{txt(i18n.T("every player opened with doubles: the round is cancelled and dealt again"))}
	}
	return Line{txt(i18n.T("the bank is empty: the round ends with no finisher"))}
}

func meldsValue(ms []engine.Meld) int {
	v := 0
	for _, m := range ms {
		if m.Kind == engine.Pair {
			continue
		}
		for _, f := range m.As {
			v += f.Number()
		}
	}
	return v
}

// PenaltyText names a penalty.
func PenaltyText(k engine.PenaltyKind) string {
	switch k {
	case engine.PenaltyJokerDiscard:
		return i18n.T("okey discarded")
	case engine.PenaltyAddable:
		return i18n.T("discard that fit a meld")
	case engine.PenaltyJokerInHand:
		return i18n.T("okey kept in hand")
	}
	return k.String()
}

// HandleKeys are the meld handles, in table order: 1-9, then A-Z.
const HandleKeys = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// HandleOf is the handle of the i-th meld on the table ('*' past Z).
func HandleOf(i int) rune {
	if i >= 0 && i < len(HandleKeys) {
		return rune(HandleKeys[i])
	}
	return '*'
}

// MeldOfHandle is the meld a handle names (-1: none).
func MeldOfHandle(r rune) int { return strings.IndexRune(HandleKeys, r) }

// Causes101 lists why a seat scored what it did in a round.
func Causes101(res engine.Result101, opened []engine.Opened, s int) string {
	var out []string
	if res.End == engine.EndCancelled {
		return i18n.T("cancelled")
	}
	hp := 0
	if s < len(res.HandPoints) {
		hp = res.HandPoints[s]
	}
	switch {
	case s == res.Finisher:
		out = append(out, i18n.T("finished %d", hp))
	case s < len(opened) && opened[s] == engine.NotOpened:
		out = append(out, i18n.T("not opened %d", hp))
	default:
		out = append(out, i18n.T("tiles %d", hp))
	}
	if res.End == engine.EndFinish && res.Finisher >= 0 && res.Finisher < len(opened) && opened[res.Finisher] == engine.OpenedDoubles {
		out = append(out, i18n.T("finisher's doubles x2"))
	}
	if s != res.Finisher && s < len(opened) && opened[s] == engine.OpenedDoubles {
		out = append(out, i18n.T("doubles x2"))
	}
	if res.OneTurn && res.End == engine.EndFinish {
		out = append(out, i18n.T("one-turn finish x2"))
	}
	if res.JokerFinish {
		out = append(out, i18n.T("okey finish x2"))
	}
	for _, p := range res.Penalties {
		if p.Seat == s {
			out = append(out, fmt.Sprintf("%s +%d", PenaltyText(p.Kind), p.Points))
		}
	}
	return strings.Join(out, ", ")
}
