package ui

import (
	"context"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// RelayLineLobby is what a Lobby offers to use a relay given while okey
// runs (optional: the lobby offers y only when its Lobby has it).
type RelayLineLobby interface {
	// CheckRelayLine tells whether line, as pasted (white space dropped),
	// is a relay line (okey relay prints it); its error says what is
	// wrong. It does not talk to other peers (the UI goroutine calls it).
	CheckRelayLine(line string) error
	// AddRelay uses the relay of line from now on, as okey play --relay
	// LINE does from the start: the player's open private tables register
	// there and their codes go through it; it is kept for the next start.
	AddRelay(ctx context.Context, line string) error
}

// relayLineKey edits the relay line box (y): typed or pasted characters
// (white space and line breaks dropped: a line copied wrapped still reads),
// backspace, ctrl-u, enter to use it, esc to cancel. As in the code box,
// every key is the box's while it is open, and an enter uses the line only
// once it is a whole relay line (an enter before that is a line break of
// a paste in a terminal without bracketed paste).
func (l *LobbyView) relayLineKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyEscape:
		l.relayLine = nil
	case tcell.KeyEnter, tcell.KeyLF:
		text := *l.relayLine
		if text == "" {
			return
		}
		rl := l.b.(RelayLineLobby)
		if err := rl.CheckRelayLine(text); err != nil {
			l.msg, l.bad = i18n.T("not a whole relay line: %s", Explain(err)), true
			return
		}
		l.relayLine = nil
		l.do(i18n.T("using the relay"), func(ctx context.Context) error { return rl.AddRelay(ctx, text) })
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if n := len(*l.relayLine); n > 0 {
			*l.relayLine = (*l.relayLine)[:n-1]
		}
	case tcell.KeyCtrlU:
		*l.relayLine = ""
	case tcell.KeyRune:
		l.addRelayText(string(ev.Rune()))
	}
}

// addRelayText adds text to the relay line box: its printable ASCII
// characters, white space and line breaks dropped.
func (l *LobbyView) addRelayText(text string) {
	for _, r := range text {
		if r > ' ' && r < 0x7f && len(*l.relayLine) < maxCodeInput {
			*l.relayLine += string(r)
		}
	}
	if l.bad {
		l.msg, l.bad = "", false
	}
}

// openRelayLine opens the relay line box (y) when the Lobby can use a
// relay; it reports whether it did.
func (l *LobbyView) openRelayLine() bool {
	if _, ok := l.b.(RelayLineLobby); !ok {
		return false
	}
	empty := ""
	l.relayLine = &empty
	return true
}

// looksLikeRelayLine tells a pasted relay line from an invite code: a
// relay line is a multiaddr (it starts with /), a code starts with okey.
func looksLikeRelayLine(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "/")
}

// relayLineBlock is the relay line box as the lobby shows it above its
// message line (nothing while it is closed).
func (l *LobbyView) relayLineBlock(width int) (string, []string) {
	if l.relayLine == nil {
		return "", nil
	}
	return i18n.T("paste the line okey relay prints, then enter (esc cancels, ctrl-u clears):"), wrapCode(*l.relayLine+"_", width)
}
