package ui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
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

// table is a Game on a simulation screen with PlayLocal running it.
type tableRun struct {
	t    *testing.T
	g    *Game
	scr  tcell.SimulationScreen
	done chan localResult
	ran  chan error
}

type localResult struct {
	out *LocalOutcome
	err error
}

func startLocal(t *testing.T, o LocalOptions) *tableRun {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	tr := &tableRun{t: t, g: NewGame(0, Options{Screen: scr}), scr: scr, done: make(chan localResult, 1), ran: make(chan error, 1)}
	// After NewGame: tview's SetScreen initialises the screen again (80x25).
	scr.SetSize(80, 24)
	go func() {
		out, err := PlayLocal(context.Background(), tr.g, o)
		tr.done <- localResult{out, err}
	}()
	go func() { tr.ran <- tr.g.Run() }()
	return tr
}

func (tr *tableRun) wait(d time.Duration, what string, cond func(string) bool) string {
	tr.t.Helper()
	return waitScreen(tr.t, tr.g, tr.scr, d, what, cond)
}

func (tr *tableRun) press(r rune) { tr.scr.InjectKey(tcell.KeyRune, r, tcell.ModNone) }

// click presses and releases the left button at (x, y).
func (tr *tableRun) click(x, y int) {
	tr.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	tr.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
}

// onUI runs f on the application's goroutine and waits for it.
func (tr *tableRun) onUI(f func()) { tr.g.app.QueueUpdate(f) }

// rackCell is the screen cell of rack position p's tile (80x24).
func rackCell(p int) (int, int) {
	return (80-rackW)/2 + 1 + (p%RackCols)*(TileWidth+1) + 1, 24 - 2 - rackH + 1 + (p/RackCols)*(TileHeight+1)
}

// stopped waits for the application and PlayLocal to return.
func (tr *tableRun) stopped() localResult {
	tr.t.Helper()
	select {
	case err := <-tr.ran:
		if err != nil {
			tr.t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		tr.t.Fatal("the application did not stop")
	}
	select {
	case r := <-tr.done:
		if r.err != nil {
			tr.t.Fatalf("PlayLocal: %v", r.err)
		}
		return r
	case <-time.After(30 * time.Second):
		tr.t.Fatal("the table did not stop after the player left")
	}
	return localResult{}
}

// playTurn plays the player's turn by keys: draw, then the hint's discard
// or win. It returns false when the hand is over.
func (tr *tableRun) playTurn(over func(string) bool) bool {
	tr.t.Helper()
	s := tr.wait(2*time.Minute, "my turn or the end of the hand", func(s string) bool {
		return over(s) || strings.Contains(s, "your turn: d")
	})
	if over(s) {
		return false
	}
	if strings.Contains(s, "your turn: draw") {
		tr.press('d')
		tr.wait(time.Minute, "the draw", func(s string) bool { return over(s) || !strings.Contains(s, "your turn: draw") })
		return true
	}
	tr.press('h')
	s = tr.wait(10*time.Second, "the hint", func(s string) bool {
		return strings.Contains(s, "you can win") || strings.Contains(s, "from a win") || strings.Contains(s, "a winning hand")
	})
	if strings.Contains(s, "you can win") {
		tr.press('w')
	} else {
		tr.press('x')
	}
	tr.wait(time.Minute, "the discard", func(s string) bool { return over(s) || !strings.Contains(s, "your turn: discard") })
	return true
}

// TestQuitResumeAndFinish plays a one-hand match against a bot on a real
// local table (every seat a peer, full cryptography, every seat saved in a
// data directory): the player leaves mid-hand through the quit question,
// the match is resumed from the data directory with the same keys, played
// on by mouse (pick up, put down, double-click discard, click the stock)
// and keys to its end, and its transcript verifies.
func TestQuitResumeAndFinish(t *testing.T) {
	data := t.TempDir()
	greedy, _ := bot.New("greedy", 1)
	rules := engine.MustRuleset("turkish-rummy", "rounds=1").String()
	tr := startLocal(t, LocalOptions{Ruleset: rules, Name: "ayse", Bots: []table.Mover{greedy}, BotName: []string{"bot1"},
		Strategy: "greedy", Data: data})
	over := func(s string) bool { return strings.Contains(s, "hand 1 is over") }
	// Play to the first discard of the player, and leave there.
	for {
		s := tr.wait(2*time.Minute, "my turn", func(s string) bool { return over(s) || strings.Contains(s, "your turn: d") })
		if over(s) {
			t.Fatalf("the hand ended before the player could leave:\n%s", s)
		}
		if strings.Contains(s, "your turn: discard") {
			break
		}
		tr.playTurn(over)
	}
	// Arrange the rack by hand: the first tile moves two places on.
	tr.press(' ')
	tr.wait(5*time.Second, "the pick-up", func(s string) bool { return strings.Contains(s, "tile picked up") })
	tr.scr.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	tr.scr.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	tr.press(' ')
	tr.wait(5*time.Second, "the put-down", func(s string) bool { return strings.Contains(s, "tile moved") })
	var arranged [RackSize]engine.Slot
	var handLog []string
	tr.onUI(func() {
		arranged = tr.g.view.m.Rack.Positions()
		handLog = handLines(tr.g.view.m.Log)
	})
	if len(handLog) < 2 {
		t.Fatalf("the hand's log before leaving: %q", handLog)
	}
	tr.press('q')
	tr.wait(5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "leave the table?") })
	tr.press('y')
	r := tr.stopped()
	if b, err := os.ReadFile(filepath.Join(r.out.Dir, RackFile)); err != nil || !bytes.Contains(b, []byte(`"pos"`)) {
		t.Fatalf("the rack arrangement is not kept in the match's directory: %q, %v", b, err)
	}
	if r.out.Err != ErrQuit {
		t.Fatalf("outcome %+v, want ErrQuit", r.out)
	}
	un, err := UnfinishedLocal(data)
	if err != nil || len(un) != 1 || un[0].Dir != r.out.Dir || un[0].Bots() != 1 || un[0].Strategy != "greedy" {
		t.Fatalf("UnfinishedLocal: %+v, %v", un, err)
	}
	if fi, err := os.Stat(filepath.Join(un[0].Dir, table.LocalMatchFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the match file: %v, %v", fi, err)
	}
	before, err := os.ReadFile(r.out.Transcript)
	if err != nil || len(before) == 0 {
		t.Fatalf("no transcript saved: %v", err)
	}
	// Leaving is not cheating: the saved transcript verifies as unfinished,
	// honest so far, naming no one (issue 15, point 1).
	if tt, err := table.ReadTranscript(bytes.NewReader(before)); err != nil {
		t.Fatalf("the saved transcript: %v", err)
	} else if rep := table.Verify(tt); rep.Status() != table.StatusUnfinished || rep.Violation != nil {
		t.Fatalf("after quitting, verify says %v: %s", rep.Status(), Verdict(rep))
	} else if v := Verdict(rep); !strings.HasPrefix(v, "unfinished, honest so far") || strings.Contains(v, "CHEAT") {
		t.Fatalf("after quitting, the verdict reads %q", v)
	}

	// Resume: the same table, the same turn.
	greedy2, _ := bot.New("greedy", 2)
	tr = startLocal(t, LocalOptions{Resume: un[0].Dir, Bots: []table.Mover{greedy2}})
	tr.wait(time.Minute, "the resumed turn", func(s string) bool {
		return strings.Contains(s, "your turn: discard") && strings.Contains(s, "ayse")
	})
	// The rack stands as the player left it, under the hand's log so far.
	var back [RackSize]engine.Slot
	var backLog []string
	tr.onUI(func() {
		back = tr.g.view.m.Rack.Positions()
		backLog = handLines(tr.g.view.m.Log)
	})
	if back != arranged {
		t.Fatalf("the resumed rack is %v, the player left it as %v", back, arranged)
	}
	if strings.Join(backLog, "\n") != strings.Join(handLog, "\n") {
		t.Fatalf("the resumed hand's log:\n%s\nwant:\n%s", strings.Join(backLog, "\n"), strings.Join(handLog, "\n"))
	}
	// Mouse: pick up the first tile, put it down in a gap.
	var from, gap int
	var slot engine.Slot
	tr.onUI(func() {
		from, gap = -1, -1
		for p := 0; p < RackSize; p++ {
			switch {
			case tr.g.view.m.Rack.At(p) != engine.NoSlot && from < 0:
				from, slot = p, tr.g.view.m.Rack.At(p)
			case tr.g.view.m.Rack.At(p) == engine.NoSlot && from >= 0 && gap < 0 && p > from+1:
				gap = p
			}
		}
	})
	if from < 0 || gap < 0 {
		t.Fatal("no tile and gap on the rack")
	}
	tr.click(rackCell(from))
	tr.wait(5*time.Second, "the pick-up", func(s string) bool { return strings.Contains(s, "tile picked up") })
	tr.click(rackCell(gap))
	tr.wait(5*time.Second, "the put-down", func(s string) bool { return strings.Contains(s, "tile moved") })
	var at engine.Slot
	var face string
	tr.onUI(func() { at, face = tr.g.view.m.Rack.At(gap), tr.g.view.face(slot).String() })
	if at != slot {
		t.Fatalf("the tile clicked at %d is not at %d after the second click", from, gap)
	}
	// A double click discards it (on another cell of the tile than the
	// click that put it down, which may be within the double-click time).
	x, y := rackCell(gap)
	tr.click(x+1, y)
	tr.click(x+1, y)
	tr.wait(time.Minute, "the discard of the "+face, func(s string) bool { return strings.Contains(s, "you discard the "+face) })
	// Click the stock when it is time to draw.
	s := tr.wait(2*time.Minute, "my turn to draw", func(s string) bool { return over(s) || strings.Contains(s, "your turn: draw") })
	if !over(s) {
		sx, sy := -1, -1
		for y, l := range strings.Split(s, "\n") {
			if x := strings.Index(l, "stock"); x >= 0 && sx < 0 {
				sx, sy = x, y
			}
		}
		if sx < 0 {
			t.Fatalf("no stock on the screen:\n%s", s)
		}
		tr.click(sx+1, sy+1)
		tr.wait(time.Minute, "the draw", func(s string) bool { return over(s) || strings.Contains(s, "you draw from the stock") })
	}
	moves := 0
	for tr.playTurn(over) {
		moves++
	}
	s = tr.wait(5*time.Second, "the scores", func(s string) bool { return strings.Contains(s, "change") })
	if !strings.Contains(s, "ayse") || !strings.Contains(s, "bot1") {
		t.Errorf("the end of the hand lacks the players:\n%s", s)
	}
	tr.scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	s = tr.wait(time.Minute, "the match result", func(s string) bool {
		return strings.Contains(s, "the match is over") && strings.Contains(s, "verified")
	})
	if !strings.Contains(s, "verified: honest") {
		t.Fatalf("the match end:\n%s", s)
	}
	t.Logf("after resuming, %d more turns; the end:\n%s", moves, s)
	tr.press('q')
	r = tr.stopped()
	if r.out.Err != nil || r.out.Report == nil || !r.out.Report.Honest {
		t.Fatalf("outcome %+v", r.out)
	}
	f, err := os.Open(r.out.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tt, err := table.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	if rep := table.Verify(tt); !rep.Honest || len(rep.Hands) != 1 {
		t.Fatalf("the transcript: %s", Verdict(rep))
	}
	if un, _ := UnfinishedLocal(data); len(un) != 0 {
		t.Fatalf("a finished match is still offered: %+v", un)
	}
}

// brokenMover fails whenever it must move (a bot whose peer breaks).
type brokenMover struct{}

func (brokenMover) Move(*engine.Hand, *engine.View) (engine.Action, error) {
	return engine.Action{}, errBroken
}

var errBroken = errors.New("the bot broke")

// TestBotFailureEndsMatch: a bot that stops in mid-match ends the match at
// once with its name (the player does not wait for it for ever), and the
// match stays resumable.
func TestBotFailureEndsMatch(t *testing.T) {
	data := t.TempDir()
	rules := engine.MustRuleset("turkish-rummy", "rounds=1").String()
	tr := startLocal(t, LocalOptions{Ruleset: rules, Name: "ayse", Bots: []table.Mover{brokenMover{}}, BotName: []string{"bot1"},
		Strategy: "greedy", Data: data})
	// The player may have to move first (the order draw decides): play
	// the player's turns until the bot, at its first turn, breaks.
	var r localResult
	deadline := time.Now().Add(2 * time.Minute)
	for r.out == nil && r.err == nil {
		select {
		case r = <-tr.done:
			continue
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the match did not end when its bot broke")
		}
		var screen string
		tr.onUI(func() { screen = strings.Join(screenLines(tr.scr), "\n") })
		switch {
		case strings.Contains(screen, "your turn: draw"):
			tr.press('d')
		case strings.Contains(screen, "your turn: discard"):
			tr.press('x')
		}
		time.Sleep(50 * time.Millisecond) // a poll, bounded by the deadline
	}
	if r.err != nil || r.out == nil || !errors.Is(r.out.Err, errBroken) || !strings.Contains(r.out.Err.Error(), "bot1 stopped") {
		t.Fatalf("outcome %+v, %v; want bot1 stopped: the bot broke", r.out, r.err)
	}
	if un, err := UnfinishedLocal(data); err != nil || len(un) != 1 {
		t.Fatalf("the match is not resumable: %+v, %v", un, err)
	}
	tr.g.app.Stop()
	<-tr.ran
}

// handLines returns the log lines of the hand being played, from its deal.
func handLines(log []Line) []string {
	var out []string
	for _, l := range log {
		if strings.HasPrefix(l.String(), "hand ") {
			out = nil
		}
		out = append(out, l.String())
	}
	return out
}
