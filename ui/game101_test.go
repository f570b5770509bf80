package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// play101Turn plays one move of the player's 101 turn by keys: d draws; h
// gives the hint (the best opening selected, the discard under the
// cursor); l lays the opening when it opens; once open, a tile that fits a
// meld on the table is selected (space) and added by the meld's handle; x
// discards. It returns false when the round is over.
func (tr *tableRun) play101Turn(over func(string) bool, moves map[string]int) bool {
	tr.t.Helper()
	asked := false
	s := tr.wait(2*time.Minute, "my move or the end of the round", func(s string) bool {
		tr.onUI(func() { asked = tr.g.view.m.Asked() })
		return over(s) || asked
	})
	if over(s) {
		return false
	}
	var drawn, opened bool
	var cursor, sent int
	handle := rune(0)
	tr.onUI(func() {
		v := tr.g.view
		g := round(v)
		_, drawn, _ = g.Turn()
		sent = v.m.Sent
		opened = g.Opened(v.m.Snap.Seat) != engine.NotOpened
		if !drawn || !opened || len(g.Rack(v.m.Snap.Seat)) < 2 {
			return
		}
		for p := 0; p < RackSize && handle == 0; p++ {
			sl := v.m.Rack.At(p)
			if sl == engine.NoSlot || v.face(sl) == g.Okey() {
				continue
			}
			add, swap := g.AddTargets(v.face(sl))
			if add = append(add, swap...); len(add) > 0 {
				cursor, handle = p, handleOf(add[0])
			}
		}
		if handle != 0 {
			v.m.Sel = nil
			v.m.Rack.Cursor = cursor
		}
	})
	kind := "discard"
	switch {
	case !drawn:
		kind = "draw"
		tr.key('d')
	case handle != 0:
		kind = "add"
		tr.key(' ')
		tr.key(handle)
	default:
		tr.key('c')
		switch msg := tr.key('h'); {
		case !opened && strings.Contains(msg, "l lays it"):
			kind = "open"
			tr.key('l')
		case opened && strings.Contains(msg, "l lays them"):
			kind = "lay"
			tr.key('l')
		default:
			tr.key('x')
			// A discard that costs a penalty asks first: y.
			confirm := false
			tr.onUI(func() { confirm = tr.g.view.overlay == confirmOverlay })
			if confirm {
				kind = "penalty discard"
				tr.key('y')
			}
		}
	}
	var bad string
	tr.wait(time.Minute, "the "+kind, func(s string) bool {
		now := sent
		tr.onUI(func() {
			v := tr.g.view
			now = v.m.Sent
			if v.m.MsgBad {
				bad = v.m.Msg
			}
		})
		return over(s) || now != sent || bad != ""
	})
	if bad != "" {
		var screen string
		tr.onUI(func() { screen = strings.Join(screenLines(tr.scr), "\n") })
		tr.t.Fatalf("the %s was refused: %s\n%s", kind, bad, screen)
	}
	moves[kind]++
	return true
}

// key hands a key press to the table's key handler on the UI goroutine
// (as the application does) and returns the message line after it.
func (tr *tableRun) key(r rune) string {
	var msg string
	tr.onUI(func() {
		tr.g.view.Key(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
		msg = tr.g.view.m.Msg
	})
	return msg
}

// TestPlay101RoundByKeys plays a whole Okey 101 round at the terminal
// table against a B101 bot (every seat a full peer): the screen shows the
// bank, the indicator, the melds with their handles; the player draws,
// opens, adds and discards by keys to the round's end; the round's panel
// shows every seat's points, causes, racks and the score table.
func TestPlay101RoundByKeys(t *testing.T) {
	rules := engine.MustRuleset(engine.Preset101, "rounds=3").String()
	tr := startLocal(t, LocalOptions{Ruleset: rules, Name: "ayse", Bots: []table.Mover{bot.NewB101()}, BotName: []string{"bot1"}})
	s := tr.wait(time.Minute, "the 101 table", func(s string) bool { return strings.Contains(s, "indicator") })
	for _, want := range []string{"round 1", "your rack", "indicator"} {
		if !strings.Contains(s, want) {
			t.Errorf("the table lacks %q:\n%s", want, s)
		}
	}
	over := func(s string) bool { return strings.Contains(s, "round 1 is over") }
	moves := map[string]int{}
	for i := 0; i < 400 && tr.play101Turn(over, moves); i++ {
	}
	s = tr.wait(time.Minute, "the round's end", over)
	for _, want := range []string{"total", "rounds left", "ayse", "bot1"} {
		if !strings.Contains(s, want) {
			t.Errorf("the round's panel lacks %q:\n%s", want, s)
		}
	}
	if moves["draw"] == 0 || moves["discard"] == 0 {
		t.Errorf("moves by keys: %v", moves)
	}
	t.Logf("moves by keys: %v", moves)
	tr.press('q')
	tr.wait(5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "leave the table?") })
	tr.press('y')
	r := tr.stopped()
	if r.out.Err != ErrQuit {
		t.Fatalf("outcome %+v", r.out)
	}
}
