package tablemodel

import (
	"errors"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// ErrQuit is the error a move request ends with when the player left the
// table.
var ErrQuit = errors.New("ui: the player left the table")

// The games the table screen plays, by the name their part goes by.
const (
	// Classic is the classic family's name (every preset but Okey 101).
	Classic = "classic"
	// Okey101 is Okey 101's name.
	Okey101 = "101"
)

const (
	classicGame = Classic
	game101     = Okey101
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

// Refusal turns an engine refusal of a move in game into a short
// sentence: the game's rows, then the classic rows, then Explain.
func Refusal(game string, err error) string {
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

// packages whose name prefixes library errors ("table: not a transcript").
var errPrefixes = map[string]bool{"table": true, "engine": true, "deck": true, "crypto": true, "okey": true,
	"p2p": true, "bot": true, "ui": true, "lobby": true, "mentalpoker": true, "invite": true, "lan": true}

// Plain is an error's message for a player: without the package prefixes
// that library errors carry ("table: ", "engine: ") and without a part
// repeated right after itself; a refused ruleset text is said in the
// current language.
func Plain(err error) string {
	if err == nil {
		return ""
	}
	parts := strings.Split(err.Error(), ": ")
	out := parts[:0]
	for _, p := range parts {
		if errPrefixes[strings.TrimSpace(p)] {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == p {
			continue
		}
		out = append(out, p)
	}
	return plainRuleset(err, strings.Join(out, ": "))
}

// game is what differs between the games in the model, one implementation
// a game (classic.go, game101.go), as table.game is for the machine.
type game interface {
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

	// turnKey names the turn being played ("": none), for the timer.
	turnKey(s *Snapshot) string
	// turnSeconds is the rules' turn timer (0: none).
	turnSeconds(s *Snapshot) int
	// face is the face of a tile of the seat's rack (NoFace: not open to it).
	face(s *Snapshot, sl engine.Slot) engine.Face
	// rackFaces is the seat's rack and the okey; ok is false before the
	// tiles are in play.
	rackFaces(s *Snapshot) (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool)
	// drawn reports whether the player to move has taken its tile (drawn
	// or taken a discard).
	drawn(s *Snapshot) bool
	// moveOff says why the player may not move now ("" when it may).
	moveOff(m *Table) string
	// update follows m.Snap, a new snapshot of this game: the rack, the
	// turn timer, the selection.
	update(m *Table)
	// off and offered are Table.Off and Table.Offered in this game.
	off(m *Table, a Action) string
	offered(m *Table, a Action) bool
}

// games are the model's games, tried in order on a snapshot.
var games = []game{classic{}, okey101{}}

// gameOf is the game s plays, or nil before any hand.
func gameOf(s *Snapshot) game {
	if s == nil {
		return nil
	}
	for _, g := range games {
		if g.plays(s) {
			return g
		}
	}
	return nil
}

// Game is the name of the game s plays (Classic, Okey101), "" before any
// hand.
func Game(s *Snapshot) string {
	if g := gameOf(s); g != nil {
		return g.name()
	}
	return ""
}

// TurnOf is the seat whose turn it is in s (-1 outside play or before any
// hand).
func TurnOf(s *Snapshot) int {
	if g := gameOf(s); g != nil {
		return g.turnOf(s)
	}
	return -1
}

// HandNumber is the hand (round) s is in (0 before any hand).
func HandNumber(s *Snapshot) uint32 {
	if g := gameOf(s); g != nil {
		return g.handNumber(s)
	}
	return 0
}

// Ranking is the match's standings and scores in s (nil before any hand).
func Ranking(s *Snapshot) ([]engine.Standing, []int) {
	if g := gameOf(s); g != nil {
		return g.ranking(s)
	}
	return nil, nil
}
