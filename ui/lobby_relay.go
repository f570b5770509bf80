package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/internal/i18n"
)

// RelayLobby is what a Lobby offers to say which relays refused the
// player's own tables (optional: without it the lobby says nothing of
// relays).
type RelayLobby interface {
	// RefusingRelays are the relays (a short name each) that refused table,
	// one the player created: its invite code does not go through them.
	// It does not talk to other peers (the UI goroutine calls it).
	RefusingRelays(table string) []string
}

// refusingRelays are the relays that refused table (none without a
// RelayLobby).
func (l *LobbyView) refusingRelays(table string) []string {
	if rl, ok := l.b.(RelayLobby); ok {
		return rl.RefusingRelays(table)
	}
	return nil
}

// relayRefusedText is the one sentence that tells the player relays
// refused its table, and what to do.
func relayRefusedText(relays []string) string {
	return i18n.T("relay %s refused your table, so its invite code does not go through it (friends behind a strict router cannot join): ask the relay's operator for the line okey relay prints and restart okey play with --relay LINE.", strings.Join(relays, ", "))
}

// withRelayState adds to a table's state (tableState) the relays its code
// does not go through.
func (l *LobbyView) withRelayState(t LobbyTable, state string) string {
	relays := l.refusingRelays(t.ID)
	if len(relays) == 0 {
		return state
	}
	note := i18n.T("code not through relay %s", strings.Join(relays, ", "))
	if state == "" {
		return " [" + note + "]"
	}
	return strings.TrimSuffix(state, "]") + "; " + note + "]"
}

// relayRefusedLines is the refusal of the selected table's relays, cut at
// spaces to width, for the code box (none when no relay refused it).
func (l *LobbyView) relayRefusedLines(table string, width int) []string {
	relays := l.refusingRelays(table)
	if len(relays) == 0 {
		return nil
	}
	return wrap2(relayRefusedText(relays), max(width, 10))
}

// drawNoAddress says, from row y, that no address of the player is
// reachable (the Lobby's Self gives none: a loopback, LAN or NAT-chosen
// address is never shown) and what to do instead. It returns the rows it
// took beyond the first.
func drawNoAddress(scr tcell.Screen, x, y, w int, st tcell.Style) int {
	lines := wrap2(i18n.T("no address reaches you with --peer: send an invite code, or use --relay LINE"), max(w, 10))
	for i, ln := range lines {
		put(scr, x, y+i, w, ln, st)
	}
	return len(lines) - 1
}
