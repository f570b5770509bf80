package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/internal/testlog"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// noRedirect is a client that shows the server's own answer.
var noRedirect = &http.Client{Timeout: 10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// TestLaunchShowsAndLeaves: Show serves the table's page on its port (the
// token's answer is the cookie's redirect), writes the address and how to
// leave, calls Served, and leaves the table when the command's context
// ends, so that whatever waits on the Game returns.
func TestLaunchShowsAndLeaves(t *testing.T) {
	g := NewGame(0)
	g.Start()
	t.Cleanup(g.Quit)
	s, err := Listen(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var out testlog.Buffer
	var served *Server
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	Launch{Out: &out, NoOpen: true, Served: func(s *Server) { served = s }}.Show(ctx, s)
	if served != s {
		t.Fatalf("Served got %p, want the server %p", served, s)
	}
	for _, want := range []string{"okey: the table is at " + s.URL() + "\n", "okey: Ctrl-C or the page's leave button leaves the table\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	resp, err := noRedirect.Get(s.URL())
	if err != nil {
		t.Fatalf("the page is not served: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the token's answer: %s, want 303 (the cookie and /)", resp.Status)
	}
	select {
	case <-g.Done():
		t.Fatal("the table was left before the context ended")
	default:
	}
	cancel()
	select {
	case <-g.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the context ended and the table was not left within 10s")
	}
}

// TestLaunchLobbyWords: a lobby's page is announced as the lobby, and
// Ctrl-C ends it.
func TestLaunchLobbyWords(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLobby(ctx, &fakeLobby{changes: make(chan struct{}, 1)}, func(table.LobbyTable) {})
	s, err := ListenLobby(l, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var out testlog.Buffer
	Launch{Out: &out, NoOpen: true}.Show(ctx, s)
	for _, want := range []string{"okey: the lobby is at " + s.URL() + "\n", "okey: Ctrl-C ends the lobby\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
}

// TestLaunchFrames: Frames serves a page seen from no seat and returns
// when its viewer leaves it, or when the context ends.
func TestLaunchFrames(t *testing.T) {
	for _, how := range []string{"leave", "context"} {
		f := NewWatchPage([]string{"a", "b"}, "classic")
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan *Server, 1)
		ret := make(chan error, 1)
		go func() {
			ret <- Launch{Out: &testlog.Buffer{}, NoOpen: true, Served: func(s *Server) { got <- s }}.Frames(ctx, f)
		}()
		var s *Server
		select {
		case s = <-got:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: not served within 10s", how)
		}
		if how == "leave" {
			f.do(command{Op: "leave"})
		} else {
			cancel()
		}
		select {
		case err := <-ret:
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Frames did not return within 10s", how)
		}
		cancel()
		if _, err := noRedirect.Get(s.URL()); err == nil {
			t.Errorf("%s: the server still answers after Frames returned", how)
		}
	}
}

// TestFramesFollow: Follow brings the page a watch's end (its state says
// why the watch stopped) and stops when told.
func TestFramesFollow(t *testing.T) {
	f := NewWatchPage([]string{"a", "b"}, "classic")
	c, unsub := f.subscribe()
	defer unsub()
	updates := make(chan ui.WatchUpdate)
	ended := make(chan ui.WatchEnd, 1)
	stop := f.Follow(updates, ended)
	ended <- ui.WatchEnd{Why: "the table went quiet"}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-c:
			if strings.Contains(string(b), "the table went quiet") {
				stop()
				return
			}
		case <-deadline:
			t.Fatal("the watch's end did not reach the page within 10s")
		}
	}
}
