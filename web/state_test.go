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

// greedyBots are k bots for a classic table.
func greedyBots(k int) ([]table.Mover, []string) {
	var ms []table.Mover
	var names []string
	for i := range k {
		ms = append(ms, bot.NewGreedy())
		names = append(names, []string{"ali", "veli", "zeynep"}[i])
	}
	return ms, names
}

// checking is a Game whose every state is checked against the snapshot it
// is built from, on the model's goroutine.
type checking struct {
	*Game
	t       *testing.T
	checked atomic.Int32
}

func (c *checking) OnStep(mc *table.Machine, v *engine.View) {
	c.Game.OnStep(mc, v)
	c.post(c.check)
}

// check builds the state and holds every face in its table (the rack,
// the indicator, the okey, the piles, the discard to take) to what the
// seat may see: a face its View holds or one the hand shows everyone.
func (c *checking) check() {
	s := c.m.Snap
	if len(c.m.Ends) > 0 {
		if at := c.m.EndedAt(c.m.Ends[0]); at != nil {
			s = at.Snap
		}
	}
	h := s.HandState()
	if h == nil {
		return
	}
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
		if f := h.PublicFace(engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
		if f := s.View.Face(h, engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
	}
	seen[h.Okey().String()] = true
	var faces []*faceJSON
	faces = append(faces, st.Ind, st.Okey, st.Take)
	for _, se := range st.Seats {
		faces = append(faces, se.Pile...)
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
			c.t.Errorf("hand %d step %d: the page gets %s, a face hidden from the seat", st.Hand, s.Step, f.S)
		}
	}
	mine := 0
	for _, sl := range h.Rack(s.Seat) {
		if s.View.Face(h, sl) != engine.NoFace {
			mine++
		}
	}
	if open > mine {
		c.t.Errorf("step %d: %d open tiles on the page's rack, the seat knows %d", s.Step, open, mine)
	}
	c.checked.Add(1)
}

// TestStateHoldsNoHiddenTile plays a classic match (a bot in the player's
// seat) and checks every state the page would get.
func TestStateHoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	g := &checking{Game: NewGame(0), t: t}
	g.Start()
	defer g.Quit()
	bots, names := greedyBots(3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := ui.PlayLocal(ctx, g, ui.LocalOptions{Ruleset: "classic:points=1", Name: "ayse", Bots: bots, BotName: names,
		Player: bot.NewGreedy()})
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

// TestGameRace is the race detector's share of the match above: a second
// of a match whose page commands and peer steps cross on the Game.
func TestGameRace(t *testing.T) {
	lane.RaceOnly(t)
	g := NewGame(0)
	g.Start()
	defer g.Quit()
	states, stop := g.subscribe()
	defer stop()
	go func() {
		for {
			select {
			case <-states:
				g.do(command{Op: "hint"})
				g.do(command{Op: "move", Slot: 0, To: 20})
			case <-g.Done():
				return
			}
		}
	}()
	bots, names := greedyBots(3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := ui.PlayLocal(ctx, g, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: names, Player: bot.NewGreedy()}); err != nil {
		t.Fatal(err)
	}
}
