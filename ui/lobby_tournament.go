package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// LobbyTournament is a tournament announced on the LAN as the lobby lists
// it (protocol.md 9.8).
type LobbyTournament struct {
	ID      string // the tournament id, 64 hexadecimal digits
	Name    string
	Ruleset string // every match's preset[:options]
	Rounds  int
	Points  string // the placement points, e.g. 3-2-1-0
	// Registered players of the Players the announcement wants.
	Registered, Players int
	// Round is 0 while players register, else the round under way.
	Round int
	Ended bool
	// Mine: the player registered (with this identity); Playing: this
	// program runs the player's part in it (JoinTournament did).
	Mine, Playing bool
	// Standings, when known, are the lines of the standings after the last
	// round played ("1. ayse 3 points, score 12"), and StandingsRound
	// that round.
	Standings      []string
	StandingsRound int
}

// TournamentLobby is what a Lobby offers for the tournaments on the LAN
// (optional: the lobby lists tournaments only when its Lobby has it).
type TournamentLobby interface {
	Tournaments() []LobbyTournament
	// TournamentChanges is signalled when the list may have changed.
	TournamentChanges() <-chan struct{}
	// JoinTournament registers the player in tournament id with its
	// persistent identity and plays its part to the end, as okey
	// tournament join does: each round's match takes the screen
	// (Game.SitTable), and the lobby shows again between rounds. It
	// returns once the registration is published (or the part resumed).
	JoinTournament(ctx context.Context, id string) error
}

func (l *LobbyView) tourChanges() <-chan struct{} {
	if tl, ok := l.b.(TournamentLobby); ok {
		return tl.TournamentChanges()
	}
	return nil
}

// rows is how many rows the cursor runs over: the unfinished matches, the
// tournaments, the tables.
func (l *LobbyView) rows() int { return len(l.unfin) + len(l.tours) + len(l.tables) }

// tabBase is the cursor of the first table.
func (l *LobbyView) tabBase() int { return len(l.unfin) + len(l.tours) }

// onTour reports whether the cursor is on a tournament.
func (l *LobbyView) onTour() bool {
	_, ok := l.selectedTour()
	return ok
}

func (l *LobbyView) selectedTour() (LobbyTournament, bool) {
	if i := l.cursor - len(l.unfin); i >= 0 && i < len(l.tours) {
		return l.tours[i], true
	}
	return LobbyTournament{}, false
}

// joinTour is j on a tournament: register and play, unless it is already
// the player's here, or registration is over or full.
func (l *LobbyView) joinTour() {
	t, _ := l.selectedTour()
	tl := l.b.(TournamentLobby)
	if msg, bad := t.JoinRefusal(); msg != "" {
		l.msg, l.bad = msg, bad
		return
	}
	l.do(i18n.T("registering in %s", t.Name), func(ctx context.Context) error { return tl.JoinTournament(ctx, t.ID) })
}

// JoinRefusal is why joining t (j in the terminal's lobby, join on the web
// lobby's page) does not register the player: it plays in t here already
// (not bad: a note), registration is over, or t is full; "" when joining
// registers (or resumes the player's part).
func (t LobbyTournament) JoinRefusal() (msg string, bad bool) {
	switch {
	case t.Playing:
		return i18n.T("you play in %s: each round's table opens by itself", t.Name), false
	case !t.Mine && (t.Round > 0 || t.Ended):
		return i18n.T("%s is under way: registration is closed", t.Name), true
	case !t.Mine && t.Registered >= t.Players:
		return i18n.T("%s is full", t.Name), true
	}
	return "", false
}

// noteTourEnd replaces the registration's "done", once the player's
// tournament has ended, by its end (issue 37, 14).
func (l *LobbyView) noteTourEnd() {
	for _, t := range l.tours {
		if t.Mine && t.Ended && l.msg == i18n.T("%s: done", i18n.T("registering in %s", t.Name)) {
			l.msg, l.bad = i18n.T("%s has ended: its standings are in the list", t.Name), false
		}
	}
}

// TourState is what a lobby's list says of a tournament's progress.
func TourState(t LobbyTournament) string {
	var s string
	switch {
	case t.Ended:
		s = i18n.T("ended")
	case t.Round > 0:
		s = i18n.T("round %d of %d", t.Round, t.Rounds)
	default:
		s = i18n.T("registering, %d rounds", t.Rounds)
	}
	if t.Points != "" {
		s += ", " + i18n.T("points %s", t.Points)
	}
	switch {
	case t.Mine && t.Ended:
		s += ", " + i18n.T("you played")
	case t.Mine:
		s += ", " + i18n.T("you play")
	}
	return s
}

// maxTourRows is how many tournaments the lobby shows at once.
const maxTourRows = 3

// drawTours draws the tournaments from row (when there are any) and returns
// the row after them: a heading, up to maxTourRows tournaments around the
// cursor (a second line for one whose state does not fit beside it), and
// how many more there are.
func (l *LobbyView) drawTours(scr tcell.Screen, x, row, w int, felt, dim tcell.Style) int {
	_, creator := l.b.(TournamentCreator)
	p := l.pal
	head := felt.Bold(true).Foreground(p.Accent)
	switch {
	case len(l.tours) == 0 && !creator:
		return row
	case len(l.tours) == 0:
		put(scr, x+1, row, w-2, i18n.T("no tournaments on the LAN: t announces one"), dim)
		return row + 2
	case creator:
		put(scr, x+1, row, w-2, i18n.T("tournaments (j: register and play, t: announce one)"), head)
	default:
		put(scr, x+1, row, w-2, i18n.T("tournaments (j: register and play)"), head)
	}
	row++
	cur := l.cursor - len(l.unfin)
	first := 0
	if cur >= maxTourRows {
		first = min(cur-maxTourRows+1, len(l.tours)-maxTourRows)
	}
	last := min(first+maxTourRows, len(l.tours))
	for i := first; i < last; i++ {
		t := l.tours[i]
		st := felt
		if i == cur {
			st = st.Background(p.Ledge).Bold(true)
		}
		line := fmt.Sprintf("%-18.18s %-26.26s %d/%d    ", t.Name, RulesetName(t.Ruleset), t.Registered, t.Players)
		state := TourState(t)
		if width(line+state) <= w-2 {
			fill(scr, x, row, w, 1, st)
			put(scr, x+1, row, w-2, line+state, st)
			row++
			continue
		}
		fill(scr, x, row, w, 2, st)
		put(scr, x+1, row, w-2, strings.TrimRight(line, " "), st)
		put(scr, x+3, row+1, max(w-4, 1), state, st.Foreground(p.Dim))
		row += 2
	}
	if more := len(l.tours) - (last - first); more > 0 {
		put(scr, x+1, row, w-2, i18n.T("%d more tournaments: up/down scrolls", more), dim)
		row++
	}
	return row + 1
}

// standingsBlock is what the lobby shows above its message line for the
// selected tournament once standings are known: a heading and the lines
// that fit in n rows (the player's own among them when it plays).
func (l *LobbyView) standingsBlock(n int) (string, []string) {
	t, ok := l.selectedTour()
	if !ok || len(t.Standings) == 0 || n < 1 {
		return "", nil
	}
	head := i18n.T("standings after round %d of %d:", t.StandingsRound, t.Rounds)
	if len(t.Standings) <= n {
		return head, t.Standings
	}
	return head, append(t.Standings[:n-1:n-1], i18n.T("... and %d more", len(t.Standings)-n+1))
}
