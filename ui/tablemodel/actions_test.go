package tablemodel

import (
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// TestClassicActionsAndReasons: the actions a classic player may take now,
// and the reason each other one is off, from the snapshot and the request
// alone (no screen).
func TestClassicActionsAndReasons(t *testing.T) {
	s := classicSnap(t, "R5", winningRack)

	m, _, _ := seatModel(s, false)
	const wait = "wait: the table is still working on the last move"
	for _, a := range []Action{Draw, Take, Discard, Win, Show} {
		if got := m.Off(a); got != wait {
			t.Errorf("not asked: Off(%d) = %q, want %q", a, got, wait)
		}
		if m.Offered(a) {
			t.Errorf("not asked: %d offered", a)
		}
	}

	// The first player holds 15 tiles: it has its tile, and discards.
	m, _, _ = seatModel(s, true)
	if got := m.Off(Discard); got != "" {
		t.Errorf("asked: Off(Discard) = %q", got)
	}
	if m.Offered(Draw) || m.Offered(Take) || !m.Offered(Discard) || !m.Offered(Win) {
		t.Errorf("with 15 tiles: draw %v take %v discard %v win %v; want discard and win",
			m.Offered(Draw), m.Offered(Take), m.Offered(Discard), m.Offered(Win))
	}
	// The next seat, after the first discard: draw or take, not discard.
	m, _, _ = seatModel(nextSeat(t, s), true)
	if !m.Offered(Draw) || !m.Offered(Take) || m.Offered(Discard) || m.Offered(Win) {
		t.Errorf("before the draw: draw %v take %v discard %v win %v; want draw and take",
			m.Offered(Draw), m.Offered(Take), m.Offered(Discard), m.Offered(Win))
	}
	if got, want := m.Off(Discard), "draw from the stock (d) or take the discard (t) first"; got != want {
		t.Errorf("Off(Discard) before the draw = %q, want %q", got, want)
	}
	if got := m.Off(GiveBack); got == "" {
		t.Error("GiveBack is on in the classic game")
	}

	other := *s
	other.Seat = 1
	m, _, _ = seatModel(&other, true)
	if got, want := m.Off(Draw), "it is not your turn: ayse plays"; got != want {
		t.Errorf("another's turn: Off(Draw) = %q, want %q", got, want)
	}

	m, _, _ = seatModel(s, true)
	m.Finish(&MatchEnd{})
	if got, want := m.Off(Draw), "the match is over"; got != want || m.MyMove() {
		t.Errorf("after the end: Off(Draw) = %q (my move %v), want %q", got, m.MyMove(), want)
	}
}

// TestMoveTriedOnACopy: a move the engine refuses is refused with the
// game's sentence, nothing is sent and the snapshot's match is unchanged;
// a move that holds is sent once, on the request's channel.
func TestMoveTriedOnACopy(t *testing.T) {
	s := classicSnap(t, "R5", winningRack)
	m, reply, _ := seatModel(s, true)
	stock := s.Match.Hand().StockLen()
	// A draw with 15 tiles: the model's Draw goes through, the engine
	// refuses it on the copy.
	if m.Draw() {
		t.Fatal("a draw with 15 tiles was sent")
	}
	if want := "you have drawn already: discard a tile (x)"; m.Msg != want || !m.MsgBad {
		t.Errorf("refusal %q (bad %v), want %q", m.Msg, m.MsgBad, want)
	}
	if len(reply) != 0 || !m.Asked() {
		t.Fatalf("the refused move was sent (%d on the channel, asked %v)", len(reply), m.Asked())
	}
	if s.Match.Hand().StockLen() != stock || len(s.Match.Hand().Rack(0)) != 15 {
		t.Fatal("the refused move changed the snapshot's match")
	}

	slot := s.Match.Hand().Rack(0)[0]
	if !m.Discard(slot) {
		t.Fatalf("discard refused: %q", m.Msg)
	}
	select {
	case a := <-reply:
		if a.Kind != engine.ActDiscard || a.Seat != 0 || a.Slot != slot {
			t.Errorf("sent %+v, want a discard of slot %d by seat 0", a, slot)
		}
	default:
		t.Fatal("the discard was not sent")
	}
	if want := "you discard the R13"; m.Asked() || m.Msg != want || m.MsgBad {
		t.Errorf("after the discard: asked %v, message %q (bad %v), want %q", m.Asked(), m.Msg, m.MsgBad, want)
	}
	if len(s.Match.Hand().Rack(0)) != 15 {
		t.Fatal("the sent move changed the snapshot's match (the peer applies it)")
	}
	// The request is spent: a second move is off until the next request.
	if m.Discard(s.Match.Hand().Rack(0)[1]) || len(reply) != 0 {
		t.Error("a second move was sent on a spent request")
	}
}

// TestRefusalsInTurkish: the reasons read in the interface's language.
func TestRefusalsInTurkish(t *testing.T) {
	i18n.Set(i18n.Turkish)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	m, _, _ := seatModel(nextSeat(t, classicSnap(t, "R5", winningRack)), true)
	if got, want := m.Off(Discard), "önce desteden çek (d) ya da yandaki taşı al (t)"; got != want {
		t.Errorf("Off(Discard) in Turkish = %q, want %q", got, want)
	}
	if got := m.Off(Draw); got != "" {
		t.Errorf("Off(Draw) in Turkish = %q", got)
	}
	m, _, _ = seatModel(classicSnap(t, "R5", winningRack), false)
	if got := m.Off(Draw); got == "" || got == "wait: the table is still working on the last move" {
		t.Errorf("the wait in Turkish: %q", got)
	}
}

// TestActions101: Okey 101's actions and reasons: draw and take before the
// player has a tile, give back only after a take, the dealer's first turn
// a discard only.
func TestActions101(t *testing.T) {
	s := snap101(t, false)
	m, _, reply := seatModel(s, true)
	if !m.Offered(Draw) || !m.Offered(Take) || m.Offered(GiveBack) || m.Offered(Lay) || m.Offered(Add) || m.Offered(Discard) {
		t.Errorf("before the draw: draw %v take %v give back %v lay %v add %v discard %v; want draw and take",
			m.Offered(Draw), m.Offered(Take), m.Offered(GiveBack), m.Offered(Lay), m.Offered(Add), m.Offered(Discard))
	}
	if got, want := m.Off(Discard), "take a tile first: d draws from the bank, t takes the previous discard"; got != want {
		t.Errorf("Off(Discard) = %q, want %q", got, want)
	}
	if got := m.Off(Win); got != "not now" {
		t.Errorf("Off(Win) in 101 = %q, want not now", got)
	}
	if !m.Take() {
		t.Fatalf("take refused: %q", m.Msg)
	}
	if a := <-reply; a.Kind != engine.Act101Take || a.Seat != 0 {
		t.Errorf("sent %+v, want a take by seat 0", a)
	}
	if want := "you take the Y6: use it this turn, or give it back (b)"; m.Msg != want {
		t.Errorf("message %q, want %q", m.Msg, want)
	}

	d := snap101(t, true)
	m, _, _ = seatModel(d, true)
	want := "the dealer starts by discarding (x)"
	for _, a := range []Action{Lay, Add, Draw, Take} {
		if got := m.Off(a); got != want {
			t.Errorf("dealer's first turn: Off(%d) = %q, want %q", a, got, want)
		}
	}
	if got := m.Off(Discard); got != "" {
		t.Errorf("dealer's first turn: Off(Discard) = %q", got)
	}
	okey := d.Match101.Game().Okey()
	for _, sl := range d.Match101.Game().Rack(0) {
		if m.Face(sl) == okey {
			t.Fatal("the fixture holds the okey")
		}
	}
}

// TestDiscardQuestion101: a discard that costs a penalty is asked about
// first; another is not.
func TestDiscardQuestion101(t *testing.T) {
	s := snap101(t, true)
	m, _, _ := seatModel(s, true)
	var loose engine.Slot = engine.NoSlot
	for _, sl := range s.Match101.Game().Rack(0) {
		if m.Face(sl) == engine.MustParseFaces("Y9")[0] {
			loose = sl
		}
	}
	if loose == engine.NoSlot {
		t.Fatal("no Y9 on the rack")
	}
	if q := m.DiscardQuestion(loose); q != "" {
		t.Errorf("a loose tile's question: %q", q)
	}
	if q := m.DiscardQuestion(engine.NoSlot); q != "" {
		t.Errorf("no tile's question: %q", q)
	}
}

// TestTurnLineWithoutScreen: the turn line says what the player may do on
// its move, whose move it is otherwise, in both games.
func TestTurnLineWithoutScreen(t *testing.T) {
	m, _, _ := seatModel(classicSnap(t, "R5", winningRack), true)
	if got := m.Turn(); got.Whose != TurnMine || got.Text != "your turn: discard a tile (x), or declare a win (w)" {
		t.Errorf("classic, 15 tiles: %+v", got)
	}
	m, _, _ = seatModel(nextSeat(t, classicSnap(t, "R5", winningRack)), true)
	if got := m.Turn(); got.Whose != TurnMine || got.Text != "your turn: draw from the stock (d) or take the discard (t)" {
		t.Errorf("classic, before the draw: %+v", got)
	}
	m, _, _ = seatModel(snap101(t, false), true)
	if got := m.Turn(); got.Whose != TurnMine || got.Text != "your turn: draw (d) or take (t)" {
		t.Errorf("101, before the draw: %+v", got)
	}
	m, _, _ = seatModel(snap101(t, true), true)
	if got := m.Turn(); got.Whose != TurnMine || got.Text != "your turn: discard a tile (x): the dealer starts by discarding" {
		t.Errorf("101, the dealer's first turn: %+v", got)
	}
	other := *snap101(t, false)
	other.Seat = 1
	m, _, _ = seatModel(&other, false)
	if got := m.Turn(); got.Whose != TurnOther || got.Text != "ayse to play" {
		t.Errorf("101, another's turn: %+v", got)
	}
	m.Finish(&MatchEnd{})
	if got := m.Turn(); got.Whose != TurnOver {
		t.Errorf("101 after the end: %+v", got)
	}
}
