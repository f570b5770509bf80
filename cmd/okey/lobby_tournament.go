package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/ui"
)

// lobbyTours is the lobby's side of the tournaments on the LAN
// (participant.Service) on the lobby's screen: j on one registers the
// player with its persistent identity and plays its part in this process,
// as okey tournament join does for a person: each round's match takes the
// lobby's screen (ui.Game.SitTable), the lobby shows again between rounds
// with the standings.
type lobbyTours struct {
	svc   *participant.Service
	board *participant.Board
	g     *ui.Game
	lv    *ui.LobbyView // set once the lobby shows, before any key
	chat  tourChat      // the tables' chat (nil: none, as in tests)
}

// tourChat follows a tournament table's chat on the player's screen g,
// keeping it in the file at path (netplay.Client.TournamentChat).
type tourChat func(tr table.Transport, cfg table.Config, path string, g *ui.Game) (stop func())

// clientTourChat is c's tourChat: the chat line at the table, as okey play
// shows a LAN table's (play.go).
func clientTourChat(ctx context.Context, c *netplay.Client) tourChat {
	return func(tr table.Transport, cfg table.Config, path string, g *ui.Game) func() {
		members := make([]ui.ChatMember, len(cfg.Seats))
		for i, s := range cfg.Seats {
			members[i] = ui.ChatMember{ID: string(s.ID), Name: s.Name, Self: string(s.ID) == c.ID()}
		}
		return c.TournamentChat(ctx, tr, cfg, path,
			func(send netplay.ChatSend) { g.SetChat(members, ui.ChatSendFunc(send)) },
			func(l netplay.ChatLine) { g.Chat(ui.ChatLine(l)) })
	}
}

// sittingChat is Sitting.Chat of the table ref of the tournament folder
// dir on g (nil when chat is).
func sittingChat(chat tourChat, dir string, ref tournament.Ref, g *ui.Game) func(table.Transport, table.Config) func() {
	if chat == nil {
		return nil
	}
	return func(tr table.Transport, cfg table.Config) func() {
		return chat(tr, cfg, filepath.Join(dir, participant.ChatName(ref)), g)
	}
}

// tourSelf is the player as a participant.
type tourSelf = participant.Self

// lanTourSelf is the player of the lobby's client c.
func lanTourSelf(c *netplay.Client) (tourSelf, error) {
	key, err := c.SigningKey()
	return tourSelf{Key: key, Data: c.Data(), Name: c.Name(), PeerID: c.ID()}, err
}

// newLobbyTours lists the tournaments heard on n; sitNet opens a round's
// table (c.TournamentTable; tests replace it).
func newLobbyTours(ctx context.Context, self tourSelf, g *ui.Game, n participant.Net, log interface{ Warn(string, ...any) },
	sitNet func(ctx context.Context, cfg table.Config) (table.Transport, error)) *lobbyTours {
	t := &lobbyTours{g: g}
	t.svc = participant.NewService(ctx, self, n, participant.ServiceOptions{Sit: t.sit, TableNet: sitNet, Ended: t.ended, Log: log})
	t.board = t.svc.Board()
	return t
}

// ended says on the lobby how the player's part in a tournament ended.
func (t *lobbyTours) ended(dir string, err error) {
	switch {
	case errors.Is(err, participant.ErrLeft):
		t.lv.Say(i18n.T("you left the tournament: j on it resumes your part while it runs"))
	case err != nil:
		t.lv.Say(i18n.T("the tournament stopped: %s", ui.Explain(err)))
	default:
		t.lv.Say(i18n.T("the tournament is over: okey verify %s checks it", dir))
	}
}

// TournamentChanges implements ui.TournamentLobby.
func (t *lobbyTours) TournamentChanges() <-chan struct{} { return t.svc.Changes() }

// Tournaments implements ui.TournamentLobby.
func (t *lobbyTours) Tournaments() []ui.LobbyTournament {
	var out []ui.LobbyTournament
	for _, l := range t.svc.List() {
		lt := ui.LobbyTournament{ID: hex.EncodeToString(l.ID[:]), Name: l.Name, Ruleset: l.Ruleset, Rounds: l.Format.Rounds,
			Registered: l.Registered, Players: l.Players, Round: l.Round, Ended: l.Ended || l.Over, Mine: l.Mine, Playing: l.Playing}
		if l.Format.Points != tournament.DefaultFormat.Points {
			p := l.Format.Points
			lt.Points = fmt.Sprintf("%d-%d-%d-%d", p[0], p[1], p[2], p[3])
		}
		if rep := l.Report; rep != nil && l.Round > 0 {
			lt.StandingsRound = l.Round
			for _, s := range rep.Rounds[l.Round-1].Standings {
				lt.Standings = append(lt.Standings, i18n.T("%d. %s: %d points, score %d", s.Place, rep.Players[s.Player].Name, s.Points, s.Score))
			}
		}
		out = append(out, lt)
	}
	return out
}

// JoinTournament implements ui.TournamentLobby: it starts the player's
// participant in tournament id (resuming from its folder when there is one)
// and returns once the board holds its registration.
func (t *lobbyTours) JoinTournament(ctx context.Context, id string) error {
	b, err := hex.DecodeString(id)
	if err != nil || len(b) != 32 {
		return errors.New(i18n.T("not a tournament id: %s", id))
	}
	return registered(t.svc.Join(ctx, [32]byte(b)))
}

// CreateTournament implements ui.TournamentCreator: it announces a Swiss
// tournament (okey tournament create's checks) and plays the player's part
// as its creator; it returns once the board lists it with the player
// registered. The tournament is open, as okey tournament create --open
// makes it (a LAN party, protocol.md 9.8 "Admission"): the lobby has no
// place to show an invite code.
func (t *lobbyTours) CreateTournament(ctx context.Context, name, ruleset string, players, rounds int) (string, error) {
	tid, err := t.svc.Create(ctx, name, ruleset, players, rounds)
	if err != nil && tid == ([32]byte{}) {
		return "", err
	}
	return hex.EncodeToString(tid[:]), registered(err)
}

// registered is a Join's or Create's error for the lobby's message line.
func registered(err error) error {
	if errors.Is(err, participant.ErrNotRegisteredYet) {
		return errors.New(i18n.T("the registration is not out yet; it goes on in the background"))
	}
	return err
}

// unended names the tournaments whose part this lobby still runs.
func (t *lobbyTours) unended() []string { return t.svc.Unended() }

// sit is the participant's Config.Sit: the round's match on the lobby's
// screen; its end panel goes back to the lobby.
func (t *lobbyTours) sit(path string, ref tournament.Ref, seat int) participant.Sitting {
	left := t.g.SitTable(seat, i18n.Mark("j on the tournament in the lobby resumes your part while it runs."), func() { t.g.ShowLobbyAgain(t.lv) })
	t.g.SetContext(i18n.T("tournament round %d, table %d", ref.Round, ref.Table+1))
	t.g.Say(i18n.T("tournament round %d, table %d: the match begins", ref.Round, ref.Table+1))
	// The last step's time: a table the other seats ended while the
	// player was to move says how long the player did not move.
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	return participant.Sitting{Mover: t.g, Left: left, Chat: sittingChat(t.chat, filepath.Dir(path), ref, t.g),
		OnStep: func(m *table.Machine, v *engine.View) {
			last.Store(time.Now().UnixNano())
			t.g.OnStep(m, v)
		},
		Done: func(tr *table.Transcript, _ error) {
			if tr == nil {
				return
			}
			rep := table.Verify(tr)
			end := ui.EndOf(path, rep, nil)
			if end.Unfinished {
				end.Note = deadTableNote(rep, seat, time.Since(time.Unix(0, last.Load())))
				t.lv.Say(i18n.T("round %d, table %d ended unfinished: you stay in for the next draw", ref.Round, ref.Table+1))
			}
			t.g.Finish(end)
		}}
}

// idleText is a time the player did not move, in minutes (seconds under
// one).
func idleText(d time.Duration) string {
	if d < time.Minute {
		return i18n.T("%d s", int(d.Seconds()))
	}
	return i18n.T("%d min", int(d.Minutes()))
}

// deadTableNote says why a tournament table ended unfinished for the
// player at seat: the other seats stopped waiting for the player's move
// (which it did not make for idle), or for another seat's.
func deadTableNote(rep *table.Report, seat int, idle time.Duration) string {
	if rep.Next != nil && rep.Next.Seat == seat {
		return i18n.T("This match ended unfinished: you did not move for %s, and the other seats stopped waiting. The standings count it as the tournament's records say; your part goes on to the next round's draw (q: the lobby and the standings).", idleText(idle))
	}
	return i18n.T("This match ended unfinished: the seat it waited for stopped. The standings count it as the tournament's records say; your part goes on to the next round's draw (q: the lobby and the standings).")
}

// wait waits a little for the participants to stop (the lobby closes).
func (t *lobbyTours) wait() { t.svc.Wait(5 * time.Second) }

// tourLobby is the lobby of okey play with tournaments (when the
// tournament topic could be joined).
type tourLobby struct {
	*watchLobby
	*lobbyTours
}

var _ ui.TournamentLobby = tourLobby{}

var _ ui.TournamentCreator = tourLobby{}
