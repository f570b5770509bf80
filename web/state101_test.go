package web

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// checking101 is a Game whose every 101 state is checked against the
// snapshot it is built from, on the model's goroutine.
type checking101 struct {
	*Game
	t       *testing.T
	checked atomic.Int32
}

func (c *checking101) OnStep(mc *table.Machine, v *engine.View) {
	c.Game.OnStep(mc, v)
	c.post(c.check)
}

// check builds the state and holds every face on its table (the rack,
// the indicator, the okey, the piles, the discard to take, every meld) to
// what the seat may see: a face its View holds or one the round shows
// everyone.
func (c *checking101) check() {
	s := c.m.Snap
	if len(c.m.Ends) > 0 {
		if at := c.m.EndedAt(c.m.Ends[0]); at != nil {
			s = at.Snap
		}
	}
	if s == nil || s.Match101 == nil {
		return
	}
	g := s.Match101.Game()
	b, err := json.Marshal(c.build())
	if err != nil {
		c.t.Error(err)
		return
	}
	var st stateJSON
	if err := json.Unmarshal(b, &st); err != nil {
		c.t.Error(err)
		return
	}
	seen := map[string]bool{}
	for sl := range engine.DeckSize {
		if f := g.PublicFace(engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
		if f := s.View.Face(g, engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
	}
	if g.Okey() != engine.NoFace {
		seen[g.Okey().String()] = true
	}
	faces := []*faceJSON{st.Ind, st.Okey, st.Take}
	for _, se := range st.Seats {
		faces = append(faces, se.Pile...)
	}
	if st.R101 == nil {
		c.t.Errorf("a 101 state without its 101 part")
		return
	}
	for _, md := range st.R101.Melds {
		for _, sp := range md.Tiles {
			faces = append(faces, sp.F)
		}
	}
	open := 0
	for _, rt := range st.Rack {
		faces = append(faces, rt.Face)
		if rt.Face != nil {
			open++
		}
	}
	for _, f := range faces {
		if f != nil && !seen[f.S] {
			c.t.Errorf("round %d: the page gets %s, a face hidden from the seat", st.Hand, f.S)
		}
	}
	mine := 0
	for _, sl := range g.Rack(s.Seat) {
		if s.View.Face(g, sl) != engine.NoFace {
			mine++
		}
	}
	if open > mine {
		c.t.Errorf("%d open tiles on the page's rack, the seat knows %d", open, mine)
	}
	c.checked.Add(1)
}

// TestState101HoldsNoHiddenTile plays an Okey 101 match (B101 in the
// player's seat and the three others) and checks every state the page
// would get.
func TestState101HoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	g := &checking101{Game: NewGame(0), t: t}
	g.Start()
	defer g.Quit()
	bots, names := botsFor("101", 3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := ui.PlayLocal(ctx, g, ui.LocalOptions{Ruleset: "101:rounds=3", Name: "ayse", Bots: bots, BotName: names,
		Player: bot.NewB101()})
	if err != nil || out.Err != nil {
		t.Fatalf("the match: %v %v", err, out.Err)
	}
	if out.Report == nil || !out.Report.Honest {
		t.Fatal("the match's transcript does not verify")
	}
	done := make(chan struct{})
	g.post(func() { close(done) })
	<-done
	if n := g.checked.Load(); n < 50 {
		t.Fatalf("%d states checked", n)
	}
	t.Logf("%d states checked", g.checked.Load())
}
