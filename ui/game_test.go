package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
)

// waitScreen polls the simulation screen until cond holds or the deadline
// passes. It reads the screen on the application's goroutine: tcell's
// simulation screen hands out its cells without a copy.
func waitScreen(t *testing.T, g *Game, scr tcell.SimulationScreen, d time.Duration, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		var s string
		g.app.QueueUpdate(func() { s = strings.Join(screenLines(scr), "\n") })
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s; the screen:\n%s", d, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlayHandThroughKeys plays a real local table (every seat a peer, full
// cryptography) on a simulation screen: the player draws, asks for a hint
// and discards (or wins) by keys until the hand ends, then leaves.
func TestPlayHandThroughKeys(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	greedy, _ := bot.New("greedy", 1)
	data := t.TempDir()
	type result struct {
		out *LocalOutcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := PlayLocal(context.Background(), g, LocalOptions{Ruleset: "classic", Name: "ayse",
			Bots: []table.Mover{greedy}, BotName: []string{"bot1"}, Data: data})
		done <- result{out, err}
	}()
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()

	press := func(r rune) { scr.InjectKey(tcell.KeyRune, r, tcell.ModNone) }
	over := func(s string) bool { return strings.Contains(s, "hand 1 is over") }
	moves := 0
	for {
		s := waitScreen(t, g, scr, 2*time.Minute, "my turn or the end of the hand", func(s string) bool {
			return over(s) || strings.Contains(s, "your turn: d")
		})
		if over(s) {
			break
		}
		moves++
		if strings.Contains(s, "your turn: draw") {
			press('d')
			waitScreen(t, g, scr, time.Minute, "the draw", func(s string) bool {
				return over(s) || !strings.Contains(s, "your turn: draw")
			})
			continue
		}
		press('h')
		s = waitScreen(t, g, scr, 10*time.Second, "the hint", func(s string) bool {
			return strings.Contains(s, "you can win") || strings.Contains(s, "from a win") || strings.Contains(s, "a winning hand")
		})
		if strings.Contains(s, "you can win") {
			press('w')
		} else {
			press('x')
		}
		waitScreen(t, g, scr, time.Minute, "the discard", func(s string) bool {
			return over(s) || !strings.Contains(s, "your turn: discard")
		})
	}
	s := waitScreen(t, g, scr, 5*time.Second, "the scores", func(s string) bool { return strings.Contains(s, "change") })
	if !strings.Contains(s, "ayse") || !strings.Contains(s, "bot1") {
		t.Errorf("the end of the hand lacks the players:\n%s", s)
	}
	t.Logf("the player made %d moves; the end of the hand:\n%s", moves, s)
	scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	press('q')
	waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "leave the table?") })
	press('y')
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the application did not stop")
	}
	select {
	case r := <-done:
		if r.err != nil || r.out.Err != ErrQuit {
			t.Fatalf("PlayLocal: %v, outcome %+v", r.err, r.out)
		}
		if fi, err := os.Stat(r.out.Transcript); err != nil || fi.Size() == 0 {
			t.Fatalf("no transcript saved: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the table did not stop after the player left")
	}
}
