package ui

import (
	"errors"

	"github.com/okey-game/okey/table"
)

// ErrMoveCanceled is what Move returns when the peer withdrew its question
// (CancelMove): the match ended while the player was choosing.
var ErrMoveCanceled = errors.New("ui: the move is no longer asked")

var _ table.MoveCanceler = (*Game)(nil)

// moveStop returns the channel that CancelMove closes for the move being
// asked now.
func (g *Game) moveStop() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stop = make(chan struct{})
	return g.stop
}

// CancelMove implements table.MoveCanceler: the peer stopped (the match
// ended, a seat was named, the player left) while the player was choosing.
// The pending Move returns, and the screen stops asking for a move, so no
// key can answer a question nobody waits for.
//
// Known gap: a CancelMove that comes before the mover's goroutine has
// entered Move (Run returned at once after starting it) is not seen, and
// that Move asks and waits until it is answered or the Game ends. Closing
// it needs a per-move token in table's contract (a Move given a context),
// not a cancel that sticks: a sticky cancel would also stop the next
// match's first move when it comes just after a Move returned.
func (g *Game) CancelMove() {
	g.mu.Lock()
	if g.stop != nil {
		close(g.stop)
		g.stop = nil
	}
	g.mu.Unlock()
	g.post(func() { g.view.Cancel() })
}
