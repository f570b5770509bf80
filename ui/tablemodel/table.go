package tablemodel

import (
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// MatchEnd is what the end-of-match screen shows besides the ranking: the
// transcript's verification and where it is saved.
type MatchEnd struct {
	Err        error // the match did not finish (a peer failed, a cheater was named)
	Transcript string
	Verified   bool
	Unfinished bool   // the transcript stops before the match's end: honest so far, no one named
	Verdict    string // one line: honest, unfinished, who cheated, or why the file does not hold
	Ranking    []engine.Standing
	Scores     []int
	// Note, when set, says first what happened to the player's match
	// (a tournament table that ended without the player).
	Note string
}

// Request is a pending request for the player's move in a game whose
// moves are A (engine.Action, engine.Action101): the move is sent on
// Reply once it holds on a copy of the engine state.
type Request[A any] struct {
	Reply chan A
}

// NewRequest is a request for one move of type A.
func NewRequest[A any]() *Request[A] { return &Request[A]{Reply: make(chan A, 1)} }

// Asked is a pending request of either game.
type Asked interface{ isRequest() }

func (*Request[A]) isRequest() {}

// Table is the model of one seat's table: the snapshot it shows, the move
// asked for, the message line (a move's outcome, a refusal, a hint), the
// tiles a hint marks, the turn timer, and the match's end. A front end
// keeps one Table, feeds it snapshots (Snap), requests (Ask) and the end
// (Final), asks it what the player may do now (Off, Offered), and hands
// the player's moves to it: every move is tried on a copy of the engine
// state before it is sent, and refused with the engine's reason.
type Table struct {
	// Snap is the snapshot shown (nil before the first).
	Snap *Snapshot
	// Final is the match's end, once it is over.
	Final *MatchEnd
	// Msg is the message line; MsgBad says it is a refusal. MsgKeep is a
	// part of Msg (" · " between parts) that a line too narrow for all of
	// them keeps, dropping the parts before it instead (the 101 hint's
	// discard after a long plan); "" when none.
	Msg     string
	MsgBad  bool
	MsgKeep string
	// Log is the table's log: what happened, a line a step (Events), and
	// the moves the program made for the player when its time ran out.
	Log []Line
	// Sent counts the moves sent.
	Sent int
	// Ends are the ends of hands waiting to be shown, the first shown
	// first (ends.go).
	Ends  []*HandEnd
	ended map[*HandEnd]*EndedTable
	// Hinted are the tiles the last hint marks.
	Hinted map[engine.Slot]bool
	// Now is the clock (tests set it).
	Now func() time.Time
	// Rack is the player's arrangement of its tiles (arrange.go).
	Rack *Rack
	// Sel is Okey 101's selection: the tiles selected on the rack, to lay
	// as melds or to add to a meld on the table.
	Sel map[engine.Slot]bool

	handKey int  // hand number + 1 the rack belongs to (0: none)
	laidOut bool // the hand's tiles have been laid out in face order
	// fresh holds the tiles that arrived on the rack during play, with when.
	fresh map[engine.Slot]time.Time

	// The rack arrangement kept in the match's directory (SetRackFile):
	// the file, the arrangement read from it (until its hand is laid out),
	// and what was last written.
	rackFile   string
	keptRack   *rackState
	keptHand   int
	keptPos    [RackSize]engine.Slot
	keepFailed bool

	req Asked // the move asked for (nil: none)

	// The turn timer (Ruleset.TurnSeconds): the turn being timed, when it
	// began, and for the player's own turn the time spent while asked for a
	// move (the table's own work between a draw and the discard is not
	// counted against the player).
	turnKey   string
	turnStart time.Time
	used      time.Duration
	reqAt     time.Time
}

// New is an empty table's model.
func New() *Table { return &Table{Now: time.Now, Rack: NewRack()} }

// logMax is how many lines the log keeps.
const logMax = 500

// AddLog appends lines to the log, keeping its last logMax lines.
func (m *Table) AddLog(lines []Line) {
	m.Log = append(m.Log, lines...)
	if len(m.Log) > logMax {
		m.Log = m.Log[len(m.Log)-logMax:]
	}
}

// Say sets the message line.
func (m *Table) Say(s string) { m.Msg, m.MsgBad, m.MsgKeep = s, false, "" }

// SayKeeping sets the message line to s, of which a narrow line keeps the
// part keep (MsgKeep).
func (m *Table) SayKeeping(s, keep string) { m.Msg, m.MsgBad, m.MsgKeep = s, false, keep }

// Refuse sets the message line to a refusal.
func (m *Table) Refuse(s string) { m.Msg, m.MsgBad, m.MsgKeep = s, true, "" }

// Ask makes r the move asked for (its hint is spent, its time starts).
func (m *Table) Ask(r Asked) {
	m.req = r
	m.Hinted = nil
	m.reqAt = m.Now()
}

// Cancel withdraws the pending request (the match stopped).
func (m *Table) Cancel() { m.req = nil }

// Asked reports whether a move is asked for.
func (m *Table) Asked() bool { return m.req != nil }

// Finish records the match's end: no move is asked for after it.
func (m *Table) Finish(e *MatchEnd) {
	m.Final = e
	m.req = nil
	m.Say("")
}

// MyMove reports whether the player is asked for a move.
func (m *Table) MyMove() bool { return m.req != nil && m.Final == nil }

// game is the game on the table, nil before any hand.
func (m *Table) game() game { return gameOf(m.Snap) }

// answer sends a, the move asked for, and reports whether a move of its
// kind was asked for.
func answer[A any](m *Table, a A) bool {
	r, ok := m.req.(*Request[A])
	if !ok {
		return false
	}
	r.Reply <- a
	m.req = nil
	return true
}

// turnOff says why the player may not move now although a hand is in
// play, in either game: it is not their turn, or their peer has not asked
// for the move yet ("" when it may).
func (m *Table) turnOff(turn int) string {
	if turn != m.Snap.Seat {
		return i18n.T("it is not your turn: %s plays", m.Snap.Name(turn))
	}
	if m.req == nil {
		return i18n.T("wait: the table is still working on the last move")
	}
	return ""
}

// moved is what follows a move handed to the peer, in either game: the
// turn's time is counted, the hint is spent, and done is said.
func (m *Table) moved(done string) {
	m.used += m.Now().Sub(m.reqAt)
	m.Hinted = nil
	m.Say(done)
}

// Send tries a classic move on a copy of the match and sends it when it
// holds (done is said); otherwise it refuses with the engine's reason.
func (m *Table) Send(a engine.Action, done string) bool {
	c := m.Snap.Match.Clone()
	if err := c.Apply(a); err != nil {
		m.Refuse(Refusal(classicGame, err))
		return false
	}
	answer(m, a)
	m.Sent++
	m.moved(done)
	return true
}

// Send101 tries an Okey 101 move on a copy of the match and sends it when
// it holds (done is said); otherwise it refuses with the engine's reason.
func (m *Table) Send101(a engine.Action101, done string) bool {
	c := m.Snap.Match101.Clone()
	if err := c.Apply(a); err != nil {
		m.Refuse(Refusal(game101, err))
		return false
	}
	answer(m, a)
	m.Sent++
	m.moved(done)
	return true
}

// TurnSeconds is the table's turn timer (0: none).
func (m *Table) TurnSeconds() int {
	if g := m.game(); g != nil {
		return g.turnSeconds(m.Snap)
	}
	return 0
}

// TimeTurn starts the turn timer when a new turn begins.
func (m *Table) TimeTurn() {
	key := ""
	if g := m.game(); g != nil {
		key = g.turnKey(m.Snap)
	}
	if key == "" {
		m.turnKey = ""
		return
	}
	if key != m.turnKey {
		m.turnKey, m.turnStart, m.used = key, m.Now(), 0
		if m.req != nil {
			m.reqAt = m.Now()
		}
	}
}

// TimeLeft returns the time left on the turn timer for the seat to move,
// and false when the table has no timer or no turn is being timed.
func (m *Table) TimeLeft() (time.Duration, bool) {
	secs := m.TurnSeconds()
	if secs == 0 || m.turnKey == "" || m.Final != nil {
		return 0, false
	}
	limit := time.Duration(secs) * time.Second
	if TurnOf(m.Snap) == m.Snap.Seat {
		used := m.used
		if m.req != nil {
			used += m.Now().Sub(m.reqAt)
		}
		return max(limit-used, 0), true
	}
	return max(limit-m.Now().Sub(m.turnStart), 0), true
}

// Face is the face of a tile of the player's rack (NoFace: not open to it).
func (m *Table) Face(s engine.Slot) engine.Face {
	if g := m.game(); g != nil {
		return g.face(m.Snap, s)
	}
	return engine.NoFace
}

// RackFaces is the seat's rack in either game and the hand's okey; ok is
// false before the tiles are in play.
func (m *Table) RackFaces() (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool) {
	if g := m.game(); g != nil {
		return g.rackFaces(m.Snap)
	}
	return nil, nil, engine.NoFace, false
}

// Drawn reports whether the player to move has taken its tile (drawn or
// taken a discard).
func (m *Table) Drawn() bool {
	if g := m.game(); g != nil {
		return g.drawn(m.Snap)
	}
	return false
}

// DiscardFace is the face of s, the tile to discard, when the player may
// throw it; otherwise it refuses with the reason and reports false.
func (m *Table) DiscardFace(s engine.Slot) (engine.Face, bool) {
	if s == engine.NoSlot {
		m.Refuse(i18n.T("put the cursor on the tile to discard"))
		return engine.NoFace, false
	}
	f := m.Face(s)
	if f == engine.NoFace {
		m.Refuse(i18n.T("that tile is not open to you yet"))
		return engine.NoFace, false
	}
	return f, true
}
