// Package ui is okey's terminal front end, built on tview: the table screen
// (a rack of two rows like a wooden istaka, tiles drawn as tiles, the
// indicator, the stock, the discard piles as the rules let the player see
// them, scores, a log, hints, progress while the table shuffles and proves),
// the replay of a transcript, and the lobby.
//
// The UI never decides a rule: it shows snapshots of the engine state taken
// by the seat's peer, and every move is tried on a copy of the engine state
// before it is sent, refused with the engine's reason when it does not hold.
// It imports table and engine, never p2p.
package ui
