package ui

import (
	"errors"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestCancelMoveWithdrawsTheQuestion: when the peer stops while the player
// is choosing (another seat was named, the match ended), CancelMove makes
// the pending Move return and the screen stop asking, so no key answers a
// question nobody waits for.
func TestCancelMoveWithdrawsTheQuestion(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	defer func() {
		g.Quit()
		select {
		case <-ran:
		case <-time.After(10 * time.Second):
			t.Error("the application did not stop")
		}
	}()

	for _, game := range []string{"classic", "101"} {
		moved := make(chan error, 1)
		go func() {
			var err error
			if game == "101" {
				_, err = g.Move101(nil, nil)
			} else {
				_, err = g.Move(nil, nil)
			}
			moved <- err
		}()
		asked := func() bool {
			var a bool
			g.app.QueueUpdate(func() { a = g.view.m.Asked() })
			return a
		}
		deadline := time.Now().Add(10 * time.Second)
		for !asked() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the screen never asked for the move", game)
			}
			time.Sleep(10 * time.Millisecond)
		}
		g.CancelMove()
		select {
		case err := <-moved:
			if !errors.Is(err, ErrMoveCanceled) {
				t.Fatalf("%s: Move after CancelMove: %v, want ErrMoveCanceled", game, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Move did not return after CancelMove", game)
		}
		deadline = time.Now().Add(10 * time.Second)
		for asked() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the screen still asks for a move after CancelMove", game)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// A CancelMove with no move asked changes nothing.
	g.CancelMove()
}
