package ui

import (
	"context"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// TournamentCreator is what a TournamentLobby offers to announce a
// tournament from the lobby (optional: t opens its form only then).
type TournamentCreator interface {
	// CreateTournament announces a Swiss tournament of players players
	// and rounds rounds, every match in ruleset, and plays the player's
	// part in it (as JoinTournament); it returns the tournament's id.
	CreateTournament(ctx context.Context, name, ruleset string, players, rounds int) (string, error)
}

// tourForm is the form t opens: a tournament's name, players, rounds and
// rules.
type tourForm struct {
	field   int // 0 name, 1 players, 2 rounds, 3 preset, 4 options
	name    string
	players int
	rounds  int
	preset  int
	options string
}

const tourFormFields = 5

func newTourForm() *tourForm {
	return &tourForm{name: "tournament", players: 8, rounds: 3, options: "points=2"}
}

// tourPlayers steps a player count by d within 3..64, skipping 5 (no
// table sizes seat 5: protocol.md 9.1).
func tourPlayers(n, d int) int {
	n = min(max(n+d, 3), 64)
	if n == 5 {
		n += d
	}
	return n
}

func (l *LobbyView) tourFormKey(ev *tcell.EventKey) {
	f := l.tform
	switch ev.Key() {
	case tcell.KeyEscape:
		l.tform = nil
	case tcell.KeyTab, tcell.KeyDown:
		f.field = (f.field + 1) % tourFormFields
	case tcell.KeyBacktab, tcell.KeyUp:
		f.field = (f.field + tourFormFields - 1) % tourFormFields
	case tcell.KeyLeft, tcell.KeyRight:
		d := 1
		if ev.Key() == tcell.KeyLeft {
			d = -1
		}
		switch f.field {
		case 1:
			f.players = tourPlayers(f.players, d)
		case 2:
			f.rounds = min(max(f.rounds+d, 1), 15)
		case 3:
			f.preset = (f.preset + d + len(lobbyPresets)) % len(lobbyPresets)
		}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		switch f.field {
		case 0:
			if r := []rune(f.name); len(r) > 0 {
				f.name = string(r[:len(r)-1])
			}
		case 4:
			if len(f.options) > 0 {
				f.options = f.options[:len(f.options)-1]
			}
		}
	case tcell.KeyEnter:
		rs := lobbyPresets[f.preset]
		if o := strings.TrimSpace(f.options); o != "" {
			rs += ":" + o
		}
		r, err := engine.ParseRuleset(rs)
		if err != nil {
			l.msg, l.bad = Explain(err), true
			return
		}
		name := strings.TrimSpace(f.name)
		if name == "" {
			l.msg, l.bad = i18n.T("give the tournament a name"), true
			return
		}
		tc := l.b.(TournamentCreator)
		players, rounds := f.players, f.rounds
		l.tform = nil
		l.do(i18n.T("announcing %s", name), func(ctx context.Context) error {
			_, err := tc.CreateTournament(ctx, name, r.String(), players, rounds)
			return err
		})
	case tcell.KeyRune:
		switch {
		case f.field == 0 && len(f.name) < 32:
			f.name += string(ev.Rune())
		case f.field == 4 && len(f.options) < 60:
			f.options += string(ev.Rune())
		}
	}
}

// drawTourForm draws the tournament form over the lobby.
func (l *LobbyView) drawTourForm(scr tcell.Screen, x, y, w int, felt tcell.Style) {
	f := l.tform
	p := l.pal
	fill(scr, x, y+6, w, 12, felt)
	ix, iy, iw, _ := (&TableView{pal: p}).panel(scr, x+(w-60)/2, y+6, 60, 12, i18n.T("announce a tournament"))
	ost := tcell.StyleDefault.Background(p.Overlay).Foreground(p.Text)
	fields := []string{
		i18n.T("name     %s_", f.name),
		i18n.T("players  < %d >  (you among them)", f.players),
		i18n.T("rounds   < %d >  (Swiss; points 3-2-1-0)", f.rounds),
		i18n.T("rules    < %s >", PresetName(lobbyPresets[f.preset])),
		i18n.T("options  %s_", f.options),
	}
	for i, s := range fields {
		st := ost
		if i == f.field {
			st = st.Foreground(p.Accent).Bold(true)
		}
		put(scr, ix, iy+i, iw, s, st)
	}
	put(scr, ix, iy+6, iw, i18n.T("points=2: a short match at each table"), ost.Foreground(p.Dim))
	put(scr, ix, iy+9, iw, i18n.T("tab next  left/right change  enter announce  esc cancel"), ost.Foreground(p.Accent))
}
