package tablemodel

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// selectFaces selects on m's rack one tile of each face in faces.
func selectFaces(t *testing.T, m *Table, faces string) {
	t.Helper()
	for _, f := range engine.MustParseFaces(faces) {
		found := false
		for p := 0; p < RackSize && !found; p++ {
			sl := m.Rack.At(p)
			if sl != engine.NoSlot && !m.Sel[sl] && m.Face(sl) == f {
				m.Toggle(p)
				found = true
			}
		}
		if !found {
			t.Fatalf("no %v to select", f)
		}
	}
}

// drawn101 is snap101 after the player drew from the bank (a tile it does
// not see yet).
func drawn101(t *testing.T) *Snapshot {
	t.Helper()
	s := snap101(t, false)
	m := s.Match101.Clone()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Draw, Seat: 0}); err != nil {
		t.Fatal(err)
	}
	n := *s
	n.Match101 = m
	return &n
}

// TestLay101WithoutScreen: the selection reads as melds toward the
// opening, and l lays it as one move once the player has its tile; at the
// dealer's first turn the engine refuses it on the copy and nothing is
// sent.
func TestLay101WithoutScreen(t *testing.T) {
	m, _, reply := seatModel(snap101(t, true), true)
	m.Update(m.Snap)
	selectFaces(t, m, opening101)
	if want := "selected: 3 melds, 112 points · the dealer starts by discarding (x)"; m.Msg != want {
		t.Errorf("the selection reads %q, want %q", m.Msg, want)
	}
	if m.Lay() || len(reply) != 0 {
		t.Fatal("a lay at the dealer's first turn was sent")
	}
	if want := "the dealer starts by discarding (x)"; m.Msg != want || !m.MsgBad {
		t.Errorf("refusal %q (bad %v), want %q", m.Msg, m.MsgBad, want)
	}

	m, _, reply = seatModel(drawn101(t), true)
	m.Update(m.Snap)
	selectFaces(t, m, "R10 R11")
	if want := "a meld needs 3 tiles (a set or a run), a double 2"; !strings.Contains(m.Msg, want) {
		t.Errorf("two tiles read %q, want %q", m.Msg, want)
	}
	m.ClearSel()
	selectFaces(t, m, opening101)
	if want := "selected: 3 melds, 112 points · that opens: l lays the opening"; m.Msg != want {
		t.Errorf("the selection reads %q, want %q", m.Msg, want)
	}
	if !m.Lay() {
		t.Fatalf("the opening was refused: %q", m.Msg)
	}
	a := <-reply
	if a.Kind != engine.Act101Lay || len(a.Melds) != 3 {
		t.Errorf("sent %v with %d melds, want a lay of 3", a.Kind, len(a.Melds))
	}
	if want := "you open: you lay 3 melds (112 points)"; m.Msg != want || len(m.Sel) != 0 || m.Sent != 1 {
		t.Errorf("after the lay: %q, %d selected, %d sent; want %q, none, 1", m.Msg, len(m.Sel), m.Sent, want)
	}
}

// TestTimeUpWithoutScreen: when the time runs out the model makes the
// move for the player, sends it, and logs that the program played it.
func TestTimeUpWithoutScreen(t *testing.T) {
	m, _, reply := seatModel(snap101(t, false), true)
	m.Update(m.Snap)
	if !m.TimeUp() {
		t.Fatal("no time-up in a round being played")
	}
	select {
	case a := <-reply:
		if a.Kind != engine.Act101Draw && a.Kind != engine.Act101Take {
			t.Errorf("the program played %v, want a draw or a take", a.Kind)
		}
	default:
		t.Fatalf("nothing sent: %q", m.Msg)
	}
	if n := len(m.Log); n == 0 || !strings.HasPrefix(m.Log[n-1].String(), "time is up: the program plays") {
		t.Errorf("the log: %v", m.Log)
	}

	c, creply, _ := seatModel(classicSnap(t, "K4", winningRack), true)
	c.Update(c.Snap)
	if !c.TimeUp() {
		t.Fatal("no time-up in a classic hand")
	}
	a := <-creply
	if a.Kind != engine.ActWin {
		t.Errorf("with a winning rack the program played %v, want the win", a.Kind)
	}
	if New().TimeUp() {
		t.Error("a time-up with no hand")
	}
}
