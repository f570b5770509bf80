package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// overlay is a panel drawn over the table.
type overlay uint8

const (
	noOverlay overlay = iota
	helpOverlay
	quitOverlay
	handOverlay
	matchOverlay
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
}

// moveReq is a pending request for the player's move.
type moveReq struct {
	reply chan engine.Action
}

// region is a clickable area of the last drawn frame.
type region struct {
	x, y, w, h int
	click      func(t *TableView, double bool)
}

// TableView is the table screen: a tview primitive that draws a Snapshot,
// keeps the player's rack arrangement, and turns keys and clicks into
// moves. It never decides a rule: every move is tried on a copy of the
// engine state before it is sent, and refused with the engine's reason.
type TableView struct {
	*tview.Box
	pal       Palette
	palFixed  bool
	snap      *Snapshot
	rack      *Rack
	handKey   int  // hand number + 1 the rack belongs to (0: none)
	laidOut   bool // the hand's tiles have been laid out in face order
	log       []Line
	msg       string
	msgBad    bool
	hint      map[engine.Slot]bool
	req       *moveReq
	t101      table101 // Okey 101's part of the screen (table101.go)
	ends      []*HandEnd
	final     *MatchEnd
	overlay   overlay
	quit      func() // called when the player confirms leaving
	regions   []region
	now       func() time.Time
	away      []string // players whose peers are not connected
	links     []SeatLink
	leaveNote string // how to resume after leaving (the quit question)

	// The turn timer (Ruleset.TurnSeconds): the turn being timed, when it
	// began, and for the player's own turn the time spent while asked for a
	// move (the table's own work between a draw and the discard is not
	// counted against the player).
	turnKey   string
	turnStart time.Time
	used      time.Duration
	reqAt     time.Time
	// fresh holds the tiles that just arrived on the rack, with when.
	fresh     map[engine.Slot]time.Time
	lastClick struct {
		x, y int
		at   time.Time
	}
	lastFrame struct{ w, h int }

	// The rack arrangement kept in the match's directory (SetRackFile):
	// the file, the arrangement read from it (until its hand is laid out),
	// and what was last written.
	rackFile   string
	keptRack   *rackState
	keptHand   int
	keptPos    [RackSize]engine.Slot
	keepFailed bool
}

// NewTableView returns an empty table screen. quit is called when the player
// leaves (after confirming, during a match).
func NewTableView(quit func()) *TableView {
	t := &TableView{Box: tview.NewBox(), rack: NewRack(), quit: quit, now: time.Now, pal: Palette256}
	return t
}

// SetPalette fixes the palette (the default follows the screen's colours).
func (t *TableView) SetPalette(p Palette) { t.pal, t.palFixed = p, true }

// Rack returns the player's rack arrangement.
func (t *TableView) Rack() *Rack { return t.rack }

// Message returns the message line's text.
func (t *TableView) Message() string { return t.msg }

// Update shows a new snapshot, with the log lines and the hand end that led
// to it. Call it from the UI goroutine.
func (t *TableView) Update(s *Snapshot, lines []Line, ends []*HandEnd) {
	defer t.keepRack()
	t.log = append(t.log, lines...)
	if len(t.log) > 500 {
		t.log = t.log[len(t.log)-500:]
	}
	for _, e := range ends {
		if s != nil && e.Hand+1 < s.Hand {
			// Hands long over: a resumed match replaying its steps.
			continue
		}
		t.ends = append(t.ends, e)
		if t.overlay == noOverlay {
			t.overlay = handOverlay
		}
	}
	if s == nil {
		return
	}
	t.snap = s
	if s.Match101 != nil {
		t.update101()
		return
	}
	h := s.HandState()
	if h == nil || h.Phase() < engine.PhasePlay {
		return
	}
	if t.handKey != int(s.Hand)+1 {
		t.rack.Clear()
		t.handKey = int(s.Hand) + 1
		t.hint = nil
		t.laidOut = false
		// The last hand's message (a refusal, a hint) does not carry over.
		t.msg, t.msgBad = "", false
	}
	t.syncRack(s.View.Rack(h))
	t.timeTurn()
}

// syncRack brings the rack up to the seat's tiles. Once the dealt tiles are
// all open they are laid out in face order, or where the player had them
// before leaving the match; a tile that arrives during play then flashes
// for a moment.
func (t *TableView) syncRack(slots []engine.Slot, faces []engine.Face) {
	if !t.laidOut && !slices.Contains(faces, engine.NoFace) {
		t.rack.Clear()
		t.laidOut = true
		t.fresh = nil
		t.restoreRack(slots)
	} else if t.laidOut {
		before := t.rack.Tiles()
		for _, sl := range slots {
			if !slices.Contains(before, sl) {
				if t.fresh == nil {
					t.fresh = map[engine.Slot]time.Time{}
				}
				t.fresh[sl] = t.now()
			}
		}
	}
	t.rack.Sync(slots, faces)
}

// freshFor is how long a tile that arrived on the rack is marked.
const freshFor = 3 * time.Second

// isFresh reports whether a tile arrived on the rack a moment ago.
func (t *TableView) isFresh(sl engine.Slot) bool {
	at, ok := t.fresh[sl]
	return ok && t.now().Sub(at) < freshFor
}

// turnSeconds returns the table's turn timer (0: none).
func (t *TableView) turnSeconds() int {
	if t.is101() {
		return t.snap.Match101.Rules().TurnSeconds
	}
	if t.snap == nil || t.snap.Match == nil {
		return 0
	}
	return t.snap.Match.Rules().TurnSeconds
}

// timeTurn starts the turn timer when a new turn begins.
func (t *TableView) timeTurn() {
	h := t.snap.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		t.turnKey = ""
		return
	}
	seat, _ := h.Turn()
	key := fmt.Sprintf("%d/%d/%d", t.snap.Hand, h.Turns(), seat)
	if key != t.turnKey {
		t.turnKey, t.turnStart, t.used = key, t.now(), 0
		if t.req != nil {
			t.reqAt = t.now()
		}
	}
}

// TimeLeft returns the time left on the turn timer for the seat to move,
// and false when the table has no timer or no turn is being timed.
func (t *TableView) TimeLeft() (time.Duration, bool) {
	secs := t.turnSeconds()
	if secs == 0 || t.turnKey == "" || t.final != nil {
		return 0, false
	}
	limit := time.Duration(secs) * time.Second
	if t.turnSeat() == t.snap.Seat {
		used := t.used
		if t.req != nil || t.t101.req != nil {
			used += t.now().Sub(t.reqAt)
		}
		return max(limit-used, 0), true
	}
	return max(limit-t.now().Sub(t.turnStart), 0), true
}

// Tick moves for the player when the time of its turn ran out: it draws
// from the stock if it has not drawn, then discards the tile the hint
// recommends (declares the win the hint sees), or the tile it drew. The
// Game calls it every second, and when a move is asked for.
func (t *TableView) Tick() {
	if t.is101() {
		t.tick101()
		return
	}
	if !t.myMove() {
		return
	}
	if left, ok := t.TimeLeft(); !ok || left > 0 {
		return
	}
	t.autoMove()
}

func (t *TableView) autoMove() {
	h := t.snap.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		return
	}
	if t.overlay == quitOverlay || t.overlay == helpOverlay {
		t.overlay = noOverlay
	}
	t.rack.Lifted = -1
	if !t.drawn() {
		t.log = append(t.log, Line{txt(i18n.T("time is up: the program draws from the stock for you"))})
		t.draw()
		if t.req == nil {
			t.say(i18n.T("time is up: the program drew for you"))
		}
		return
	}
	slots, faces := t.snap.View.Rack(h)
	pick := engine.NoSlot
	win := false
	if !slices.Contains(faces, engine.NoFace) {
		// The hint's move: the expert's discard or win.
		v := t.snap.View
		if adv, err := bot.NewExpert(0).Advise(h, &v); err == nil && len(adv.Choices) > 0 {
			switch c := adv.Choices[0]; c.Kind {
			case engine.ActWin:
				if c.Slot == engine.NoSlot { // seven pairs, no final discard
					t.log = append(t.log, Line{txt(i18n.T("time is up: the program declares your win"))})
					t.send(adv.Action, i18n.T("time is up: the program declared your seven pairs"))
					return
				}
				pick, win = c.Slot, true
			case engine.ActDiscard:
				pick = c.Slot
				// Of equal tiles, the one just drawn.
				for _, sl := range slots {
					if t.isFresh(sl) && t.face(sl) == c.Face {
						pick = sl
					}
				}
			}
		}
	}
	if pick == engine.NoSlot {
		// No analysis (a tile still closed): the newest open tile.
		var at time.Time
		for i, sl := range slots {
			if faces[i] != engine.NoFace && (pick == engine.NoSlot || t.fresh[sl].After(at)) {
				pick, at = sl, t.fresh[sl]
			}
		}
	}
	if pick == engine.NoSlot {
		return
	}
	if win {
		if a, ok := t.snap.View.WinAction(h, pick); ok {
			t.log = append(t.log, Line{txt(i18n.T("time is up: the program declares your win"))})
			t.send(a, i18n.T("time is up: the program declared your win, finishing with the %s", t.face(pick)))
			return
		}
	}
	f := t.face(pick)
	t.log = append(t.log, Line{txt(i18n.T("time is up: the program discards ")), tile(f), txt(i18n.T(" for you"))})
	t.send(engine.Action{Kind: engine.ActDiscard, Seat: t.snap.Seat, Slot: pick,
		Faces: []engine.SlotFace{{Slot: pick, Face: f}}}, i18n.T("time is up: the program discarded the %s for you", f))
}

// Request asks the player for a move; the move is sent on reply.
func (t *TableView) Request(r *moveReq) {
	t.req = r
	t.hint = nil
	t.reqAt = t.now()
	t.Tick()
}

// Cancel withdraws a pending request (the match stopped).
func (t *TableView) Cancel() { t.req, t.t101.req = nil, nil }

// Finish shows the end of the match.
func (t *TableView) Finish(m *MatchEnd) {
	t.final = m
	t.req, t.t101.req = nil, nil
	t.msg, t.msgBad = "", false
	// The last hand's end shows first: closing it opens the match's.
	if t.overlay != helpOverlay && t.overlay != handOverlay {
		t.overlay = matchOverlay
	}
}

func (t *TableView) say(s string)    { t.msg, t.msgBad = s, false }
func (t *TableView) refuse(s string) { t.msg, t.msgBad = s, true }

// inMatch reports whether leaving now would abandon a match.
func (t *TableView) inMatch() bool { return t.final == nil }

// --- moves -----------------------------------------------------------------

// myHand returns the hand when the player is asked for a move; otherwise it
// refuses with the reason and returns nil.
func (t *TableView) myHand() *engine.Hand {
	s := t.snap
	h := s.HandState()
	switch {
	case h == nil || h.Phase() != engine.PhasePlay:
		t.refuse(i18n.T("no hand is being played"))
		return nil
	case t.final != nil:
		t.refuse(i18n.T("the match is over"))
		return nil
	}
	if seat, _ := h.Turn(); !t.mayMove(seat, t.req != nil) {
		return nil
	}
	return h
}

// mayMove reports whether the player may move now, in either game: it is
// their turn and their peer has asked for the move. Otherwise it refuses
// with the reason.
func (t *TableView) mayMove(turn int, asked bool) bool {
	if turn != t.snap.Seat {
		t.refuse(i18n.T("it is not your turn: %s plays", t.snap.Name(turn)))
		return false
	}
	if !asked {
		t.refuse(i18n.T("wait: the table is still working on the last move"))
		return false
	}
	return true
}

// moved is what follows a move handed to the peer, in either game: the
// turn's time is counted, the hint is spent, and done is said.
func (t *TableView) moved(done string) {
	t.used += t.now().Sub(t.reqAt)
	t.hint = nil
	t.say(done)
}

// send tries a on a copy of the engine state and sends it when it holds.
func (t *TableView) send(a engine.Action, done string) bool {
	c := t.snap.Match.Clone()
	if err := c.Apply(a); err != nil {
		t.refuse(refusalIn(classicGame, err))
		return false
	}
	t.req.reply <- a
	t.req = nil
	t.moved(done)
	return true
}

func (t *TableView) face(s engine.Slot) engine.Face {
	if t.snap.Match101 != nil {
		return t.snap.View.Face(t.snap.Match101.Game(), s)
	}
	return t.snap.View.Face(t.snap.HandState(), s)
}

// target is the tile a discard or a win is about: the lifted tile, or the
// one under the cursor.
func (t *TableView) target() engine.Slot {
	if t.rack.Lifted >= 0 {
		return t.rack.At(t.rack.Lifted)
	}
	return t.rack.At(t.rack.Cursor)
}

func (t *TableView) draw() {
	h := t.myHand()
	if h == nil {
		return
	}
	if h.StockLen() == 0 {
		t.send(engine.Action{Kind: engine.ActExhaust, Seat: t.snap.Seat, Slot: engine.NoSlot},
			"the stock is empty: the hand ends")
		return
	}
	t.send(engine.Action{Kind: engine.ActDraw, Seat: t.snap.Seat, Slot: engine.NoSlot}, i18n.T("you draw from the stock"))
}

func (t *TableView) take() {
	h := t.myHand()
	if h == nil {
		return
	}
	f := engine.NoFace
	if from := h.LastDiscard(); from >= 0 {
		if p := h.Pile(from); len(p) > 0 {
			f = h.PublicFace(p[len(p)-1])
		}
	}
	t.send(engine.Action{Kind: engine.ActTake, Seat: t.snap.Seat, Slot: engine.NoSlot}, i18n.T("you take the %s", f))
}

// discardFace is the face of s, the tile to discard, when the player may
// throw it; otherwise it says why not and reports false (both games).
func (t *TableView) discardFace(s engine.Slot) (engine.Face, bool) {
	if s == engine.NoSlot {
		t.refuse(i18n.T("put the cursor on the tile to discard"))
		return engine.NoFace, false
	}
	f := t.face(s)
	if f == engine.NoFace {
		t.refuse(i18n.T("that tile is not open to you yet"))
		return engine.NoFace, false
	}
	return f, true
}

func (t *TableView) discard() {
	h := t.myHand()
	if h == nil {
		return
	}
	s := t.target()
	f, ok := t.discardFace(s)
	if !ok {
		return
	}
	t.send(engine.Action{Kind: engine.ActDiscard, Seat: t.snap.Seat, Slot: s,
		Faces: []engine.SlotFace{{Slot: s, Face: f}}}, i18n.T("you discard the %s", f))
}

func (t *TableView) win() {
	h := t.myHand()
	if h == nil {
		return
	}
	if _, drawn := h.Turn(); !drawn {
		t.refuse(refusalIn(classicGame, engine.ErrMustDraw))
		return
	}
	s := t.target()
	a, ok := t.snap.View.WinAction(h, s)
	if !ok {
		if s == engine.NoSlot {
			t.refuse(i18n.T("put the cursor on the tile to finish with"))
			return
		}
		t.refuse(i18n.T("no win: the rest is not a winning hand when you finish with the %v", t.face(s)))
		return
	}
	what := i18n.T("you declare a win")
	if s != engine.NoSlot {
		what = i18n.T("you declare a win, finishing with the %s", t.face(s))
	}
	t.send(a, what)
}

func (t *TableView) show() {
	h := t.myHand()
	if h == nil {
		return
	}
	_, ind := h.Indicator()
	slots, faces := t.snap.View.Rack(h)
	for i, s := range slots {
		if faces[i] == ind {
			t.send(engine.Action{Kind: engine.ActShow, Seat: t.snap.Seat, Slot: s,
				Faces: []engine.SlotFace{{Slot: s, Face: ind}}}, i18n.T("you show the %s (gösterme)", ind))
			return
		}
	}
	t.refuse(i18n.T("gösterme needs a tile like the face-up %s on your rack", ind))
}

// rackFaces is the seat's rack in either game and the hand's okey; ok is
// false before the tiles are in play.
func (t *TableView) rackFaces() (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool) {
	if t.is101() {
		g := t.game101()
		if g.Phase() < engine.Phase101Play {
			return nil, nil, engine.NoFace, false
		}
		slots, faces = t.snap.View.Rack(g)
		return slots, faces, g.Okey(), true
	}
	h := t.snap.HandState()
	if h == nil || h.Phase() < engine.PhasePlay {
		return nil, nil, engine.NoFace, false
	}
	slots, faces = t.snap.View.Rack(h)
	return slots, faces, h.Okey(), true
}

func (t *TableView) sort(runs bool) {
	slots, faces, okey, ok := t.rackFaces()
	if !ok {
		t.refuse(i18n.T("no tiles to sort yet"))
		return
	}
	t.rack.Sort(okey, slots, faces, runs)
	if runs {
		t.say(i18n.T("sorted by runs"))
	} else {
		t.say(i18n.T("sorted by sets"))
	}
}

func (t *TableView) undo() {
	if !t.rack.Undo() {
		t.refuse(i18n.T("nothing to undo"))
		return
	}
	if slots, faces, _, ok := t.rackFaces(); ok {
		t.rack.Sync(slots, faces)
	}
	t.say(i18n.T("rack move undone"))
}

func (t *TableView) lift() {
	if t.rack.Lifted >= 0 {
		if t.rack.Drop() {
			t.say(i18n.T("tile moved"))
		} else {
			t.say(i18n.T("tile put back"))
		}
		return
	}
	if !t.rack.Lift() {
		t.refuse(i18n.T("no tile there to pick up"))
		return
	}
	t.say(i18n.T("tile picked up: move it with the arrows, put it down with space"))
}

// Hint asks the expert bot (bot.Expert, from this seat's view only) what to
// do: before the draw, take the previous discard or draw; after it, the one
// tile to discard (the cursor goes to that tile, the only one marked), or
// the win to declare. The message gives the reason and the next-ranked
// choices.
func (t *TableView) Hint() {
	s := t.snap
	h := s.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		t.refuse(i18n.T("no hand is being played"))
		return
	}
	_, faces := s.View.Rack(h)
	for _, f := range faces {
		if f == engine.NoFace {
			t.refuse(i18n.T("wait until all your tiles are open"))
			return
		}
	}
	t.hint = nil
	v := s.View
	adv, err := bot.NewExpert(0).Advise(h, &v)
	if err != nil || len(adv.Choices) == 0 {
		t.refuse(i18n.T("no hint now: it is not your move"))
		return
	}
	t.say(hintText(adv))
	if c := adv.Choices[0]; c.Slot != engine.NoSlot && (c.Kind == engine.ActDiscard || c.Kind == engine.ActWin || c.Kind == engine.ActShow) {
		t.hint = map[engine.Slot]bool{c.Slot: true}
		if p := t.rack.Find(c.Slot); p >= 0 && t.rack.Lifted < 0 {
			t.rack.Cursor = p
		}
	}
}

// hintText is the hint's line: the advice's reason with the key to press,
// then up to two next-ranked choices.
func hintText(adv bot.Advice) string {
	c := adv.Choices[0]
	msg := hintReason(c)
	switch c.Kind {
	case engine.ActDraw:
		msg += " (d)"
	case engine.ActTake:
		msg += " (t)"
	case engine.ActDiscard:
		msg += " (x)"
	case engine.ActWin:
		msg += " (w)"
	}
	var next []string
	for _, o := range adv.Choices[1:] {
		if len(next) == 2 {
			break
		}
		switch o.Kind {
		case engine.ActDiscard:
			next = append(next, o.Face.String())
		case engine.ActTake:
			next = append(next, i18n.T("take %s", o.Face))
		case engine.ActDraw:
			next = append(next, i18n.T("draw"))
		}
	}
	if len(next) > 0 {
		msg += i18n.T("; next best: %s", strings.Join(next, ", "))
	}
	return msg
}

// --- keys ------------------------------------------------------------------

// binding is one action of the key table: it drives the handler, the help
// screen and the status bar.
type binding struct {
	keys  []tcell.Key
	runes []rune
	name  string // how help and the status bar write the key
	label string // the status bar's word
	help  string
	do    func(t *TableView)
	now   func(t *TableView) bool // shown in the status bar now
}

func (t *TableView) myMove() bool { return t.req != nil && t.final == nil }

func (t *TableView) drawn() bool {
	if h := t.snap.HandState(); h != nil {
		_, d := h.Turn()
		return d
	}
	return false
}

func (t *TableView) canTake() bool {
	h := t.snap.HandState()
	if h == nil {
		return false
	}
	from := h.LastDiscard()
	return from >= 0 && len(h.Pile(from)) > 0
}

var bindings = []binding{
	{keys: []tcell.Key{tcell.KeyLeft, tcell.KeyRight, tcell.KeyUp, tcell.KeyDown}, name: "arrows", label: i18n.Mark("move"),
		help: i18n.Mark("move the cursor on the rack (with a tile picked up: where it goes)")},
	{runes: []rune{' '}, keys: []tcell.Key{tcell.KeyEnter}, name: "space", label: i18n.Mark("pick up"),
		help: i18n.Mark("pick up the tile under the cursor; again: put it down there (tiles make room)"),
		do:   (*TableView).lift, now: func(t *TableView) bool { return true }},
	{keys: []tcell.Key{tcell.KeyEscape}, name: "esc", label: i18n.Mark("put back"), help: i18n.Mark("put a picked-up tile back; close a panel"),
		do:  func(t *TableView) { t.rack.Lifted = -1; t.say(i18n.T("tile put back")) },
		now: func(t *TableView) bool { return t.rack.Lifted >= 0 }},
	{runes: []rune{'d'}, name: "d", label: i18n.Mark("draw"), help: i18n.Mark("draw the next tile from the stock (stock empty: end the hand)"),
		do: (*TableView).draw, now: func(t *TableView) bool { return t.myMove() && !t.drawn() }},
	{runes: []rune{'t'}, name: "t", label: i18n.Mark("take"), help: i18n.Mark("take the tile the player before you just discarded"),
		do: (*TableView).take, now: func(t *TableView) bool { return t.myMove() && !t.drawn() && t.canTake() }},
	{runes: []rune{'x'}, keys: []tcell.Key{tcell.KeyDelete}, name: "x", label: i18n.Mark("discard"),
		help: i18n.Mark("discard the picked-up tile, or the one under the cursor"),
		do:   (*TableView).discard, now: func(t *TableView) bool { return t.myMove() && t.drawn() }},
	{runes: []rune{'w'}, name: "w", label: i18n.Mark("win"), help: i18n.Mark("declare a win, finishing with the tile under the cursor (on a gap: seven pairs with no discard, where allowed)"),
		do: (*TableView).win, now: func(t *TableView) bool { return t.myMove() && t.drawn() }},
	{runes: []rune{'g'}, name: "g", label: i18n.Mark("show"), help: i18n.Mark("gösterme: show your tile like the face-up one (before your first draw)"),
		do: (*TableView).show, now: func(t *TableView) bool {
			h := t.snap.HandState()
			if !t.myMove() || h == nil || !h.CanShow(t.snap.Seat) {
				return false
			}
			_, ind := h.Indicator()
			_, faces := t.snap.View.Rack(h)
			return slices.Contains(faces, ind)
		}},
	{runes: []rune{'s'}, name: "s", label: i18n.Mark("sets"), help: i18n.Mark("sort sets: lay the rack out in sets first, then runs, then the rest"),
		do: func(t *TableView) { t.sort(false) }, now: func(t *TableView) bool { return t.rack.Lifted < 0 }},
	{runes: []rune{'r'}, name: "r", label: i18n.Mark("runs"), help: i18n.Mark("sort runs: lay the rack out in runs first, then sets, then the rest"),
		do: func(t *TableView) { t.sort(true) }, now: func(t *TableView) bool { return t.rack.Lifted < 0 }},
	{runes: []rune{'h'}, name: "h", label: i18n.Mark("hint"), help: i18n.Mark("hint: the discard the analysis recommends and how many tiles you are from a win"),
		do: (*TableView).Hint, now: func(t *TableView) bool { return t.myMove() }},
	{runes: []rune{'u'}, keys: []tcell.Key{tcell.KeyCtrlZ}, name: "u", label: i18n.Mark("undo"), help: i18n.Mark("undo the last rack move or sort"),
		do: (*TableView).undo, now: func(t *TableView) bool { return t.rack.CanUndo() && t.rack.Lifted < 0 }},
	{runes: []rune{'?'}, name: "?", label: i18n.Mark("help"), help: i18n.Mark("this help"),
		do: func(t *TableView) { t.overlay = helpOverlay }, now: func(t *TableView) bool { return true }},
	{runes: []rune{'q'}, keys: []tcell.Key{tcell.KeyCtrlC}, name: "q", label: i18n.Mark("quit"), help: i18n.Mark("leave (asks first during a match)"),
		do: (*TableView).askQuit, now: func(t *TableView) bool { return true }},
}

func (t *TableView) askQuit() {
	if !t.inMatch() {
		t.quit()
		return
	}
	t.overlay = quitOverlay
}

// Key handles one key press; it is the InputHandler's body.
func (t *TableView) Key(ev *tcell.EventKey) {
	defer t.keepRack()
	switch t.overlay {
	case helpOverlay:
		t.overlay = noOverlay
		t.reopen()
		return
	case quitOverlay:
		switch {
		case ev.Rune() == 'y' || ev.Rune() == 'Y':
			t.quit()
		default:
			t.overlay = noOverlay
			t.say(i18n.T("you stay at the table"))
		}
		return
	case handOverlay:
		switch {
		case ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyEscape || ev.Rune() == ' ':
			t.nextEnd()
			return
		case ev.Rune() == 'q' || ev.Key() == tcell.KeyCtrlC:
			t.askQuit()
			return
		case ev.Rune() == '?':
			t.overlay = helpOverlay
			return
		}
		return
	case matchOverlay:
		if ev.Rune() == 'q' || ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC {
			t.quit()
		}
		return
	}
	if t.is101() {
		t.key101(ev)
		return
	}
	if t.cursorKey(ev) {
		return
	}
	for _, b := range bindings {
		if b.do == nil {
			continue
		}
		hit := false
		for _, k := range b.keys {
			if ev.Key() == k && k != tcell.KeyRune {
				hit = true
			}
		}
		for _, r := range b.runes {
			if ev.Key() == tcell.KeyRune && ev.Rune() == r {
				hit = true
			}
		}
		if hit {
			b.do(t)
			return
		}
	}
	if ev.Key() == tcell.KeyRune {
		t.refuse(i18n.T("%q does nothing here: ? lists the keys", ev.Rune()))
	}
}

// nextEnd closes the shown hand end, showing the next one if any.
func (t *TableView) nextEnd() {
	if len(t.ends) > 0 {
		t.ends = t.ends[1:]
	}
	t.overlay = noOverlay
	t.reopen()
}

// reopen shows the panel that is still due after another was closed.
func (t *TableView) reopen() {
	switch {
	case len(t.ends) > 0:
		t.overlay = handOverlay
	case t.final != nil:
		t.overlay = matchOverlay
	}
}

// InputHandler implements tview.Primitive.
func (t *TableView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return t.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { t.Key(ev) })
}

// MouseHandler implements tview.Primitive: clicks on the rack pick up and
// put down tiles (a double click discards), on the stock draw, on the
// discard to take take it, on the status bar run that key.
func (t *TableView) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return t.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick && action != tview.MouseLeftDoubleClick {
			return false, nil
		}
		setFocus(t)
		x, y := ev.Position()
		// tview calls any second click within its interval a double click,
		// wherever it is: a quick pick-up-and-put-down is two clicks. A
		// double click is two on the same cell.
		now := t.now()
		double := t.lastClick.x == x && t.lastClick.y == y && now.Sub(t.lastClick.at) < tview.DoubleClickInterval
		t.lastClick.x, t.lastClick.y, t.lastClick.at = x, y, now
		if double {
			t.lastClick.at = time.Time{}
		}
		t.Click(x, y, double)
		return true, nil
	})
}

// Click handles a click at screen cell (x, y).
func (t *TableView) Click(x, y int, double bool) {
	defer t.keepRack()
	if t.overlay != noOverlay {
		t.Key(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
		return
	}
	for i := len(t.regions) - 1; i >= 0; i-- {
		r := t.regions[i]
		if x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h {
			r.click(t, double)
			return
		}
	}
}

func (t *TableView) clickRack(p int, double bool) {
	if double {
		if t.rack.At(p) != engine.NoSlot {
			t.rack.Lifted = -1
			t.rack.Cursor = p
			t.discard()
		}
		return
	}
	t.rack.Cursor = p
	t.lift()
}

// cursorKey moves the rack's cursor for the arrow, Home and End keys and
// reports whether ev was one of them.
func (t *TableView) cursorKey(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyLeft:
		t.rack.MoveCursor(-1, 0)
	case tcell.KeyRight:
		t.rack.MoveCursor(1, 0)
	case tcell.KeyUp:
		t.rack.MoveCursor(0, -1)
	case tcell.KeyDown:
		t.rack.MoveCursor(0, 1)
	case tcell.KeyHome:
		t.rack.Cursor -= t.rack.Cursor % RackCols
	case tcell.KeyEnd:
		t.rack.Cursor += RackCols - 1 - t.rack.Cursor%RackCols
	default:
		return false
	}
	return true
}
