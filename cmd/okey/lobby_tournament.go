package main

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	p2ptournament "github.com/okey-game/okey/p2p/tournament"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// lobbyTours is the lobby's side of the tournaments on the LAN
// (participant.Service), for either front end (tourFront): the terminal's
// lobby screen or the web lobby's page. Joining one registers the player
// with its persistent identity and plays its part in this process, as okey
// tournament join does for a person: each round's match takes the screen
// (or the page), the lobby shows again between rounds with the standings.
type lobbyTours struct {
	rows  *netplay.TourLobby
	board *participant.Board
	front tourFront
	chat  tourChat // the tables' chat (nil: none, as in tests)
}

// tourFront is where the tournaments show: the terminal's lobby screen
// (termTours) or the web lobby's page (webTours).
type tourFront interface {
	// table gives a round's table the screen: the front's table for the
	// player's seat; left is closed when the player leaves it during the
	// match (which leaves the tournament).
	table(ref tournament.Ref, seat int) (t tourTable, left <-chan struct{})
	// say shows a line on the lobby's message line.
	say(msg string, bad bool)
	// keys are what the player presses to leave a table ("q") and to join
	// a tournament again in the lobby ("j").
	keys() (leave, rejoin string)
}

// tourTable is a round's table on a front end (ui.Game, web.Game): the
// seat's mover, its steps, its end panel, its message line and chat.
type tourTable interface {
	ui.LocalFront
	chatFront
}

// chatFront shows a table's chat (ui.Game, web.Game).
type chatFront interface {
	SetChat(members []ui.ChatMember, send ui.ChatSendFunc)
	Chat(l ui.ChatLine)
}

// tourChat follows a tournament table's chat on the player's screen g,
// keeping it in the file at path (netplay.Client.TournamentChat).
type tourChat func(tr table.Transport, cfg table.Config, path string, g chatFront) (stop func())

// clientTourChat is c's tourChat: the chat line at the table, as okey play
// shows a LAN table's (play.go).
func clientTourChat(ctx context.Context, c *netplay.Client) tourChat {
	return func(tr table.Transport, cfg table.Config, path string, g chatFront) func() {
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
func sittingChat(chat tourChat, dir string, ref tournament.Ref, g chatFront) func(table.Transport, table.Config) func() {
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

// newLobbyTours lists the tournaments heard on n on front; sitNet opens a
// round's table (c.TournamentTable; tests replace it).
func newLobbyTours(ctx context.Context, self tourSelf, front tourFront, n participant.Net, log interface{ Warn(string, ...any) },
	sitNet func(ctx context.Context, cfg table.Config) (table.Transport, error)) *lobbyTours {
	t := &lobbyTours{front: front}
	svc := participant.NewService(ctx, self, n, participant.ServiceOptions{Sit: t.sit, TableNet: sitNet, Ended: t.ended, Log: log})
	t.rows, t.board = netplay.NewTourLobby(svc), svc.Board()
	return t
}

// ended says on the lobby how the player's part in a tournament ended.
func (t *lobbyTours) ended(dir string, err error) {
	switch {
	case errors.Is(err, participant.ErrLeft):
		_, rejoin := t.front.keys()
		t.front.say(i18n.T("you left the tournament: %s on it resumes your part while it runs", rejoin), false)
	case err != nil:
		t.front.say(i18n.T("the tournament stopped: %s", ui.Explain(err)), true)
	default:
		t.front.say(i18n.T("the tournament is over: okey verify %s checks it", dir), false)
	}
}

// TournamentChanges implements ui.TournamentLobby.
func (t *lobbyTours) TournamentChanges() <-chan struct{} { return t.rows.Changes() }

// Tournaments implements ui.TournamentLobby.
func (t *lobbyTours) Tournaments() []ui.LobbyTournament {
	var out []ui.LobbyTournament
	for _, r := range t.rows.Rows() {
		out = append(out, ui.LobbyTournament(r))
	}
	return out
}

// JoinTournament implements ui.TournamentLobby (netplay.TourLobby.Join).
func (t *lobbyTours) JoinTournament(ctx context.Context, id string) error {
	return t.rows.Join(ctx, id)
}

// CreateTournament implements ui.TournamentCreator (netplay.TourLobby.Create).
func (t *lobbyTours) CreateTournament(ctx context.Context, name, ruleset string, players, rounds int) (string, error) {
	return t.rows.Create(ctx, name, ruleset, players, rounds)
}

// unended names the tournaments whose part this lobby still runs.
func (t *lobbyTours) unended() []string { return t.rows.Unended() }

// sit is the participant's Config.Sit: the round's match on the front's
// table; its end panel goes back to the lobby.
func (t *lobbyTours) sit(path string, ref tournament.Ref, seat int) participant.Sitting {
	g, left := t.front.table(ref, seat)
	g.Say(i18n.T("tournament round %d, table %d: the match begins", ref.Round, ref.Table+1))
	// The last step's time: a table the other seats ended while the
	// player was to move says how long the player did not move.
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	return participant.Sitting{Mover: g, Left: left, Chat: sittingChat(t.chat, filepath.Dir(path), ref, g),
		OnStep: func(m *table.Machine, v *engine.View) {
			last.Store(time.Now().UnixNano())
			g.OnStep(m, v)
		},
		Done: func(tr *table.Transcript, _ error) {
			if tr == nil {
				return
			}
			rep := table.Verify(tr)
			end := ui.EndOf(path, rep, nil)
			if end.Unfinished {
				leave, _ := t.front.keys()
				end.Note = netplay.DeadTableNote(rep, seat, time.Since(time.Unix(0, last.Load())), leave)
				t.front.say(i18n.T("round %d, table %d ended unfinished: you stay in for the next draw", ref.Round, ref.Table+1), false)
			}
			g.Finish(end)
		}}
}

// wait waits a little for the participants to stop (the lobby closes).
func (t *lobbyTours) wait() { t.rows.Wait() }

// termTours is the terminal's lobby screen as the tournaments' front: a
// round's table takes the lobby's screen (ui.Game.SitTable), its end goes
// back to the lobby.
type termTours struct {
	g  *ui.Game
	lv *ui.LobbyView // set once the lobby shows, before any key
}

func (f *termTours) table(ref tournament.Ref, seat int) (tourTable, <-chan struct{}) {
	left := f.g.SitTable(seat, i18n.Mark("j on the tournament in the lobby resumes your part while it runs."), func() { f.g.ShowLobbyAgain(f.lv) })
	f.g.SetContext(i18n.T("tournament round %d, table %d", ref.Round, ref.Table+1))
	return f.g, left
}

func (f *termTours) say(msg string, _ bool) { f.lv.Say(msg) }
func (*termTours) keys() (string, string)   { return "q", "j" }

// webTours is the web lobby's page as the tournaments' front: a round's
// table takes the page (web.Lobby.SitTable), the player's leave after its
// end brings the lobby back.
type webTours struct{ page *web.Lobby }

func (f webTours) table(ref tournament.Ref, seat int) (tourTable, <-chan struct{}) {
	g := f.page.SitTable(seat, i18n.T("tournament round %d, table %d", ref.Round, ref.Table+1))
	return g, g.Done()
}

func (f webTours) say(msg string, bad bool) { f.page.Say(msg, bad) }
func (webTours) keys() (string, string)     { return i18n.T("leave"), i18n.T("register and play") }

// openTours lists the tournaments of c's LAN on front (nil when the
// tournament topic or the identity cannot be had: logged); close leaves
// the topic.
func openTours(ctx context.Context, c *netplay.Client, front tourFront, logger *slog.Logger) (tours *lobbyTours, close func()) {
	tn, err := p2ptournament.Join(c.Node())
	if err != nil {
		logger.Warn("tournaments", "err", err)
		return nil, func() {}
	}
	self, err := lanTourSelf(c)
	if err != nil {
		logger.Warn("tournaments", "err", err)
		tn.Close()
		return nil, func() {}
	}
	tours = newLobbyTours(ctx, self, front, netplay.TournamentNet(tn), logger, func(ctx context.Context, cfg table.Config) (table.Transport, error) {
		return c.TournamentTable(ctx, cfg, 30*time.Second)
	})
	tours.chat = clientTourChat(ctx, c)
	return tours, func() { tn.Close() }
}

// tourLobby is the lobby of okey play with tournaments (when the
// tournament topic could be joined).
type tourLobby struct {
	*watchLobby
	*lobbyTours
}

var _ ui.TournamentLobby = tourLobby{}

var _ ui.TournamentCreator = tourLobby{}
