package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// relayLineLobby is an inviteLobby that takes one relay line.
type relayLineLobby struct {
	inviteLobby
	line string // the one text CheckRelayLine takes for a whole relay line
}

func (f *relayLineLobby) CheckRelayLine(line string) error {
	if line != f.line {
		return errors.New("the relay line is cut: copy it again, whole")
	}
	return nil
}

func (f *relayLineLobby) AddRelay(_ context.Context, line string) error {
	f.call("relay " + line)
	return nil
}

// newRelayLineRig is pasteRig over a lobby that takes a relay line: a line
// of 150 characters (two lines in the lobby at 80 columns) made of lobby
// keys (c j k q r t v w x y).
func newRelayLineRig(t *testing.T) (*pasteRig, string) {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	line := "/ip4/11.77.0.2/tcp/4001/p2p/12D3KooWqcjrtvwxky" + strings.Repeat("qcjrtvwxky", 4) + "/okey-key/" + strings.Repeat("0a", 25)
	fl := &relayLineLobby{inviteLobby: inviteLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t9", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "p2", Name: "mehmet"}}},
	}}}, line: line}
	g.ShowLobby(fl, func(LobbyTable) {})
	r := &pasteRig{t: t, g: g, scr: scr, fl: &fl.inviteLobby, ran: make(chan error, 1)}
	go func() { r.ran <- g.Run() }()
	r.wait("the lobby", func(s string) bool { return strings.Contains(s, "t9") })
	return r, line
}

// usedRelay waits for the one AddRelay with the whole line, checks that no
// key of the paste acted on the lobby, and that q still leaves it.
func (r *pasteRig) usedRelay(line string) {
	r.t.Helper()
	r.wait("the relay in use", func(s string) bool { return strings.Contains(s, "using the relay: done") })
	if got, want := r.calls(), "relay "+line; got != want {
		r.t.Fatalf("calls %q, want only %q", got, want)
	}
	r.key(tcell.KeyRune, 'q')
	select {
	case <-r.ran:
	case <-time.After(5 * time.Second):
		r.t.Fatal("q did not leave the lobby")
	}
}

// TestLobbyRelayLine: y opens a box for the line okey relay prints (the
// help lists it); pasted wrapped in a terminal without bracketed paste,
// an enter before the line is whole keeps the box open and says why, none
// of its characters acts on the lobby, and the whole line is used (as
// --relay LINE); with bracketed paste, a relay line pasted in the lobby
// without y opens the box with it.
func TestLobbyRelayLine(t *testing.T) {
	r, line := newRelayLineRig(t)
	r.key(tcell.KeyRune, '?')
	r.wait("the help with y", func(s string) bool {
		return strings.Contains(s, "y") && strings.Contains(s, "use a relay: paste the line okey relay prints")
	})
	r.key(tcell.KeyEscape, 0) // closes the help
	r.key(tcell.KeyRune, 'y')
	r.wait("the relay line box", func(s string) bool {
		return strings.Contains(s, "paste the line okey relay prints, then enter")
	})
	ls := wrapCode(line, 76)
	if len(ls) != 2 {
		t.Fatalf("the line takes %d lines", len(ls))
	}
	r.typeText(ls[0] + "\n")
	r.wait("the box still open after the first line", func(s string) bool {
		return strings.Contains(s, "paste the line okey relay prints") && strings.Contains(s, ls[0]) &&
			strings.Contains(s, "not a whole relay line: the relay line is cut")
	})
	r.typeText(ls[1] + "\n")
	r.usedRelay(line)

	// Bracketed, without y: the paste opens the box; enter uses it.
	r, line = newRelayLineRig(t)
	ls = wrapCode(line, 76)
	r.paste("  " + ls[0] + "\n  " + ls[1] + "\n")
	r.wait("the box opened with the line", func(s string) bool {
		return strings.Contains(s, "paste the line okey relay prints") && strings.Contains(s, ls[1]+"_")
	})
	if c := r.calls(); c != "" {
		t.Fatalf("the paste alone did %q", c)
	}
	r.key(tcell.KeyEnter, 0)
	r.usedRelay(line)
}
