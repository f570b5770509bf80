package ui

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Options configures a Game.
type Options struct {
	// Screen to draw on; nil opens the terminal. Tests pass a
	// tcell.SimulationScreen.
	Screen tcell.Screen
	// Palette fixes the colours; nil picks Palette256 or Palette16 from
	// the screen's colour count.
	Palette *Palette
	// NoMouse turns mouse input off.
	NoMouse bool
}

// Game is the terminal table for one seat: the tview application, the
// table screen, and the bridge from the seat's peer (OnStep, Move) to the
// screen. Peers run on their own goroutines; every change reaches the
// screen through the application's update queue.
type Game struct {
	app  *tview.Application
	view *TableView
	seat int

	ctx    context.Context
	cancel context.CancelFunc

	// runMu orders Quit with Run's start: tview's Stop before its Run
	// drops the screen, and Run would then open the process's terminal.
	runMu   sync.Mutex
	started bool // Run has started the application

	mu      sync.Mutex
	queue   []func() // updates for the UI goroutine, in order
	pending bool     // a snapshot refresh is queued
	latest  *Snapshot
	lines   []Line
	ends    []*HandEnd
	wake    chan struct{}

	prev *Snapshot // the peer goroutine's last snapshot (OnStep only)

	stop chan struct{} // closed by CancelMove: the pending Move gives up
	left chan struct{} // closed when the player leaves a table of SitTable
}

// NewGame returns the table screen for seat. Call Run on the main goroutine.
func NewGame(seat int, o Options) *Game {
	ctx, cancel := context.WithCancel(context.Background())
	g := &Game{app: tview.NewApplication(), seat: seat, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1)}
	g.view = NewTableView(g.Quit)
	if o.Palette != nil {
		g.view.SetPalette(*o.Palette)
	}
	if o.Screen != nil {
		g.app.SetScreen(o.Screen)
	}
	g.app.EnableMouse(!o.NoMouse)
	// Bracketed paste: a pasted text reaches the screen whole (PasteHandler),
	// never as keys, and its line breaks never as enter.
	g.app.EnablePaste(true)
	g.app.SetRoot(g.view, true)
	// Ctrl-C asks before leaving, like q: tview would stop at once.
	g.app.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() == tcell.KeyCtrlC {
			g.view.Key(ev)
			return nil
		}
		return ev
	})
	return g
}

// View returns the table screen (for tests).
func (g *Game) View() *TableView { return g.view }

// Done is closed when the player has left.
func (g *Game) Done() <-chan struct{} { return g.ctx.Done() }

// Quit leaves the table: pending moves fail with ErrQuit and Run returns.
func (g *Game) Quit() {
	g.runMu.Lock()
	defer g.runMu.Unlock()
	g.cancel()
	if g.started {
		g.app.Stop()
	}
}

// Run shows the table until the player leaves; after Quit it shows
// nothing and returns at once.
func (g *Game) Run() error {
	g.runMu.Lock()
	if g.ctx.Err() != nil {
		g.runMu.Unlock()
		return nil
	}
	g.started = true
	g.runMu.Unlock()
	go g.pump()
	go g.tick()
	err := g.app.Run()
	g.cancel()
	return err
}

// post queues f to run on the UI goroutine.
func (g *Game) post(f func()) {
	g.mu.Lock()
	g.queue = append(g.queue, f)
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// pump hands queued updates to the application one at a time, so that a
// peer never blocks on a slow screen.
func (g *Game) pump() {
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-g.wake:
		}
		for {
			g.mu.Lock()
			if len(g.queue) == 0 {
				g.mu.Unlock()
				break
			}
			fs := g.queue
			g.queue = nil
			g.mu.Unlock()
			if g.ctx.Err() != nil {
				return
			}
			g.app.QueueUpdateDraw(func() {
				for _, f := range fs {
					f()
				}
			})
		}
	}
}

// tick redraws once a second (the waiting time and the turn timer) and
// lets the turn timer move for the player when its time is up.
func (g *Game) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-t.C:
			g.post(func() { g.view.Tick() }) // the view of the moment (SitTable)
		}
	}
}

// SetSeat sets the player's seat (before its peer starts: the lobby learns
// it when the table starts).
func (g *Game) SetSeat(seat int) {
	g.mu.Lock()
	g.seat = seat
	g.prev = nil
	g.mu.Unlock()
}

// ShowLobby shows the lobby screen over b; start is called (on its own
// goroutine) when a table the player sits at starts.
func (g *Game) ShowLobby(b Lobby, start func(LobbyTable)) *LobbyView {
	lv := NewLobbyView(g, b, func(t LobbyTable) { go start(t) })
	go lv.watch(g.ctx)
	g.post(func() {
		lv.Refresh()
		g.app.SetRoot(lv, true)
	})
	return lv
}

// ShowTable shows the table screen.
func (g *Game) ShowTable() {
	g.post(func() { g.app.SetRoot(g.view, true) })
}

// Start runs f on its own goroutine once the screen is running.
func (g *Game) Start(f func()) {
	g.post(func() { go f() })
}

// SetLeaveNote sets what the quit question says about resuming the match
// later (e.g. the command that does it).
func (g *Game) SetLeaveNote(s string) {
	g.post(func() { g.view.leaveNote = s })
}

// SetContext sets what the header says of the match before its ruleset
// (a tournament's round and table); "" for none.
func (g *Game) SetContext(s string) {
	g.post(func() { g.view.context = s })
}

// SetRackFile keeps the player's rack arrangement in path (see RackFile)
// and brings back the one saved there. Call it before the match's first
// step reaches the screen.
func (g *Game) SetRackFile(path string) {
	g.post(func() { g.view.SetRackFile(path) })
}

// SetLinks says how this player's peer reaches each other seat: the
// table screen keeps a line for it, over the message line.
func (g *Game) SetLinks(links []SeatLink) {
	links = slices.Clone(links)
	g.post(func() { g.view.setLinks(links) })
}

// SetAway names the players whose peers are not connected: the links line
// shows them reconnecting (unless their messages arrive through another
// member), with the seconds since.
func (g *Game) SetAway(names []string) {
	names = slices.Clone(names)
	g.post(func() { g.view.setAway(names) })
}

// OnStep is the seat's PeerConfig.OnStep: it takes a snapshot, works out
// what happened, and queues a refresh of the screen.
func (g *Game) OnStep(m *table.Machine, v *engine.View) {
	g.mu.Lock()
	seat := g.seat
	g.mu.Unlock()
	s := TakeSnapshot(m, v, seat)
	lines, end := Events(g.prev, s)
	g.prev = s
	g.mu.Lock()
	g.latest = s
	g.lines = append(g.lines, lines...)
	if end != nil {
		g.ends = append(g.ends, end)
	}
	queue := !g.pending
	g.pending = true
	g.mu.Unlock()
	if queue {
		g.post(g.refresh)
	}
}

// OnReplay is OnStep for the steps a resumed peer replays from its saved
// transcript: they are not news (no panel, no refresh), but they rebuild
// the log of the hand being played, from its deal on. The next OnStep
// shows the state they lead to.
func (g *Game) OnReplay(m *table.Machine, v *engine.View) {
	g.mu.Lock()
	seat := g.seat
	g.mu.Unlock()
	s := TakeSnapshot(m, v, seat)
	lines, _ := Events(g.prev, s)
	newHand := s.Match != nil && (g.prev == nil || g.prev.Match == nil || g.prev.Match.HandNumber() != s.Match.HandNumber())
	g.prev = s
	g.mu.Lock()
	if newHand {
		g.lines = nil
	}
	g.lines = append(g.lines, lines...)
	g.latest = s
	g.mu.Unlock()
}

// refresh shows the latest snapshot (on the UI goroutine).
func (g *Game) refresh() {
	g.mu.Lock()
	s, lines, ends := g.latest, g.lines, g.ends
	g.lines, g.ends, g.pending = nil, nil, false
	g.mu.Unlock()
	g.view.Update(s, lines, ends)
}

// Move implements table.Mover for the player's seat: it asks the screen for
// a move and waits for it, or for the player to leave.
func (g *Game) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	r := &moveReq{Reply: make(chan engine.Action, 1)}
	stop := g.moveStop()
	left := g.tableLeft()
	g.post(func() { g.view.Request(r) })
	select {
	case a := <-r.Reply:
		return a, nil
	case <-stop:
		return engine.Action{}, ErrMoveCanceled
	case <-left:
		return engine.Action{}, ErrQuit
	case <-g.ctx.Done():
		return engine.Action{}, ErrQuit
	}
}

// Finish shows the end of the match.
func (g *Game) Finish(m *MatchEnd) {
	g.post(func() { g.view.Finish(m) })
}

// Say shows a line on the message line.
func (g *Game) Say(s string) {
	g.post(func() { g.view.say(s) })
}
