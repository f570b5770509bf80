package ui

import (
	"errors"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// The games the table screen plays, by the name their part goes by.
const (
	classicGame = "classic"
	game101     = "101"
)

// refusal is the sentence an error reads as in one game ("" for any game
// and for errors outside a move): key is its message id (the Turkish
// catalogue is keyed on it); with detail the sentence takes the engine
// error's detail (engine.DetailOf) as its %s.
type refusal struct {
	game   string
	err    error
	key    string
	detail bool
}

// refusals is the one table from errors to sentences, keyed by game and
// error: a move's refusal is looked up in its game's rows, then the
// classic rows, then as Explain says it. The same error may read
// differently in each game (ErrMustDraw names the bank in 101). Rows are
// tried in order with errors.Is.
var refusals = []refusal{
	{"", ErrQuit, i18n.Mark("the player left the table"), false},

	{classicGame, engine.ErrTurn, i18n.Mark("it is not your turn"), false},
	{classicGame, engine.ErrMustDraw, i18n.Mark("draw from the stock (d) or take the discard (t) first"), false},
	{classicGame, engine.ErrDrawn, i18n.Mark("you have drawn already: discard a tile (x)"), false},
	{classicGame, engine.ErrEmptyStock, i18n.Mark("the stock is empty"), false},
	{classicGame, engine.ErrStockLeft, i18n.Mark("the stock is not empty: draw (d)"), false},
	{classicGame, engine.ErrNoDiscard, i18n.Mark("there is no discard to take"), false},
	{classicGame, engine.ErrShow, i18n.Mark("gösterme only before your first draw, once a hand"), false},
	{classicGame, engine.ErrNotWinning, i18n.Mark("that is not a winning hand"), false},
	{classicGame, engine.ErrNotHeld, i18n.Mark("that tile is not on your rack"), false},
	{classicGame, engine.ErrPhase, i18n.Mark("not now"), false},

	{"", engine.ErrBadTile, i18n.Mark("not a tile"), false},
	{"", engine.ErrTooManyCopies, i18n.Mark("more than two copies of a tile"), false},
	{"", table.ErrNotTranscript, i18n.Mark("not an okey transcript"), false},
	{"", table.ErrSignature, i18n.Mark("a signature does not verify (damaged, forged, or from another match)"), false},
	{"", table.ErrMalformed, i18n.Mark("a damaged message"), false},
	{"", table.ErrFinished, i18n.Mark("the match is over"), false},
	{"", table.ErrClosed, i18n.Mark("the connection is closed"), false},
	{"", table.ErrSeedLost, i18n.Mark("the saved hand seed is lost or damaged: this seat cannot go on in this hand"), false},

	{game101, engine.ErrMustDraw, i18n.Mark("take a tile first: d draws from the bank, t takes the previous discard"), false},
	{game101, engine.ErrDrawn, i18n.Mark("you have taken a tile already"), false},
	{game101, engine.ErrNoDiscard, i18n.Mark("there is no discard to take or give back"), false},
	{game101, engine.ErrNotOpened, i18n.Mark("you have not opened: open first (101 points or five doubles) before adding to melds"), false},
	{game101, engine.ErrOpening, i18n.Mark("that does not open: an opening needs 101 points in sets and runs, or five doubles"), false},
	{game101, engine.ErrMustUse, i18n.Mark("the discard you took must be used this turn: lay or add it, or give it back (b)"), false},
	{game101, engine.ErrKeepTile, i18n.Mark("keep one tile on your rack: a turn ends with a discard"), false},
	{game101, engine.ErrSwap, i18n.Mark("that okey cannot be swapped"), false},
	{game101, engine.ErrMeld, i18n.Mark("not a valid meld: %s"), true},
	{game101, engine.ErrNotHeld, i18n.Mark("that tile is not on your rack"), false},
	{game101, engine.ErrDealerFirst, i18n.Mark("the dealer starts by discarding (x)"), false},
}

// sentence is r's sentence for err.
func (r refusal) sentence(err error) string {
	if !r.detail {
		return i18n.TKey(r.key)
	}
	d, ok := engine.DetailOf(err, r.err)
	if !ok {
		d = Plain(err)
	}
	return i18n.TKeyArgs(r.key, []any{d})
}

// refusalIn turns an engine refusal of a move in game into a short
// sentence: the game's rows, then the classic rows, then Explain.
func refusalIn(game string, err error) string {
	for _, g := range []string{game, classicGame} {
		for _, r := range refusals {
			if r.game == g && errors.Is(err, r.err) {
				return r.sentence(err)
			}
		}
		if g == classicGame {
			break
		}
	}
	return Explain(err)
}

// Explain is an error's message for a player in the interface's language:
// the library's sentinel errors by type (the refusals of no game and of
// the classic game), anything else as Plain writes it. English shows the
// error's own words.
func Explain(err error) string {
	if err == nil {
		return ""
	}
	if i18n.Current() == i18n.English {
		return Plain(err)
	}
	for _, r := range refusals {
		if (r.game == "" || r.game == classicGame) && errors.Is(err, r.err) {
			return r.sentence(err)
		}
	}
	return Plain(err)
}

// gamePart is what differs between the games at the table screen, one
// implementation a game in its own files (classic.go; table101.go,
// render101.go, events101.go and replay101.go for Okey 101), as table.game
// is for the machine. TableView keeps what both share: the palette, the
// rack and its cursor, the log, the message line, the panels, the turn
// timer, the click regions, the kept rack, the key dispatcher, the status
// bar and the help. A part keeps its game's own state of the screen (101's
// selection); the methods that take no TableView read only the snapshot.
type gamePart interface {
	// name is the game's name: its rows of refusals are keyed on it.
	name() string
	// plays reports whether s is a snapshot of this game.
	plays(s *Snapshot) bool
	// events tells what happened between two snapshots of this game: log
	// lines, and the end of a hand (round).
	events(prev, cur *Snapshot) ([]Line, *HandEnd)
	// turnOf is the seat whose turn it is in s (-1 outside play); its
	// drawn tile is the one being opened while the table shares keys.
	turnOf(s *Snapshot) int
	// handNumber is the hand (round) s is in.
	handNumber(s *Snapshot) uint32
	// ranking is the match's standings and scores.
	ranking(s *Snapshot) ([]engine.Standing, []int)

	// update follows t.snap, a new snapshot of this game: the rack and the
	// turn timer.
	update(t *TableView)
	// turnKey names the turn being played ("": none), for the timer.
	turnKey(t *TableView) string
	turnSeconds(t *TableView) int
	face(t *TableView, sl engine.Slot) engine.Face
	// rackFaces is the seat's rack and the okey; ok is false before the
	// tiles are in play.
	rackFaces(t *TableView) (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool)
	// moveOff says why the player may not move now ("" when it may).
	moveOff(t *TableView) string
	// drawn reports whether the player to move has taken its tile (drawn
	// or taken a discard).
	drawn(t *TableView) bool
	// tick moves for the player when its time ran out.
	tick(t *TableView)
	hint(t *TableView)
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

// game is the part of the game a replay's frame is of.
func (f Frame) game() gamePart { return gameOf(&Snapshot{Match: f.Match, Match101: f.Match101}) }

// noGame is the part drawn before any hand: the classic table, empty.
var noGame gamePart = &classicPart{}
