package web

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// quitting is a checking Game whose player leaves after n steps.
type quitting struct {
	*checking
	n     int32
	steps atomic.Int32
}

func (q *quitting) OnStep(mc *table.Machine, v *engine.View) {
	q.checking.OnStep(mc, v)
	if q.steps.Add(1) == q.n {
		q.Quit()
	}
}

// replayChecking is a checking Game that checks the state after every
// replayed step of a resumed match too.
type replayChecking struct{ *checking }

func (r replayChecking) OnReplay(mc *table.Machine, v *engine.View) {
	r.Game.OnReplay(mc, v)
	r.post(r.check)
}

// TestResumedStateHoldsNoHiddenTile: a match against bots left in its
// first hand and resumed at a new web table (as the web lobby's resume
// does: a fresh Game, the match's directory) gives the page no face its
// seat may not see, from the replayed steps to the match's end.
func TestResumedStateHoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	data := t.TempDir()
	q := &quitting{checking: &checking{Game: NewGame(0), t: t}, n: 12}
	q.Start()
	bots, names := greedyBots(3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := ui.PlayLocal(ctx, q, ui.LocalOptions{Ruleset: "classic:points=1", Name: "ayse", Bots: bots, BotName: names,
		Player: bot.NewGreedy(), Data: data, Strategy: "greedy"})
	if err != nil || !errors.Is(out.Err, ui.ErrQuit) {
		t.Fatalf("the first part: %v %v", err, out.Err)
	}
	un, err := ui.UnfinishedLocal(data)
	if err != nil || len(un) != 1 {
		t.Fatalf("the unfinished match: %+v %v", un, err)
	}
	g := replayChecking{&checking{Game: NewGame(0), t: t}}
	g.Start()
	defer g.Quit()
	var movers []table.Mover
	for range un[0].Bots() {
		movers = append(movers, bot.NewGreedy())
	}
	out, err = ui.PlayLocal(ctx, g, ui.LocalOptions{Resume: un[0].Dir, Bots: movers, Player: bot.NewGreedy(), Data: data})
	if err != nil || out.Err != nil || out.Report == nil || !out.Report.Honest {
		t.Fatalf("the resumed match: %v %+v", err, out)
	}
	g.enough(t, "states of the resumed match")
}
