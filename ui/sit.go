package ui

import (
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
)

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
		v.back = back
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

// FreshTable gives the next match of a Game that runs the lobby a fresh
// table screen for seat (the last match's screen is gone): leaving during
// the match still ends the program, as the quit question says, but the
// match's end panel goes back with back (to the lobby, where q quits)
// instead of ending it. Call it before the match's first step.
func (g *Game) FreshTable(seat int, back func()) {
	g.mu.Lock()
	g.seat, g.prev, g.latest, g.lines, g.ends = seat, nil, nil, nil, nil
	g.mu.Unlock()
	g.post(func() {
		old := g.view
		v := NewTableView(g.Quit)
		v.back = back
		if old.palFixed {
			v.SetPalette(old.pal)
		}
		v.leaveNote = old.leaveNote
		g.view = v
	})
}

// ShowLobbyAgain shows lv, the lobby, again (after SitTable's match).
func (g *Game) ShowLobbyAgain(lv *LobbyView) {
	g.post(func() {
		lv.Refresh()
		g.app.SetRoot(lv, true)
	})
}

// Say shows s on the lobby's message line (from any goroutine).
func (l *LobbyView) Say(s string) {
	l.g.post(func() { l.msg, l.bad = s, false })
}

// ScreenText is the text on scr, g's simulation screen, a line per row,
// read on the UI goroutine ("" when it does not answer within 2 s); for
// tests of other packages that drive a Game.
func (g *Game) ScreenText(scr tcell.SimulationScreen) string {
	out := make(chan string, 1)
	go g.app.QueueUpdate(func() {
		cells, w, h := scr.GetContents()
		var b strings.Builder
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if c := cells[y*w+x]; len(c.Runes) > 0 {
					b.WriteString(string(c.Runes))
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteByte('\n')
		}
		out <- b.String()
	})
	select {
	case s := <-out:
		return s
	case <-g.Done():
	case <-time.After(2 * time.Second):
	}
	return ""
}
