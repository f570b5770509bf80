package web

import (
	"context"
	"slices"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
)

// Tournaments is what the web lobby needs of the tournaments on the LAN:
// what the terminal's lobby takes (ui.TournamentLobby and
// ui.TournamentCreator; cmd/okey's lobbyTours over participant.Service has
// both, for either front end). A round's table reaches the page through
// Lobby.SitTable.
type Tournaments interface {
	ui.TournamentLobby
	ui.TournamentCreator
}

// tourJSON is a tournament as the lobby's page lists it.
type tourJSON struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Ruleset    string `json:"ruleset"`
	Registered int    `json:"registered"`
	Players    int    `json:"players"`
	Rounds     int    `json:"rounds"`
	State      string `json:"state"` // the terminal's words (ui.TourState)
	Mine       bool   `json:"mine"`
	Playing    bool   `json:"playing"`
	Ended      bool   `json:"ended"`
	Join       bool   `json:"join"` // joining registers (or resumes the player's part)
	// The standings after the last round known (Head: which round, or the
	// final ones).
	Head      string   `json:"standingsHead,omitempty"`
	Standings []string `json:"standings,omitempty"`
}

// SetTournaments makes the page list the tournaments of t, with its forms
// to announce one and to join one; call it before Run.
func (l *Lobby) SetTournaments(t Tournaments) {
	l.mu.Lock()
	l.tours = t
	l.mu.Unlock()
}

func (l *Lobby) tournaments() Tournaments {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tours
}

// tourChanges is signalled when the tournaments may have changed (nil:
// none listed).
func (l *Lobby) tourChanges() <-chan struct{} {
	if t := l.tournaments(); t != nil {
		return t.TournamentChanges()
	}
	return nil
}

// buildTours lists the tournaments in s.
func (l *Lobby) buildTours(s *lobbyJSON) {
	t := l.tournaments()
	if t == nil {
		return
	}
	s.TourOn = true
	list := t.Tournaments()
	slices.SortStableFunc(list, func(a, b ui.LobbyTournament) int { return strings.Compare(a.ID, b.ID) })
	for _, lt := range list {
		msg, _ := lt.JoinRefusal()
		j := tourJSON{ID: lt.ID, Name: lt.Name, Ruleset: ui.RulesetName(lt.Ruleset), Registered: lt.Registered, Players: lt.Players,
			Rounds: lt.Rounds, State: ui.TourState(lt), Mine: lt.Mine, Playing: lt.Playing, Ended: lt.Ended, Join: msg == "" && !lt.Ended,
			Standings: lt.Standings}
		if len(lt.Standings) > 0 {
			j.Head = i18n.T("standings after round %d of %d:", lt.StandingsRound, lt.Rounds)
			if lt.Ended && lt.StandingsRound == lt.Rounds {
				j.Head = i18n.T("final standings:")
			}
		}
		s.Tours = append(s.Tours, j)
	}
}

// tourLabels are the words of the page's tournaments.
func tourLabels(m map[string]string) {
	m["tours"] = i18n.T("tournaments on the LAN")
	m["noTours"] = i18n.T("no tournament on the LAN yet: announce one")
	m["announce"] = i18n.T("announce a tournament")
	m["tourName"] = i18n.T("name")
	m["rounds"] = i18n.T("rounds")
	m["register"] = i18n.T("register and play")
	m["tourHint"] = i18n.T("Swiss; points 3-2-1-0; points=2: a short match at each table")
}

// tourCommand is the page's tjoin or tcreate: the request to run, or false
// when it is refused at once (said on the message line).
func (l *Lobby) tourCommand(c lobbyCommand) (what string, f func(ctx context.Context) error, ok bool) {
	t := l.tournaments()
	if t == nil {
		l.Say(i18n.T("the page sent a command okey does not know"), true)
		return "", nil, false
	}
	if c.Op == "tcreate" {
		r, err := engine.ParseRuleset(c.Ruleset)
		if err != nil {
			l.Say(ui.Explain(err), true)
			return "", nil, false
		}
		name := strings.TrimSpace(c.Name)
		if name == "" {
			l.Say(i18n.T("give the tournament a name"), true)
			return "", nil, false
		}
		return i18n.T("announcing %s", name), func(ctx context.Context) error {
			_, err := t.CreateTournament(ctx, name, r.String(), c.Players, c.Rounds)
			return err
		}, true
	}
	list := t.Tournaments()
	i := slices.IndexFunc(list, func(x ui.LobbyTournament) bool { return x.ID == c.ID })
	if i < 0 {
		l.Say(i18n.T("that tournament is no longer announced"), true)
		return "", nil, false
	}
	lt := list[i]
	if msg, bad := lt.JoinRefusal(); msg != "" {
		l.Say(msg, bad)
		return "", nil, false
	}
	return i18n.T("registering in %s", lt.Name), func(ctx context.Context) error { return t.JoinTournament(ctx, lt.ID) }, true
}

// SitTable gives the page to a tournament round's table: a web Game for
// the player's seat, served at /table until the player leaves it (after
// the match's end, or during it: that leaves the tournament), then the
// page is the lobby again with the standings. name names the table on
// the page's hand-over. The same locks as every table of the lobby.
func (l *Lobby) SitTable(seat int, name string) *Game {
	g := NewGame(seat)
	g.Start()
	l.mu.Lock()
	s := l.srv
	l.sitting++ // no LAN table takes the page meanwhile
	l.mu.Unlock()
	if s != nil {
		s.SetGame(g)
	}
	l.SetPlaying(name)
	go func() {
		select {
		case <-g.Done():
		case <-l.ctx.Done():
		}
		g.Quit()
		l.mu.Lock()
		l.sitting--
		l.mu.Unlock()
		// The next round's table may have taken the page meanwhile.
		if s != nil && s.release(g) {
			l.SetPlaying("")
		}
	}()
	return g
}

// release stops serving g as the page's table; false when another table
// has the page.
func (s *Server) release(g *Game) bool {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	if cur, ok := s.g.(*Game); !ok || cur != g {
		return false
	}
	s.g = nil
	return true
}
