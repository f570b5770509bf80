package netplay

import (
	"sync"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Pace is how long a bot takes per move at a table (issue 37, 7): a table
// of bots alone plays a 2-hand match in about a second, nothing a person
// can follow. Every, when set, is the wait before each of the seat's moves
// (okey bot --pace); else Watched is the wait while the table has
// spectators (okey bot and the lobby's bots use HumanPace). The zero Pace
// never waits.
type Pace struct {
	Every, Watched time.Duration
}

// HumanPace is a bot's time per move at a watched table: about a person's.
const HumanPace = 1500 * time.Millisecond

// pacedMover waits, before each move of its mover, the time its pace asks
// (watched tells whether the table has spectators now). A CancelMove ends
// the wait at once.
type pacedMover struct {
	m       table.Mover
	pace    Pace
	watched func() bool
	after   func(time.Duration) <-chan time.Time // time.After; tests record

	mu   sync.Mutex
	stop chan struct{}
}

// paceMover wraps m with pace, keeping its Okey 101 moves when it has
// them; m itself when pace never waits.
func paceMover(m table.Mover, pace Pace, watched func() bool, after func(time.Duration) <-chan time.Time) table.Mover {
	if m == nil || (pace.Every <= 0 && pace.Watched <= 0) {
		return m
	}
	if after == nil {
		after = time.After
	}
	p := &pacedMover{m: m, pace: pace, watched: watched, after: after}
	if _, ok := m.(table.Mover101); ok {
		return paced101{p}
	}
	return p
}

// wait sleeps the pace's time for the next move; false when cancelled.
func (p *pacedMover) wait() bool {
	d := p.pace.Every
	if d <= 0 && p.watched != nil && p.watched() {
		d = p.pace.Watched
	}
	if d <= 0 {
		return true
	}
	p.mu.Lock()
	p.stop = make(chan struct{})
	stop := p.stop
	p.mu.Unlock()
	select {
	case <-p.after(d):
		return true
	case <-stop:
		return false
	}
}

func (p *pacedMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	p.wait() // cancelled: the move is not sent (table.MoveCanceler)
	return p.m.Move(h, v)
}

// CancelMove ends a wait, and tells the mover when it can be told.
func (p *pacedMover) CancelMove() {
	p.mu.Lock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	p.mu.Unlock()
	if c, ok := p.m.(table.MoveCanceler); ok {
		c.CancelMove()
	}
}

type paced101 struct{ *pacedMover }

func (p paced101) Move101(g *engine.Game101, v *engine.View) (engine.Action101, error) {
	p.wait()
	return p.m.(table.Mover101).Move101(g, v)
}
