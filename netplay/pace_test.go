package netplay

import (
	"testing"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestPace (issue 37, 7): a bot given a pace waits it before every move; a
// bot with only a watched pace waits it while the table has spectators and
// not otherwise; a zero pace is the mover itself; the 101 bot stays a 101
// mover; a cancelled wait ends at once. The clock is injected: the waits
// asked are recorded, nothing sleeps.
func TestPace(t *testing.T) {
	var asked []time.Duration
	now := func(d time.Duration) <-chan time.Time {
		asked = append(asked, d)
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c
	}
	g := &fixedMover{engine.Action{Kind: engine.ActDraw, Seat: 2}}
	if m := paceMover(g, Pace{}, func() bool { return true }, now); m != table.Mover(g) {
		t.Errorf("a zero pace wraps the mover: %T", m)
	}
	var h *engine.Hand
	var v engine.View
	watched := false
	for _, c := range []struct {
		pace    Pace
		watched bool
		want    []time.Duration
	}{
		{Pace{Every: 2 * time.Second}, false, []time.Duration{2 * time.Second}},
		{Pace{Every: 2 * time.Second, Watched: HumanPace}, true, []time.Duration{2 * time.Second}},
		{Pace{Watched: HumanPace}, false, nil},
		{Pace{Watched: HumanPace}, true, []time.Duration{HumanPace}},
	} {
		asked, watched = nil, c.watched
		m := paceMover(g, c.pace, func() bool { return watched }, now)
		a, err := m.Move(h, &v)
		want, _ := g.Move(h, &v)
		if err != nil || a.Kind != want.Kind || a.Seat != want.Seat {
			t.Errorf("%+v: the paced move %+v, %v; the bot's %+v", c.pace, a, err, want)
		}
		if len(asked) != len(c.want) || (len(asked) > 0 && asked[0] != c.want[0]) {
			t.Errorf("%+v watched %v: waited %v, want %v", c.pace, c.watched, asked, c.want)
		}
	}
	if _, ok := paceMover(bot.NewB101(), Pace{Every: time.Second}, nil, now).(table.Mover101); !ok {
		t.Error("the paced 101 bot plays no 101")
	}
	// A cancelled wait returns at once.
	never := func(time.Duration) <-chan time.Time { return nil }
	pm := paceMover(g, Pace{Every: time.Hour}, nil, never).(*pacedMover)
	done := make(chan struct{})
	go func() { pm.Move(h, &v); close(done) }()
	deadline := time.After(10 * time.Second)
	for {
		pm.mu.Lock()
		waiting := pm.stop != nil
		pm.mu.Unlock()
		if waiting {
			break
		}
		select {
		case <-deadline:
			t.Fatal("the paced mover never waited")
		case <-time.After(time.Millisecond):
		}
	}
	pm.CancelMove()
	select {
	case <-done:
	case <-deadline:
		t.Fatal("a cancelled wait did not end")
	}
}

// fixedMover always makes the same move.
type fixedMover struct{ a engine.Action }

func (f *fixedMover) Move(*engine.Hand, *engine.View) (engine.Action, error) { return f.a, nil }
