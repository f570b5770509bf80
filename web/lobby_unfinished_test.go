package web

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/table"
)

// eventually waits for ok (5 s).
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not in 5 s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestLobbyUnfinished: the web lobby lists the player's unfinished
// matches (LAN tables and matches against bots), newest first; resume
// hands the one chosen to the resume hook (one table at a time), a
// second resume while it plays is refused; drop asks first and drops a
// match against bots on the second click, never a LAN one; the list is
// read again after a match and a drop, not on every state.
func TestLobbyUnfinished(t *testing.T) {
	now := time.Now()
	f := &fakeLobby{changes: make(chan struct{}, 1), unfin: []table.LobbyTable{
		{ID: "lan1", Ruleset: "german", Unfinished: true, Note: "table lan1 with mehmet", Started: now.Add(-time.Hour)},
		{ID: "/d/matches/local-1", Ruleset: "classic", Unfinished: true, Local: true, Note: "with bot1", Started: now},
	}}
	startedT := make(chan string, 2)
	l := NewLobby(context.Background(), f, func(t table.LobbyTable) { startedT <- t.ID })
	if st := l.build(); len(st.Unfin) != 0 {
		t.Fatalf("unfinished matches offered with no resume hook: %+v", st.Unfin)
	}
	resumed := make(chan table.LobbyTable, 2)
	release := make(chan struct{})
	l.Offer(func(t table.LobbyTable) { resumed <- t; <-release }, func(table.LobbyTable) {})
	l.stale = true
	st := l.build()
	if len(st.Unfin) != 2 || st.Unfin[0].ID != "/d/matches/local-1" || !st.Unfin[0].Local || st.Unfin[1].ID != "lan1" || st.Unfin[1].Local ||
		st.Unfin[1].Note != "table lan1 with mehmet" || st.Labels["resume"] != "resume" {
		t.Fatalf("the unfinished matches: %+v", st.Unfin)
	}
	l.build()
	if n := strings.Count(strings.Join(f.got(), ","), "unfinished"); n != 1 {
		t.Fatalf("the unfinished matches read %d times for two states", n)
	}

	// Drop: never a LAN match; a match against bots on the second click.
	l.do(lobbyCommand{Op: "drop", ID: "lan1"})
	if st := l.build(); !st.Bad || !strings.Contains(st.Msg, "cannot be dropped") {
		t.Fatalf("a LAN match's drop: %q", st.Msg)
	}
	l.do(lobbyCommand{Op: "drop", ID: "/d/matches/local-1"})
	if st := l.build(); !strings.Contains(st.Msg, "drop again") || slices.Contains(f.got(), "drop /d/matches/local-1") {
		t.Fatalf("the first drop: %q, the service got %q", st.Msg, f.got())
	}
	l.do(lobbyCommand{Op: "drop", ID: "/d/matches/local-1"})
	st = l.build()
	if !slices.Contains(f.got(), "drop /d/matches/local-1") || len(st.Unfin) != 1 || st.Unfin[0].ID != "lan1" || st.Bad {
		t.Fatalf("the second drop: %q; listed %+v; the service got %q", st.Msg, st.Unfin, f.got())
	}

	// Resume: the LAN table, handed over once; the page waits for it.
	l.do(lobbyCommand{Op: "resume", ID: "nope"})
	if st := l.build(); !st.Bad {
		t.Fatal("a resume of a match not listed is not refused")
	}
	l.do(lobbyCommand{Op: "resume", ID: "lan1"})
	select {
	case r := <-resumed:
		if r.ID != "lan1" || r.Local || !r.Unfinished {
			t.Fatalf("resumed %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the resume hook was not called")
	}
	l.do(lobbyCommand{Op: "resume", ID: "lan1"})
	if st := l.build(); !st.Bad || !strings.Contains(st.Msg, "a table is open already") {
		t.Fatalf("a second resume while one plays: %q", st.Msg)
	}
	f.mu.Lock()
	f.unfin = nil // finished this time
	f.mu.Unlock()
	close(release)
	eventually(t, "the list read again after the match", func() bool { return len(l.build().Unfin) == 0 })
	select {
	case r := <-resumed:
		t.Fatalf("resumed twice: %+v", r)
	default:
	}
	// The resumed table, started with the player seated, is not handed
	// to start as a new one once the player left it.
	f.set(table.LobbyTable{ID: "lan1", Ruleset: "german", Seats: 2, State: "started",
		Members: []table.LobbyMember{{ID: "me", Name: "ayse"}, {ID: "x", Name: "mehmet"}}})
	l.build() // startOnce decides on this goroutine: inMatch is set when it hands a table over
	l.mu.Lock()
	handed := l.inMatch
	l.mu.Unlock()
	if handed || len(startedT) > 0 {
		t.Fatal("the resumed table was handed to start")
	}
}

// TestLobbyWatch: a started public table the player does not sit at
// (the list sorted by id: o1, s1, s2) offers watch; the watch hook gets it, one at a time; the player's own
// table, an open one and a private one are refused with the reason.
func TestLobbyWatch(t *testing.T) {
	f := &fakeLobby{changes: make(chan struct{}, 1), tables: []table.LobbyTable{
		{ID: "s1", Ruleset: "classic", Seats: 2, State: "started", Members: []table.LobbyMember{{ID: "a", Name: "ali"}, {ID: "b", Name: "veli"}}},
		{ID: "s2", Ruleset: "classic", Seats: 2, State: "started", Private: true, Members: []table.LobbyMember{{ID: "a", Name: "ali"}}},
		{ID: "o1", Ruleset: "classic", Seats: 2, State: "open", Members: []table.LobbyMember{{ID: "a", Name: "ali"}}},
	}}
	watched := make(chan string, 2)
	release := make(chan struct{})
	l := NewLobby(context.Background(), f, func(table.LobbyTable) {})
	if st := l.build(); st.Tables[1].Watch {
		t.Fatal("watch offered with no watch hook")
	}
	l.Offer(func(table.LobbyTable) {}, func(t table.LobbyTable) { watched <- t.ID; <-release })
	st := l.build()
	if st.Tables[0].Watch || !st.Tables[1].Watch || st.Tables[2].Watch || st.Labels["watch"] != "watch" {
		t.Fatalf("watch offered on %+v", st.Tables)
	}
	for _, c := range []struct{ id, why string }{{"o1", "only a started table"}, {"s2", "invite code"}, {"zz", "no longer announced"}} {
		l.do(lobbyCommand{Op: "watch", ID: c.id})
		if st := l.build(); !st.Bad || !strings.Contains(st.Msg, c.why) {
			t.Fatalf("watch %s: %q, want %q", c.id, st.Msg, c.why)
		}
	}
	l.do(lobbyCommand{Op: "watch", ID: "s1"})
	if id := <-watched; id != "s1" {
		t.Fatalf("watched %s", id)
	}
	l.do(lobbyCommand{Op: "watch", ID: "s1"})
	if st := l.build(); !st.Bad || !strings.Contains(st.Msg, "a table is open already") {
		t.Fatalf("a second watch while one is open: %q", st.Msg)
	}
	close(release)
	eventually(t, "back in the lobby", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return !l.inMatch
	})
	f.set(table.LobbyTable{ID: "s1", Ruleset: "classic", Seats: 2, State: "started",
		Members: []table.LobbyMember{{ID: "me", Name: "ayse"}, {ID: "b", Name: "veli"}}})
	l.do(lobbyCommand{Op: "watch", ID: "s1"})
	if st := l.build(); !st.Bad || !strings.Contains(st.Msg, "yours to play") {
		t.Fatalf("watching the player's own table: %q", st.Msg)
	}
}
