package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestWatchShowsNoRackBeforeTheAudit feeds a match to the spectator's
// screen step by step, as a spectator applies it: in the middle of the
// hand every rack tile that the table did not open in public is hidden
// ("??"), the piles and the stock are shown; once the hand's audit came,
// that hand's frames show every rack, with the hand's result.
func TestWatchShowsNoRackBeforeTheAudit(t *testing.T) {
	tr := greedyMatch(t, "turkish-rummy:rounds=1", 7)
	var names []string
	for _, s := range tr.Config.Seats {
		names = append(names, s.Name)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(80, 24)
	quit := false
	v := NewWatchView(names, tr.Config.Ruleset, func() { quit = true })
	v.SetRect(0, 0, 80, 24)
	draw := func() string {
		scr.Clear()
		v.Draw(scr)
		scr.Show()
		return strings.Join(screenLines(scr), "\n")
	}
	if s := draw(); !strings.Contains(s, "catching up") {
		t.Fatalf("before any frame:\n%s", s)
	}
	m, err := table.NewMachine(tr.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	var feed WatchFeed
	midHand := false
	audited := false
	for i, raw := range tr.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(env); err != nil {
			t.Fatal(err)
		}
		u := feed.Step(m)
		v.Add(u)
		audited = audited || len(u.Audited) > 0
		if u.Frame == nil || audited {
			continue
		}
		f := u.Frame
		if f.All != nil {
			t.Fatalf("step %d: a frame knows rack faces before the audit", i)
		}
		if h := f.Match.Hand(); h.Phase() == engine.PhasePlay && h.Turns() == 5 {
			midHand = true
			s := draw()
			if !strings.Contains(s, "??") || !strings.Contains(s, "okey watch") || !strings.Contains(s, "live") {
				t.Fatalf("mid-hand, the racks are not hidden:\n%s", s)
			}
			// Every rack tile is hidden unless it is public.
			for seat := range names {
				if len(v.rack(h, seat)) == 0 {
					t.Fatalf("seat %d has no rack", seat)
				}
				for _, fc := range v.rack(h, seat) {
					if fc != engine.NoFace {
						found := false
						for _, sl := range h.Rack(seat) {
							found = found || h.PublicFace(sl) == fc
						}
						if !found {
							t.Fatalf("seat %d: a private face %v is shown", seat, fc)
						}
					}
				}
			}
		}
	}
	if !midHand || !audited {
		t.Fatalf("the match never reached turn 5 (%v) or its audit (%v)", midHand, audited)
	}
	if !v.follow || v.At() != v.Frames()-1 {
		t.Fatalf("not following the table: at %d of %d", v.At(), v.Frames())
	}
	v.End(table.Verify(tr), "")
	s := draw()
	if strings.Contains(s, "??") || !strings.Contains(s, "verified: honest") {
		t.Fatalf("after the audit, the racks or the verdict are missing:\n%s", s)
	}
	// Back one frame: no longer following; End follows again.
	v.InputHandler()(tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone), nil)
	if v.follow || !strings.Contains(draw(), "back 1") {
		t.Fatal("left did not step back")
	}
	v.InputHandler()(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone), nil)
	if !v.follow {
		t.Fatal("end did not follow the table again")
	}
	v.InputHandler()(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone), nil)
	if !quit {
		t.Fatal("q did not leave")
	}
}
