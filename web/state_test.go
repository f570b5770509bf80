package web

import (
	"context"
	"encoding/json"
	"fmt"
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
// is built from, on the model's goroutine: a classic hand's or an Okey 101
// round's.
type checking struct {
	*Game
	t       *testing.T
	checked atomic.Int32
}

func (c *checking) OnStep(mc *table.Machine, v *engine.View) {
	c.Game.OnStep(mc, v)
	c.post(c.check)
}

// board is a hand's or a round's table, as the page's faces are held to it.
type board interface {
	engine.Board
	Okey() engine.Face
}

// check builds the state and holds every face on its table (the rack,
// the indicator, the okey, the piles, the discard to take, an Okey 101
// round's every meld) to what the seat may see: a face its View holds or
// one the hand shows everyone.
func (c *checking) check() {
	s := c.m.Snap
	if len(c.m.Ends) > 0 {
		if at := c.m.EndedAt(c.m.Ends[0]); at != nil {
			s = at.Snap
		}
	}
	var b board
	switch {
	case s != nil && s.Match101 != nil:
		b = s.Match101.Game()
	case s.HandState() != nil:
		b = s.HandState()
	default:
		return
	}
	js, err := json.Marshal(c.build())
	if err != nil {
		c.t.Error(err)
		return
	}
	var st stateJSON
	if err := json.Unmarshal(js, &st); err != nil {
		c.t.Error(err)
		return
	}
	where := fmt.Sprintf("hand %d step %d", st.Hand, s.Step)
	seen := map[string]bool{}
	for sl := range engine.DeckSize {
		if f := b.PublicFace(engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
		if f := s.View.Face(b, engine.Slot(sl)); f != engine.NoFace {
			seen[f.String()] = true
		}
	}
	if b.Okey() != engine.NoFace {
		seen[b.Okey().String()] = true
	}
	faces := []*faceJSON{st.Ind, st.Okey, st.Take}
	for _, se := range st.Seats {
		faces = append(faces, se.Pile...)
	}
	if s.Match101 != nil {
		where = fmt.Sprintf("round %d", st.Hand)
		if st.R101 == nil {
			c.t.Errorf("a 101 state without its 101 part")
			return
		}
		for _, md := range st.R101.Melds {
			for _, sp := range md.Tiles {
				faces = append(faces, sp.F)
			}
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
			c.t.Errorf("%s: the page gets %s, a face hidden from the seat", where, f.S)
		}
	}
	mine := 0
	for _, sl := range b.Rack(s.Seat) {
		if s.View.Face(b, sl) != engine.NoFace {
			mine++
		}
	}
	if open > mine {
		c.t.Errorf("%s: %d open tiles on the page's rack, the seat knows %d", where, open, mine)
	}
	c.checked.Add(1)
}

// enough waits until the model's goroutine has run every check posted so
// far, and fails the test unless 50 states (what names them) were checked.
func (c *checking) enough(t *testing.T, what string) {
	t.Helper()
	done := make(chan struct{})
	c.post(func() { close(done) })
	<-done
	n := c.checked.Load()
	if n < 50 {
		t.Fatalf("%d %s checked", n, what)
	}
	t.Logf("%d %s checked", n, what)
}

// checkMatch plays the match o (a bot in the player's seat) at a checking
// Game: it must end honest, 50 states checked at the least.
func checkMatch(t *testing.T, o ui.LocalOptions) {
	t.Helper()
	g := &checking{Game: NewGame(0), t: t}
	g.Start()
	defer g.Quit()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := ui.PlayLocal(ctx, g, o)
	if err != nil || out.Err != nil {
		t.Fatalf("the match: %v %v", err, out.Err)
	}
	if out.Report == nil || !out.Report.Honest {
		t.Fatal("the match's transcript does not verify")
	}
	g.enough(t, "states")
}

// TestStateHoldsNoHiddenTile plays a classic match (a bot in the player's
// seat) and checks every state the page would get.
func TestStateHoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	bots, names := greedyBots(3)
	checkMatch(t, ui.LocalOptions{Ruleset: "classic:points=1", Name: "ayse", Bots: bots, BotName: names, Player: bot.NewGreedy()})
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
	raceMatch(t, g)
}

// raceMatch plays a classic match of greedy bots (one in the player's
// seat) at front for 3 seconds at the most: the race detector's share.
func raceMatch(t *testing.T, front ui.LocalFront) {
	t.Helper()
	bots, names := greedyBots(3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := ui.PlayLocal(ctx, front, ui.LocalOptions{Ruleset: "classic", Name: "ayse", Bots: bots, BotName: names, Player: bot.NewGreedy()}); err != nil {
		t.Fatal(err)
	}
}
