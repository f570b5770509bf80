package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// lanSession is the player's network as okey play opens it: the data
// directory and its log, the relays, the client.
type lanSession struct {
	ctx    context.Context
	dir    string
	logf   *os.File
	log    *slog.Logger
	relays []string
	c      *netplay.Client
	cancel context.CancelFunc
}

func (n *lanSession) close() {
	n.cancel()
	n.c.Close()
	n.logf.Close()
}

// openLAN opens the data directory, its log and the player's client.
func openLAN(f lanFlags, stderr io.Writer) (*lanSession, int) {
	d, code := openData(f.data, stderr)
	if code != 0 {
		return nil, code
	}
	dir, logf, logger := d.dir, d.file, d.log
	netplay.RouteLibraryLogs(d.h)
	parent := f.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	useRelays, err := netplay.ResolveRelays(dir, f.relays)
	if err != nil {
		cancel()
		logf.Close()
		fmt.Fprint(stderr, i18n.T("okey: --relay: %s\n", ui.Plain(err)))
		return nil, 2
	}
	c, err := netplay.Open(ctx, netplay.Options{Data: dir, Name: f.name, NoMDNS: f.noMDNS, Peers: f.peers, Listen: f.listen, Log: logger,
		Reach: true, Relays: useRelays, ServeRelay: f.serveRelay})
	if err != nil {
		cancel()
		logf.Close()
		fmt.Fprint(stderr, i18n.T("okey: the network: %s\n", ui.Plain(err)))
		return nil, 2
	}
	if f.opened != nil {
		f.opened(c)
	}
	return &lanSession{ctx: ctx, dir: dir, logf: logf, log: logger, relays: useRelays, c: c, cancel: cancel}, 0
}

// playLANWeb is okey play --web without --bots: the lobby in the player's
// browser (package web, served at http://127.0.0.1:PORT/ with the table's
// locks), over the same LobbyService the terminal's lobby uses; a table
// the player sits at takes the page once it starts (a web Game is the
// seat's mover and observer in netplay's match), and the page goes back
// to the lobby after it. It runs until Ctrl-C.
func playLANWeb(f lanFlags, n *lanSession, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(n.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, logger := n.c, n.log
	lb := newLanLobby(ctx, c, logger, f.strategy, f.listen, true, n.relays)
	var srv *web.Server
	var played atomic.Pointer[netplay.Outcome]
	var lobby *web.Lobby
	lobby = web.NewLobby(ctx, lb.LobbyService, func(t table.LobbyTable) {
		if o := playWebTable(ctx, lb, srv, lobby, t, logger); o != nil {
			played.Store(o)
		}
	})
	// The unfinished matches to resume, the started tables to watch (as
	// the terminal's lobby has them).
	lobby.Offer(func(t table.LobbyTable) {
		if o := resumeWebTable(ctx, f, n, lb, srv, lobby, t); o != nil {
			played.Store(o)
		}
	}, func(t table.LobbyTable) { watchWebTable(ctx, n, srv, lobby, t) })
	// The tournaments on the LAN, as the terminal's lobby has them.
	tours, closeTours := openTours(ctx, c, webTours{lobby}, logger)
	defer closeTours()
	if tours != nil {
		lobby.SetTournaments(tours)
		defer tours.wait()
	}
	var err error
	if srv, err = web.ListenLobby(lobby, 0); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: the web table cannot listen: %s\n", ui.Plain(err)))
		return 2
	}
	defer srv.Close()
	if f.code != "" {
		lobby.JoinCode(f.code)
	}
	web.Launch{Out: stdout, NoOpen: f.noOpen, Served: f.served, Fail: func(err error) { logger.Error("web", "err", err) }}.Show(ctx, srv)
	<-ctx.Done()
	lb.bots.Wait(5 * time.Second)
	return lobbyExit(stdout, played.Load(), "")
}

// playWebTable plays the started table t for the player in the page: a web
// Game for the player's seat, served at /table, until the player leaves
// it after the match (or during it: the match is saved to resume).
func playWebTable(ctx context.Context, lb *lanLobby, srv *web.Server, lobby *web.Lobby, t table.LobbyTable, logger *slog.Logger) *netplay.Outcome {
	a, err := lb.c.Lobby().WaitStarted(ctx, t.ID)
	if err != nil {
		lobby.Say(i18n.T("the table did not start: %s", explainNet(err)), true)
		return nil
	}
	return playWebSeat(ctx, lb, srv, lobby, a, logger)
}

// resumeWebTable resumes the unfinished match t the web lobby listed: a
// LAN table at the player's seat as a new one is played (the bots this
// computer seated there resume too), a match against bots on this
// computer as okey play --web --bots K --resume plays it.
func resumeWebTable(ctx context.Context, f lanFlags, n *lanSession, lb *lanLobby, srv *web.Server, lobby *web.Lobby, t table.LobbyTable) *netplay.Outcome {
	if !t.Local {
		a, ok := lb.unfinishedLAN(t.ID)
		if !ok {
			lobby.Say(i18n.T("that match is no longer saved"), true)
			return nil
		}
		lb.bots.Resume(t.ID)
		lobby.Say(i18n.T("resuming table %s: waiting for the other players to come back", t.ID), false)
		return playWebSeat(ctx, lb, srv, lobby, a, n.log)
	}
	m, ok := lb.localMatch(t.ID)
	if !ok {
		lobby.Say(i18n.T("that match is no longer saved"), true)
		return nil
	}
	o := localOptions(n.dir, f.pace, n.log)
	resumeLocal(&o, m)
	g := web.NewGame(0)
	g.Start()
	defer g.Quit()
	srv.SetGame(g)
	lobby.SetPlaying(filepath.Base(m.Dir))
	defer func() { srv.SetGame(nil); lobby.SetPlaying("") }()
	pctx, leave := g.Until(ctx)
	defer leave()
	if out := playLocalWeb(pctx, g, o, n.log); out != nil && errors.Is(out.Err, ui.ErrQuit) {
		lobby.Say(i18n.T("you left the table; the match is saved: okey play --resume continues it"), false)
	}
	return nil
}

// watchWebTable watches the started table t as a spectator in the page
// (the spectator's page okey watch --web serves, fed as it feeds it) until
// the player leaves it; then the page is the lobby again.
func watchWebTable(ctx context.Context, n *lanSession, srv *web.Server, lobby *web.Lobby, t table.LobbyTable) {
	a, err := n.c.FindWatchTable(ctx, t.ID, 5*time.Second)
	if err != nil {
		lobby.Say(i18n.T("table %s is no longer announced", t.ID), true)
		return
	}
	at := func(names []string, ruleset string, _ ui.Options, updates <-chan ui.WatchUpdate, ended <-chan ui.WatchEnd,
		_ func() []ui.WatchTable) (string, error) {
		f := web.NewWatchPage(names, ruleset)
		defer f.Follow(updates, ended)()
		defer f.Quit()
		srv.SetFrames(f)
		lobby.SetPlaying(a.Table)
		defer func() { srv.SetFrames(nil); lobby.SetPlaying("") }()
		select {
		case <-f.Done():
		case <-ctx.Done():
		}
		return "", nil
	}
	watchScreen(ctx, io.Discard, io.Discard, n.c, a, netplay.WatchOptions{Withhold: 15 * time.Minute}, n.dir, at)
}

// playWebSeat plays the started table a at the player's seat in the page.
func playWebSeat(ctx context.Context, lb *lanLobby, srv *web.Server, page *web.Lobby, a lobby.Announcement, logger *slog.Logger) *netplay.Outcome {
	c := lb.c
	seat := c.Seat(a)
	if seat < 0 {
		return nil
	}
	g := web.NewGame(seat)
	g.Start()
	defer g.Quit()
	g.SetRackFile(filepath.Join(c.Data(), netplay.MatchesDir, a.Table, ui.RackFile))
	srv.SetGame(g)
	page.SetPlaying(a.Table)
	defer func() { srv.SetGame(nil); page.SetPlaying("") }()
	pctx, leave := g.Until(ctx) // ends when the player leaves the page's table
	defer leave()
	// The links' state, who is away and the chat on the page, as the
	// terminal has them.
	o, err := lb.PlaySeat(pctx, a, g, g, netplay.PlayOptions{Withhold: 15 * time.Minute,
		OnChatReady: func(send netplay.ChatSend) { g.SetChat(chatMembers(a, c.ID()), ui.ChatSendFunc(send)) },
		OnChat:      func(l netplay.ChatLine) { g.Chat(ui.ChatLine(l)) }})
	if err != nil {
		if errors.Is(err, ui.ErrQuit) || pctx.Err() != nil {
			page.Say(i18n.T("you left the table %s; the match is saved: okey play offers it to resume", a.Table), false)
			return nil
		}
		logger.Warn("web table", "err", err)
		g.Finish(&ui.MatchEnd{Err: err})
		<-g.Done()
		return nil
	}
	g.Finish(ui.EndOf(o.Transcript, &o.Report, &o.Result))
	// The end panel stays up until the player leaves it.
	select {
	case <-g.Done():
	case <-ctx.Done():
	}
	return o
}
