package table

import "time"

// LobbyMember is a seated player as a lobby shows it.
type LobbyMember struct {
	ID, Name string
	Ready    bool
}

// LobbyTable is a table on the LAN as a lobby shows it (the terminal's
// and the web page's: netplay.LobbyService lists them).
type LobbyTable struct {
	ID      string
	Ruleset string // preset[:options]
	Seats   int
	Members []LobbyMember
	State   string // open, started, closed
	// Unfinished marks a match the player left before its end (Lobby.
	// Unfinished); Local ones are against bots on this computer, and their
	// ID is the match's directory (LocalMatch.Dir).
	Unfinished bool
	Local      bool
	Note       string // how the lobby describes an unfinished match
	// Started is when an unfinished match began (or was last played, where
	// only that is known): the lobby lists the newest first.
	Started time.Time
	// Private: the table admits by invite code only.
	Private bool
	// Hand is the hand a started table plays (from 1; 0: unknown), and
	// Scores the match scores after the hands before it, per seat.
	Hand   int
	Scores []int
	// Spectators is how many watch the table, at least (the creator's
	// count: shown as "N+ watching").
	Spectators int
}

// SeatLink is how this player's peer reaches another seat.
type SeatLink struct {
	Name string
	// Kind is "direct", "relayed" (through a relay), "via-member" (only
	// through another member's gossip) or "none" (the link dropped: the
	// peer is reconnecting).
	Kind string
	RTT  time.Duration // 0: not measured
}
