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
//
// What the table means to the player is the model in package tablemodel,
// which has no tcell and no tview and which the web front end shares: the
// snapshot, the turn line, the rack and its arrangement, the actions a
// player may take now and why the others are off, the moves (each tried
// on a copy of the engine state before it is sent), the message line,
// hints, the log, the turn timer, hand-end and match-end figures. This
// package draws the model and maps keys and clicks to it: TableView holds
// one tablemodel.Table (its field m) and only what the terminal needs
// besides (the palette, the panels, the click regions, the key
// dispatcher).
//
// The table seats the other players as on a real table: the player before
// you on your left (its pile is the one you may take from), the one after
// you on your right, the other across. The player's own rack arrangement is
// local: it is kept in the match's directory (RackFile), never in the
// transcript, so that a resumed match shows the tiles where they were.
//
// One table screen serves every game: TableView keeps what the games share
// on screen (the palette, the panels, the click regions, the key
// dispatcher, the status bar and the help, keys.go), and what differs is a
// game's drawing and keys behind the gamePart interface (game.go), one
// implementation a game in its own files: the classic game in classic.go
// (its table's layout in layout.go), Okey 101 in table101.go,
// render101.go and replay101.go. A part declares its keys once, as
// bindings whose names the help and the status bar derive from the keys;
// engine refusals read as the sentences of one table keyed by game and
// error (tablemodel's refusals). A new game's part goes in its own files,
// is added to games (game.go), and gets its model in tablemodel (its
// game, its rows in refusals).
//
// Okey 101 uses the same screen: the melds on the table in the middle,
// each with a handle (1-9, A-Z) and its owner; tiles are selected on the
// rack and laid as melds, added to a meld by its handle or a click, or
// discarded; the selection's value toward an opening shows as it is made.
package ui
