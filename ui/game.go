package ui

import (
	"github.com/gdamore/tcell/v2"
)

// gamePart is what differs between the games on the terminal's table
// screen, one implementation a game in its own files (classic.go and
// layout.go; table101.go, render101.go and replay101.go for Okey 101): how
// the game is drawn and which keys it binds. What the game means (its
// turn, moves, refusals, hints, log lines, hand ends) is its model in
// tablemodel, which a part reads through t.m. TableView keeps what both
// share on screen: the palette, the panels, the click regions, the key
// dispatcher, the status bar and the help. A part keeps only its game's
// own state of the screen (101's meld handles, for clicks).
type gamePart interface {
	// name is the game's name: its rows of refusals are keyed on it.
	name() string
	// plays reports whether s is a snapshot of this game.
	plays(s *Snapshot) bool
	// keys is the game's key table (declared once, not rebuilt); key
	// handles a key outside it (101's meld handles) and reports whether it
	// did.
	keys() []binding
	key(t *TableView, ev *tcell.EventKey) bool
	// help is the help panel's page: its title and the lines after the keys.
	help(t *TableView) helpPage

	// title is the header's part after the ruleset (the hand or round).
	title(t *TableView) string
	// turnText says whose move it is (the screen too small for the table).
	turnText(t *TableView) string
	// draw draws the table between the header and the message line and
	// returns the rack's row; drawHandEnd draws the end of a hand over it.
	draw(t *TableView, scr tcell.Screen, x, y, w, h int) (rackY int)
	drawHandEnd(t *TableView, scr tcell.Screen, x, y, w, h, rackY int)
	// drawReplay draws a replay's frame of this game.
	drawReplay(v *ReplayView, scr tcell.Screen, x, y, w, h int, f Frame)
}

// games make the part of each game, tried in order on a snapshot. A new
// game's part goes here and in its own files.
var games = []func() gamePart{
	func() gamePart { return &classicPart{} },
	func() gamePart { return &part101{} },
}

// gameOf returns a new part of the game s plays, or nil before any hand.
func gameOf(s *Snapshot) gamePart {
	if s == nil {
		return nil
	}
	for _, g := range games {
		if p := g(); p.plays(s) {
			return p
		}
	}
	return nil
}

// frameGame is the part of the game a replay's frame is of.
func frameGame(f Frame) gamePart { return gameOf(&Snapshot{Match: f.Match, Match101: f.Match101}) }

// noGame is the part drawn before any hand: the classic table, empty.
var noGame gamePart = &classicPart{}
