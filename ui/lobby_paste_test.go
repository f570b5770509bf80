package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// pasteRig is a lobby with join by code on a simulation screen, a table
// selected that the lobby's keys would act on (j joins it, r readies, c
// opens the create form, q quits okey).
type pasteRig struct {
	t    *testing.T
	g    *Game
	scr  tcell.SimulationScreen
	fl   *inviteLobby
	ran  chan error
	code string // a code of 223 characters: three lines in the lobby at 80 columns
}

func newPasteRig(t *testing.T) *pasteRig {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	// Every lobby key a code's alphabet holds: c j k q r t v w x.
	code := "okey1" + strings.Repeat("qcjrtvwxk7", 21) + "Zz8Qe9jdq"
	fl := &inviteLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t9", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "p2", Name: "mehmet"}}},
	}}, whole: code}
	g.ShowLobby(fl, func(LobbyTable) {})
	r := &pasteRig{t: t, g: g, scr: scr, fl: fl, ran: make(chan error, 1), code: code}
	go func() { r.ran <- g.Run() }()
	r.wait("the lobby", func(s string) bool { return strings.Contains(s, "t9") })
	return r
}

// lines is the code cut as the lobby shows it: 76 characters a line.
func (r *pasteRig) lines() []string {
	ls := wrapCode(r.code, 76)
	if len(ls) != 3 {
		r.t.Fatalf("the code takes %d lines", len(ls))
	}
	return ls
}

// wait waits (5 s at most) for cond on the screen's text, failing at once
// if okey has quit.
func (r *pasteRig) wait(what string, cond func(string) bool) string {
	r.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		got := make(chan string, 1)
		go r.g.app.QueueUpdate(func() { got <- strings.Join(screenLines(r.scr), "\n") })
		var s string
		select {
		case err := <-r.ran:
			r.t.Fatalf("okey quit (%v) while waiting for %s; calls: %s", err, what, r.calls())
		case s = <-got:
		case <-deadline:
			r.t.Fatalf("waited for %s; the screen does not answer", what)
		}
		if cond(s) {
			return s
		}
		select {
		case <-deadline:
			r.t.Fatalf("waited for %s; calls %s; the screen:\n%s", what, r.calls(), s)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (r *pasteRig) calls() string {
	r.fl.mu.Lock()
	defer r.fl.mu.Unlock()
	return strings.Join(r.fl.calls, "; ")
}

func (r *pasteRig) key(k tcell.Key, c rune) { r.scr.InjectKey(k, c, tcell.ModNone) }

// typeText sends text as a terminal without bracketed paste does: each
// character a key, each line break an enter.
func (r *pasteRig) typeText(text string) {
	for _, c := range text {
		if c == '\n' {
			r.key(tcell.KeyEnter, 0)
		} else {
			r.key(tcell.KeyRune, c)
		}
	}
}

// post sends an event the simulation screen has no injector for.
func (r *pasteRig) post(ev tcell.Event) {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for r.scr.PostEvent(ev) != nil {
		if time.Now().After(deadline) {
			r.t.Fatal("the screen's event queue stays full")
		}
		time.Sleep(time.Millisecond)
	}
}

// paste sends text as a terminal with bracketed paste does: the same keys
// between a paste start and a paste end.
func (r *pasteRig) paste(text string) {
	r.post(tcell.NewEventPaste(true))
	r.typeText(text)
	r.post(tcell.NewEventPaste(false))
}

// joined waits for the one join by the whole code, and checks that no key
// of the paste acted on the lobby and that okey still runs.
func (r *pasteRig) joined() {
	r.t.Helper()
	r.wait("the join by the whole code", func(s string) bool { return strings.Contains(s, "joining by invite code: done") })
	if got, want := r.calls(), "code "+r.code; got != want {
		r.t.Fatalf("calls %q, want only %q", got, want)
	}
	s := r.wait("the lobby, no form open", func(string) bool { return true })
	if strings.Contains(s, "join     <") {
		r.t.Fatal("a key of the paste opened the create form")
	}
	r.key(tcell.KeyRune, 'q')
	select {
	case <-r.ran:
	case <-time.After(5 * time.Second):
		r.t.Fatal("q did not leave the lobby")
	}
}

// TestLobbyPasteWrappedCodeKeys: in a terminal without bracketed paste, the
// code as the lobby shows it (three lines) pasted into k arrives as its
// characters with an enter at each line break: each enter before the code
// is whole keeps the box open and reading (its hint says so), none of the
// code's characters acts on the lobby, and the whole code joins.
func TestLobbyPasteWrappedCodeKeys(t *testing.T) {
	r := newPasteRig(t)
	ls := r.lines()
	r.key(tcell.KeyRune, 'k')
	r.wait("the code box", func(s string) bool { return strings.Contains(s, "paste an invite code") })
	// The copy starts with a line break, and its first line is half a code.
	r.typeText("\n" + ls[0] + "\n")
	r.wait("the box still open after the first line", func(s string) bool {
		return strings.Contains(s, "not a whole code yet: paste or type the rest") && strings.Contains(s, ls[0]) &&
			strings.Contains(s, "not a whole invite code: the invite code's check does not match")
	})
	r.typeText(ls[1] + "\n" + ls[2] + "\n")
	r.joined()
}

// TestLobbyPasteWrappedCodeBracketed: in a terminal with bracketed paste
// (tcell delivers a paste start, the keys, a paste end), the wrapped code
// pasted into k fills the box whole, its line breaks are no enter, and
// enter joins; a code pasted in the lobby without k opens the box with it.
func TestLobbyPasteWrappedCodeBracketed(t *testing.T) {
	r := newPasteRig(t)
	ls := r.lines()
	r.key(tcell.KeyRune, 'k')
	r.wait("the code box", func(s string) bool { return strings.Contains(s, "paste an invite code") })
	r.paste(ls[0] + "\n" + ls[1] + "\n" + ls[2] + "\n")
	r.wait("the whole code in the box", func(s string) bool {
		return strings.Contains(s, "paste an invite code") && strings.Contains(s, ls[2]+"_")
	})
	if c := r.calls(); c != "" {
		t.Fatalf("the paste alone did %q", c)
	}
	r.key(tcell.KeyEnter, 0)
	r.joined()

	// Without k: the paste opens the box.
	r = newPasteRig(t)
	ls = r.lines()
	r.paste("  " + ls[0] + "\n  " + ls[1] + "\n  " + ls[2])
	r.wait("the box opened with the code", func(s string) bool {
		return strings.Contains(s, "paste an invite code") && strings.Contains(s, ls[2]+"_")
	})
	r.key(tcell.KeyEnter, 0)
	r.joined()
}
