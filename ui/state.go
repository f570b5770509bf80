package ui

import (
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The table's model (the snapshot of the seat's view, its log lines, the
// end of a hand) lives in tablemodel, shared with the web front end; these
// are its names in ui, which cmd/okey and the tests use.

// Snapshot is what the table screen shows (tablemodel.Snapshot).
type Snapshot = tablemodel.Snapshot

// Span is a piece of a log line (tablemodel.Span).
type Span = tablemodel.Span

// Line is one log line (tablemodel.Line).
type Line = tablemodel.Line

// HandEnd is what the end-of-hand screen shows (tablemodel.HandEnd).
type HandEnd = tablemodel.HandEnd

// End101 is what the end of an Okey 101 round shows (tablemodel.End101).
type End101 = tablemodel.End101

// Rack is where the player's tiles stand on its rack (tablemodel.Rack).
type Rack = tablemodel.Rack

// NewRack returns an empty rack.
func NewRack() *Rack { return tablemodel.NewRack() }

// The rack's rows and positions (tablemodel).
const (
	RackRows = tablemodel.RackRows
	RackCols = tablemodel.RackCols
	RackSize = tablemodel.RackSize
)

// RackFile is the rack arrangement's file in a match's directory.
const RackFile = tablemodel.RackFile

func faceKey(f engine.Face) int { return tablemodel.FaceKey(f) }

// TakeSnapshot copies what the UI needs from a machine and a view
// (tablemodel.TakeSnapshot).
func TakeSnapshot(m *table.Machine, v *engine.View, seat int) *Snapshot {
	return tablemodel.TakeSnapshot(m, v, seat)
}

// Events compares two consecutive snapshots and tells what happened
// (tablemodel.Events).
func Events(prev, cur *Snapshot) ([]Line, *HandEnd) { return tablemodel.Events(prev, cur) }

// Progress says who is working on what while the table runs its protocol
// (tablemodel.Progress).
func Progress(s *Snapshot) string { return tablemodel.Progress(s) }

func txt(s string) Span       { return tablemodel.Text(s) }
func tile(f engine.Face) Span { return tablemodel.Tile(f) }

func groupSpans(tiles, as []engine.Face, okey engine.Face) Line {
	return tablemodel.GroupSpans(tiles, as, okey)
}

func meldTile(g *engine.Game101, m engine.Meld, k int, s engine.Slot) Span {
	return tablemodel.MeldTile(g, m, k, s)
}

func handleOf(i int) rune { return tablemodel.HandleOf(i) }

func meldOfHandle(r rune) int { return tablemodel.MeldOfHandle(r) }

// The games' names, as the refusals are keyed on them.
const (
	classicGame = tablemodel.Classic
	game101     = tablemodel.Okey101
)

func refusalIn(game string, err error) string { return tablemodel.Refusal(game, err) }

// Explain is an error's message for a player in the interface's language
// (tablemodel.Explain).
func Explain(err error) string { return tablemodel.Explain(err) }

// ErrQuit is the error a move request ends with when the player left the
// table.
var ErrQuit = tablemodel.ErrQuit
