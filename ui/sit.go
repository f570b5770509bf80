package ui

import "sync"

// tableLeft is the channel closed when the player leaves the table of the
// last SitTable (nil: none).
func (g *Game) tableLeft() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.left
}

// SitTable shows a fresh table screen for the player's seat at a new match
// on a Game that runs the lobby (a tournament's round): the last match's
// screen is gone, the quit question says note about coming back, and the
// match's end panel (or a leave confirmed during the match) calls back
// (which shows the lobby again) instead of ending the program. The channel
// returned is closed when the player leaves before the match's end: the
// seat's pending and later moves fail with ErrQuit.
func (g *Game) SitTable(seat int, note string, back func()) <-chan struct{} {
	left := make(chan struct{})
	var once sync.Once
	g.mu.Lock()
	g.seat, g.prev, g.latest, g.lines, g.ends, g.left = seat, nil, nil, nil, nil, left
	g.mu.Unlock()
	g.post(func() {
		old := g.view
		v := NewTableView(nil)
		v.quit = func() {
			if v.inMatch() {
				once.Do(func() { close(left) })
			}
			back()
		}
		if old.palFixed {
			v.SetPalette(old.pal)
		}
		v.leaveNote = note
		g.view = v
		g.app.SetRoot(v, true)
	})
	return left
}

// ShowLobbyAgain shows lv, the lobby, again (after SitTable's match).
func (g *Game) ShowLobbyAgain(lv *LobbyView) {
	g.post(func() {
		lv.Refresh()
		g.app.SetRoot(lv, true)
	})
}
