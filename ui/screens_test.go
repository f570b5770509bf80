package ui

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/testlog"
)

func simGame(t *testing.T) *Game {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	return NewGame(0, Options{Screen: scr})
}

// waitFor waits until cond holds, or fails after a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestScreensInTurn: screens show one after another; a new one closes the
// last; what is printed while a screen is up goes out when it closes, and
// at once when none is up.
func TestScreensInTurn(t *testing.T) {
	var out testlog.Buffer
	s := NewScreens(&out)
	s.Print(func(w io.Writer) { io.WriteString(w, "before\n") })
	if out.String() != "before\n" {
		t.Fatalf("printed %q with no screen up", out.String())
	}
	over := make(chan struct{})
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background(), over) }()
	first := simGame(t)
	s.Show(first)
	waitFor(t, "the first screen to show", func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.showing })
	s.Print(func(w io.Writer) { io.WriteString(w, "between\n") })
	if out.String() != "before\n" {
		t.Fatalf("printed %q while a screen is up", out.String())
	}
	second := simGame(t)
	s.Show(second) // closes the first
	select {
	case <-first.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the first screen stayed up")
	}
	waitFor(t, "the held lines", func() bool { return out.String() == "before\nbetween\n" })
	second.Quit()
	close(over)
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not end when over")
	}
}

// TestScreensCloseWithContext: the screen up when the context ends is
// closed, and Run ends once over is closed.
func TestScreensCloseWithContext(t *testing.T) {
	s := NewScreens(io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	over := make(chan struct{})
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, over) }()
	g := simGame(t)
	s.Show(g)
	waitFor(t, "the screen to show", func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.showing })
	cancel()
	select {
	case <-g.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the screen stayed up after the context ended")
	}
	close(over)
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not end")
	}
}

// TestQuitBeforeRun: a screen quit before it runs (its match over before
// Screens reached it) shows nothing and Run returns at once, without
// opening the process's terminal.
func TestQuitBeforeRun(t *testing.T) {
	g := simGame(t)
	g.Quit()
	done := make(chan error, 1)
	go func() { done <- g.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run after Quit did not return")
	}
}
