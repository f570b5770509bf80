package web

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Game is the web table for one seat: the bridge from the seat's peer
// (OnStep, Move) to the model, and from the page's commands to the model's
// moves. It implements ui.LocalFront, so ui.PlayLocal plays a match
// against bots for it as it does for the terminal. One goroutine (run)
// owns the model: the peer's calls and the page's commands reach it
// through a queue, and every change is sent to the pages as a new state.
type Game struct {
	seat int
	m    *tablemodel.Table

	queue   chan func()
	done    chan struct{}
	quit    sync.Once
	started atomic.Bool
	stopped chan struct{} // closed when the model's goroutine ends

	prev *tablemodel.Snapshot // the peer goroutine's last snapshot

	mu    sync.Mutex
	subs  map[chan []byte]bool
	state []byte // the last state sent

	stopMu sync.Mutex
	stop   chan struct{} // closed by CancelMove

	asking *question // Okey 101: a discard waiting for the player's yes

	links []table.SeatLink // how this peer reaches each other seat (SetLinks; the model's goroutine)
	away  []string         // the seats whose peers are not connected (SetAway)

	leaving bool // the page's leave button was pressed (the model's goroutine)

	// The model's goroutine's: what the header says of the match before
	// the rest (a tournament's round and table: SetContext), and what the
	// leave's question says about coming back and the message line after
	// the leave (SetLeaveNote; "": the words of a saved match).
	context, leaveNote, leftSay string

	chat *webChat // the table's chat (SetChat; the model's goroutine): nil, none
}

var (
	_ ui.LocalFront      = (*Game)(nil)
	_ table.MoveCanceler = (*Game)(nil)
)

// NewGame returns the web table of seat; Start runs its model.
func NewGame(seat int) *Game {
	return &Game{seat: seat, m: tablemodel.New(), queue: make(chan func(), 256), done: make(chan struct{}), stopped: make(chan struct{}),
		subs: map[chan []byte]bool{}}
}

// Start runs the model's goroutine; it ends when the player leaves (Quit).
func (g *Game) Start() {
	if g.started.CompareAndSwap(false, true) {
		go g.run()
	}
}

// keepQuiet is how long the table stays quiet before the rack's
// arrangement goes to its file, and keepLate the longest a change waits
// for that: the file is a synced write (tens of ms on a busy disk), which
// would hold back the states that come meanwhile (the other seats' moves).
// The page's leave writes it at once; after Quit nothing is written.
const (
	keepQuiet = 150 * time.Millisecond
	keepLate  = 2 * time.Second
)

func (g *Game) run() {
	defer close(g.stopped)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	keep := time.NewTimer(time.Hour)
	keep.Stop()
	var unkept time.Time // the first change not yet written (zero: none)
	g.publish()
	for {
		select {
		case f := <-g.queue:
			f()
			// Take what was queued with it before drawing once (not what
			// keeps coming: bots that play at once would hold the page).
			for range len(g.queue) {
				(<-g.queue)()
			}
		case <-tick.C:
			g.tick()
		case <-keep.C:
			if g.left() {
				return // nothing is written once the table is left
			}
			g.m.KeepRack()
			unkept = time.Time{}
			continue
		case <-g.done:
			return
		}
		// The page first; the rack's arrangement once the table is quiet.
		g.publish()
		if unkept.IsZero() {
			unkept = time.Now()
		}
		if time.Since(unkept) >= keepLate && !g.left() {
			g.m.KeepRack()
			unkept = time.Time{}
			keep.Stop()
			continue
		}
		keep.Reset(keepQuiet)
	}
}

// tick moves for the player when its turn's time ran out (the model's
// TimeUp, as the terminal does every second).
func (g *Game) tick() {
	if !g.m.MyMove() {
		return
	}
	if left, ok := g.m.TimeLeft(); ok && left <= 0 {
		g.m.TimeUp()
	}
}

func (g *Game) post(f func()) {
	select {
	case g.queue <- f:
	case <-g.done:
	}
}

// Done is closed when the player leaves.
func (g *Game) Done() <-chan struct{} { return g.done }

// Quit leaves the table (the page's leave button, or the process ends);
// it returns once the model's goroutine has stopped (no write of the
// rack's arrangement is under way after it).
func (g *Game) Quit() {
	g.stopRun()
	if g.started.Load() {
		<-g.stopped
	}
}

// stopRun ends the model's goroutine without waiting (from it: the leave).
func (g *Game) stopRun() { g.quit.Do(func() { close(g.done) }) }

// SetLinks says how this player's peer reaches each other seat (netplay's
// links' poll: direct, relayed, through a member, reconnecting, and the
// round-trip time), as the terminal's links line does.
func (g *Game) SetLinks(links []table.SeatLink) {
	links = slices.Clone(links)
	g.post(func() { g.links = links })
}

// SetAway names the players whose peers are not connected now (presence,
// told at once): the page shows them reconnecting whatever the last poll said.
func (g *Game) SetAway(names []string) {
	names = slices.Clone(names)
	g.post(func() { g.away = names })
}

// SetContext sets what the page's header says of the match (a
// tournament's round and table, as the terminal's header says it); ""
// for none.
func (g *Game) SetContext(s string) { g.post(func() { g.context = s }) }

// SetLeaveNote sets what the leave's question says about coming back to
// the match (the terminal's SetLeaveNote) and what the message line says
// once the player left; "" keeps the words of a saved match.
func (g *Game) SetLeaveNote(note, left string) {
	g.post(func() { g.leaveNote, g.leftSay = note, left })
}

// SetRackFile keeps the rack's arrangement in path (the model's RackFile).
func (g *Game) SetRackFile(path string) { g.post(func() { g.m.SetRackFile(path) }) }

// OnStep is the seat's PeerConfig.OnStep: a snapshot, what happened, and a
// new state for the pages.
func (g *Game) OnStep(mc *table.Machine, v *engine.View) {
	g.show(tablemodel.TakeSnapshot(mc, v, g.seat))
}

// show is OnStep for a snapshot taken: the log lines of what happened, a
// hand's end, and a new state for the pages.
func (g *Game) show(s *tablemodel.Snapshot) {
	lines, end := tablemodel.Events(g.prev, s)
	g.prev = s
	g.post(func() {
		g.m.AddLog(lines)
		if end != nil {
			g.m.AddEnds(s, []*tablemodel.HandEnd{end})
		}
		g.m.Update(s)
		g.tick()
	})
}

// OnReplay is OnStep for the steps a resumed peer replays: they rebuild the
// log of the hand being played; the next OnStep shows the state.
func (g *Game) OnReplay(mc *table.Machine, v *engine.View) {
	s := tablemodel.TakeSnapshot(mc, v, g.seat)
	lines, _ := tablemodel.Events(g.prev, s)
	g.prev = s
	g.post(func() { g.m.AddLog(lines) })
}

// Say shows a line on the message line.
func (g *Game) Say(s string) { g.post(func() { g.m.Say(s) }) }

// Finish shows the end of the match.
func (g *Game) Finish(e *tablemodel.MatchEnd) { g.post(func() { g.m.Finish(e) }) }

// Move implements table.Mover: it asks the page for a move and waits.
func (g *Game) Move(_ *engine.Hand, _ *engine.View) (engine.Action, error) {
	return await(g, tablemodel.NewRequest[engine.Action]())
}

// await asks the page for the move r and waits for it, for CancelMove or
// for the player to leave.
func await[A any](g *Game, r *tablemodel.Request[A]) (A, error) {
	g.stopMu.Lock()
	stop := make(chan struct{})
	g.stop = stop
	g.stopMu.Unlock()
	g.post(func() { g.m.Ask(r); g.tick() })
	var none A
	select {
	case a := <-r.Reply:
		return a, nil
	case <-stop:
		return none, ui.ErrMoveCanceled
	case <-g.done:
		return none, ui.ErrQuit
	}
}

// CancelMove implements table.MoveCanceler.
func (g *Game) CancelMove() {
	g.stopMu.Lock()
	if g.stop != nil {
		close(g.stop)
		g.stop = nil
	}
	g.stopMu.Unlock()
	g.post(func() { g.m.Cancel() })
}

// publish builds the state and sends it to every page, unless it is the
// state last sent (a second's tick with no timer, a command that changed
// nothing): the pages then have nothing to draw.
func (g *Game) publish() {
	b, err := json.Marshal(g.build())
	if err != nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if bytes.Equal(b, g.state) {
		return
	}
	g.state = b
	for c := range g.subs {
		offer(c, b)
	}
}

// subscribe returns a channel of states, the current one first.
func (g *Game) subscribe() (chan []byte, func()) {
	c := make(chan []byte, 4)
	g.mu.Lock()
	g.subs[c] = true
	if g.state != nil {
		c <- g.state
	}
	g.mu.Unlock()
	return c, func() { g.mu.Lock(); delete(g.subs, c); g.mu.Unlock() }
}

// command is what the page asks for.
type command struct {
	Op   string `json:"op"`
	Slot int    `json:"slot"` // a rack position (0..29); discard, win: -1 for the model's target
	To   int    `json:"to"`   // move: the position it goes to
	// The chat's commands (chat.go).
	Quick  int    `json:"quick,omitempty"`  // chat: a quick message's number
	Text   string `json:"text,omitempty"`   // chat: a text
	Member string `json:"member,omitempty"` // mute: the member's peer id
}

// refuse shows a refusal on the message line (a frame of the page that is
// no command).
func (g *Game) refuse(msg string) { g.post(func() { g.m.Refuse(msg) }) }

// do runs a command of the page on the model's goroutine.
func (g *Game) do(c command) { g.post(func() { g.apply(c) }) }

func (g *Game) apply(c command) {
	m := g.m
	if g.applyChat(c) {
		return
	}
	if g.is101() && g.apply101(c) {
		return
	}
	// A position of -1 is the model's target: the picked-up tile, or the
	// one under the cursor (the keys x and w), as the model holds it now,
	// not as a page drawn a moment ago saw it.
	at := func(p int) engine.Slot {
		if p == -1 {
			return m.Target()
		}
		if p < 0 || p >= tablemodel.RackSize {
			return engine.NoSlot
		}
		return m.Rack.At(p)
	}
	switch c.Op {
	case "draw":
		if off := m.Off(tablemodel.Draw); off != "" {
			m.Refuse(off)
			return
		}
		m.Draw()
	case "take":
		if off := m.Off(tablemodel.Take); off != "" {
			m.Refuse(off)
			return
		}
		m.Take()
	case "discard":
		if off := m.Off(tablemodel.Discard); off != "" {
			m.Refuse(off)
			return
		}
		m.Discard(at(c.Slot))
	case "win":
		if off := m.Off(tablemodel.Win); off != "" {
			m.Refuse(off)
			return
		}
		m.Win(at(c.Slot))
	case "show":
		if off := m.Off(tablemodel.Show); off != "" {
			m.Refuse(off)
			return
		}
		m.Show()
	case "hint":
		m.Hint()
	case "move":
		if c.Slot < 0 || c.Slot >= tablemodel.RackSize || c.To < 0 || c.To >= tablemodel.RackSize || m.Rack.At(c.Slot) == engine.NoSlot {
			m.Refuse(i18n.T("no tile there"))
			return
		}
		m.Rack.Lifted = -1
		m.Rack.Cursor = c.Slot
		m.Lift()
		m.Rack.Cursor = c.To
		m.Lift()
	case "lift":
		if c.Slot < 0 || c.Slot >= tablemodel.RackSize {
			m.Refuse(i18n.T("that place is not on the rack"))
			return
		}
		m.Rack.Cursor = c.Slot
		m.Lift()
	case "putback":
		if m.Rack.Lifted >= 0 {
			m.Rack.Lifted = -1
			m.Say(i18n.T("tile put back"))
		}
	case "cursor":
		if c.Slot < 0 || c.Slot >= tablemodel.RackSize {
			m.Refuse(i18n.T("that place is not on the rack"))
			return
		}
		m.Rack.Cursor = c.Slot
	case "sets":
		m.Sort(false)
	case "runs":
		m.Sort(true)
	case "pairs":
		m.SortPairs()
	case "undo":
		m.Undo()
	case "close":
		g.m.NextEnd()
	case "leave":
		// The pages are told first (the socket sends what is queued before
		// it closes): the match is saved unless it is over.
		g.leaving = true
		if m.Final == nil {
			m.Say(cmp.Or(g.leftSay, labels()["left"]))
		}
		g.publish()
		m.KeepRack() // the arrangement as the player left it
		g.stopRun()
	default:
		m.Refuse(i18n.T("the page sent a command okey does not know"))
	}
}
