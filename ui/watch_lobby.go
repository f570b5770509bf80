package ui

import (
	"github.com/okey-game/okey/internal/i18n"
)

// WatchLobby is what a Lobby offers to watch a started table as a
// spectator (optional: the lobby's w key acts only when its Lobby has it).
type WatchLobby interface {
	// Watch follows table t on the Game's screen (Game.ShowWatch) until
	// the player leaves it or the table ends, then shows the lobby again.
	// It is called on its own goroutine.
	Watch(t LobbyTable, back *LobbyView)
}

// watchKey is w: watch the selected table, started and not the player's.
func (l *LobbyView) watchKey() {
	wl, ok := l.b.(WatchLobby)
	if !ok {
		return
	}
	_, me, _ := l.b.Self()
	t, sel := l.selected()
	switch {
	case !sel || t.Unfinished || t.Local || t.State != "started":
		l.msg, l.bad = i18n.T("w watches a started table: select it first"), true
	case l.seated(t, me):
		l.msg, l.bad = i18n.T("you sit at that table: it is yours to play, not to watch"), true
	case t.Private:
		// Its seats admit the holders of its invite code only: watching it
		// from here would wait for answers that never come.
		l.msg, l.bad = i18n.T("that table admits spectators by invite code: okey watch --code CODE"), true
	default:
		l.msg, l.bad = i18n.T("watching %s...", t.ID), false
		go wl.Watch(t, l)
	}
}

// ShowWatch shows the spectator's screen of a table (WatchView) in place
// of the lobby back. add and end feed it from any goroutine; q calls leave
// (which must make the watch stop), and back shows the lobby again.
func (g *Game) ShowWatch(names []string, ruleset string, leave func()) (add func(WatchUpdate), end func(WatchEnd), back func(*LobbyView)) {
	v := NewWatchView(names, ruleset, leave)
	g.post(func() { g.app.SetRoot(v, true) })
	add = func(u WatchUpdate) { g.post(func() { v.Add(u) }) }
	end = func(e WatchEnd) { g.post(func() { v.End(e.Report, e.Why) }) }
	back = func(lv *LobbyView) {
		g.post(func() {
			lv.Refresh()
			g.app.SetRoot(lv, true)
		})
	}
	return add, end, back
}

// watchBar is the key bar while the selection is a table w would watch (a
// started table of others, public, and a Lobby that can watch); "" else.
func (l *LobbyView) watchBar() string {
	if _, ok := l.b.(WatchLobby); !ok {
		return ""
	}
	_, me, _ := l.b.Self()
	t, sel := l.selected()
	if !sel || t.Unfinished || t.Local || t.State != "started" || t.Private || l.seated(t, me) {
		return ""
	}
	if _, ok := l.b.(InviteLobby); ok {
		return i18n.T("up/down choose  w watch  c create  k join by code  l leave  q quit")
	}
	return i18n.T("up/down choose  w watch  c create  l leave  q quit")
}
