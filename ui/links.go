package ui

import (
	"slices"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// SeatLink is how this player's peer reaches another seat.
type SeatLink = table.SeatLink

// The kinds of SeatLink.Kind (p2p.LinkKind's names).
const (
	linkDirect    = "direct"
	linkRelayed   = "relayed"
	linkViaMember = "via-member"
	linkNone      = "none"
)

// setLinks takes the seats' links (Game.SetLinks).
func (t *TableView) setLinks(links []SeatLink) {
	t.links = links
	t.noteDown()
}

// setAway takes the names of the seats whose peers are not connected to
// this player's (Game.SetAway).
func (t *TableView) setAway(names []string) {
	t.away = names
	t.noteDown()
}

// networked reports whether the table is played over the network: the
// screen keeps a row for the seats' links.
func (t *TableView) networked() bool { return len(t.links) > 0 || len(t.away) > 0 }

// linkStates are the seats' links as the links line shows them: the
// links' poll, corrected by presence, which is told at once: a seat whose
// peer is not connected is not "direct" or "relayed" any more, whatever
// the last poll said, and a seat away before any poll is reconnecting.
func (t *TableView) linkStates() []SeatLink {
	out := make([]SeatLink, 0, len(t.links)+len(t.away))
	for _, l := range t.links {
		if slices.Contains(t.away, l.Name) && (l.Kind == linkDirect || l.Kind == linkRelayed) {
			l.Kind, l.RTT = linkNone, 0
		}
		out = append(out, l)
	}
	for _, n := range t.away {
		if !slices.ContainsFunc(t.links, func(l SeatLink) bool { return l.Name == n }) {
			out = append(out, SeatLink{Name: n, Kind: linkNone})
		}
	}
	return out
}

// linkUp reports whether a link kind carries the table's messages.
func linkUp(kind string) bool {
	return kind == linkDirect || kind == linkRelayed || kind == linkViaMember
}

// noteDown keeps, for each seat reconnecting, when this screen first saw it
// so (the links line counts the seconds from then).
func (t *TableView) noteDown() {
	down := map[string]time.Time{}
	for _, l := range t.linkStates() {
		if linkUp(l.Kind) {
			continue
		}
		at, ok := t.down[l.Name]
		if !ok {
			at = t.m.Now()
		}
		down[l.Name] = at
	}
	t.down = down
}

// linkSpan is a piece of the links line; bad marks a seat reconnecting.
type linkSpan struct {
	s   string
	bad bool
}

// linkForm is how much the links line says: its label, the round-trip
// times, the long words for the kinds, the names' width (0: whole).
type linkForm struct {
	label, rtt, long bool
	name             int
}

// linkForms go from the whole line to the tightest: the round-trip times
// go first, then the long words, the label, and last the names' ends. A
// seat's state (direct, relayed, through a member, reconnecting for how
// long) always stays.
var linkForms = []linkForm{
	{label: true, rtt: true, long: true},
	{label: true, long: true},
	{label: true},
	{},
	{name: 8},
	{name: 5},
}

// linksLine is the links line for states in w cells, reconnecting seats
// down for downFor: the first of linkForms that fits, else the tightest.
func linksLine(states []SeatLink, downFor func(name string) time.Duration, w int) []linkSpan {
	var spans []linkSpan
	for _, f := range linkForms {
		spans = f.spans(states, downFor)
		n := 0
		for _, s := range spans {
			n += width(s.s)
		}
		if n <= w {
			break
		}
	}
	return spans
}

// spans writes the links line in form f.
func (f linkForm) spans(states []SeatLink, downFor func(name string) time.Duration) []linkSpan {
	var out []linkSpan
	if f.label {
		out = append(out, linkSpan{s: i18n.T("links:") + " "})
	}
	for i, l := range states {
		if i > 0 {
			out = append(out, linkSpan{s: " · "})
		}
		name := l.Name
		if f.name > 0 && width(name) > f.name {
			name = string([]rune(name)[:f.name-1]) + "…"
		}
		var kind string
		switch l.Kind {
		case linkDirect:
			kind = i18n.T("direct")
		case linkRelayed:
			kind = i18n.T("relay")
			if f.long {
				kind = i18n.T("relayed")
			}
		case linkViaMember:
			kind = i18n.T("via a member")
			if f.long {
				kind = i18n.T("through a member")
			}
		default:
			secs := int(downFor(l.Name) / time.Second)
			out = append(out, linkSpan{s: name + " " + i18n.T("reconnecting for %ds", secs), bad: true})
			continue
		}
		if f.rtt && l.RTT > 0 {
			kind += " " + i18n.T("%d ms", l.RTT.Milliseconds())
		}
		out = append(out, linkSpan{s: name + " " + kind})
	}
	return out
}

// drawLinks draws the links line: each seat's link, a seat reconnecting
// in the colour of trouble with the seconds since its link dropped.
func (t *TableView) drawLinks(scr tcell.Screen, x, y, w int) {
	p := t.pal
	dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
	bad := dim.Foreground(p.Bad).Bold(true)
	now := t.m.Now()
	downFor := func(name string) time.Duration {
		if at, ok := t.down[name]; ok && now.After(at) {
			return now.Sub(at)
		}
		return 0
	}
	cx, end := x+1, x+w-1
	for _, s := range linksLine(t.linkStates(), downFor, w-2) {
		st := dim
		if s.bad {
			st = bad
		}
		cx = put(scr, cx, y, end-cx, s.s, st)
	}
}
