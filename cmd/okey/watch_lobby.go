package main

import (
	"context"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// watchLobby is the lobby of okey play with its w key: watching a started
// table as a spectator on the same screen, then back to the lobby.
type watchLobby struct {
	*lanLobby
	g *ui.Game
}

var _ ui.WatchLobby = (*watchLobby)(nil)

// Watch implements ui.WatchLobby.
func (w *watchLobby) Watch(t ui.LobbyTable, lv *ui.LobbyView) {
	a, ok := w.c.Lobby().Table(t.ID)
	if !ok || a.State != lobby.StateStarted {
		if a2, resumed := w.c.Watching(t.ID); resumed {
			a, ok = a2, true
		}
	}
	if !ok {
		w.g.Say(i18n.T("table %s is no longer announced", t.ID))
		return
	}
	names := memberNames(a)
	ruleset := t.Ruleset
	if cfg, err := netplay.TableConfig(a); err == nil {
		ruleset = cfg.Ruleset
	}
	wctx, leave := context.WithCancel(w.ctx)
	defer leave()
	left := make(chan struct{}, 1) // the spectator left: said once
	add, end, back := w.g.ShowWatch(names, ruleset, func() {
		leave()
		select {
		case left <- struct{}{}:
		default:
		}
	})
	var feed ui.WatchFeed
	o, err := w.c.Watch(wctx, a, netplay.WatchOptions{Withhold: 15 * time.Minute, OnStep: func(m *table.Machine) { add(feed.Step(m)) },
		OnChat: func(l netplay.ChatLine) { cl := ui.ChatLine(l); add(ui.WatchUpdate{Chat: &cl}) }})
	if e, ok := watchEnd(o, err, wctx.Err() != nil); ok {
		end(e)
	}
	select {
	case <-left:
	case <-w.ctx.Done():
		return
	}
	back(lv)
}
