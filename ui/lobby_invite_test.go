package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// inviteLobby is a fakeLobby that offers private tables and join by code.
type inviteLobby struct {
	fakeLobby
	code  string // the invite code of table "t1"
	whole string // the one text CheckCode takes for a whole code ("okey1abcdef" if empty)
}

func (f *inviteLobby) CheckCode(code string) error {
	whole := f.whole
	if whole == "" {
		whole = "okey1abcdef"
	}
	if code != whole {
		return errors.New("the invite code's check does not match")
	}
	return nil
}

func (f *inviteLobby) CreatePrivate(_ context.Context, rs string, players, bots int, level string) (string, error) {
	f.call("private " + rs)
	return "t2", nil
}
func (f *inviteLobby) JoinCode(_ context.Context, code string) (string, error) {
	f.call("code " + code)
	return "t3", nil
}
func (f *inviteLobby) Revoke(id string) error {
	f.call("revoke " + id)
	f.mu.Lock()
	f.code = "okey1" + strings.Repeat("Nw", 100)
	f.mu.Unlock()
	return nil
}
func (f *inviteLobby) Invite(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id == "t1" {
		return f.code
	}
	return ""
}

// TestLobbyInvite: the lobby shows the invite code of the player's private
// table whole (wrapped, never cut, at 80 columns), joins by a pasted code
// (white space of a copy across lines dropped), and the create form opens a
// private table.
func TestLobbyInvite(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	code := "okey1" + strings.Repeat("7Xq2", 54) + "Zz" // 223 characters, one word
	fl := &inviteLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "me", Name: "ayse"}}},
	}}, code: code}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	// The code, read back from the screen's rows, is whole.
	s := waitScreen(t, g, scr, 5*time.Second, "the invite code", func(s string) bool {
		return strings.Contains(s, "invite code of t1") && strings.Contains(strings.Join(strings.Fields(s), ""), code)
	})
	for _, line := range strings.Split(s, "\n") {
		if f := strings.TrimSpace(line); strings.HasPrefix(f, "okey1") && len(f) > 76 {
			t.Fatalf("a code line wider than the screen: %q", f)
		}
	}
	waitCalls := func(want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			fl.mu.Lock()
			got := strings.Join(fl.calls, "; ")
			fl.mu.Unlock()
			if strings.Contains(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("calls %q, want %q", got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	// Revoke: a new code shows.
	key(tcell.KeyRune, 'v')
	waitCalls("revoke t1")
	waitScreen(t, g, scr, 5*time.Second, "the new code", func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), ""), "okey1"+strings.Repeat("Nw", 100))
	})
	// Join by code: paste with a line break in the middle.
	key(tcell.KeyRune, 'k')
	waitScreen(t, g, scr, 5*time.Second, "the code box", func(s string) bool { return strings.Contains(s, "paste an invite code") })
	for _, r := range "okey1abc\n  def" {
		if r == '\n' {
			key(tcell.KeyRune, ' ')
			continue
		}
		key(tcell.KeyRune, r)
	}
	key(tcell.KeyEnter, 0)
	waitCalls("code okey1abcdef")
	waitScreen(t, g, scr, 5*time.Second, "the join", func(s string) bool { return strings.Contains(s, "joining by invite code: done") })
	// The create form's last field makes the table private (once the
	// player's table t1 is closed: one table at a time, issue 37 item 3).
	fl.mu.Lock()
	fl.tables = nil
	fl.mu.Unlock()
	fl.changes <- struct{}{}
	waitScreen(t, g, scr, 5*time.Second, "t1 closed", func(s string) bool { return strings.Contains(s, "no tables on the LAN yet") })
	key(tcell.KeyRune, 'c')
	waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "join     < anyone on the LAN >") })
	for i := 0; i < 6; i++ {
		key(tcell.KeyTab, 0)
	}
	key(tcell.KeyRight, 0)
	waitScreen(t, g, scr, 5*time.Second, "private", func(s string) bool { return strings.Contains(s, "invite code only") })
	key(tcell.KeyEnter, 0)
	waitCalls("private classic")
	key(tcell.KeyRune, 'q')
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}
