package web

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/browsertest"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// The pages of a table seen from no seat: a spectator's (okey watch
// --web) fed by the spectator's own feed (ui.WatchFeed, as okey watch
// feeds the terminal's screen) and a transcript's replay (okey replay
// --web); and the rule that a spectator's page holds no face the table
// has not opened to all.

// spectated is a seat's front (a bot plays it) whose every step also
// feeds a spectator's page, as the table's spectator sees it: the
// machine's public state (a snapshot from no seat) and the hands' audits.
type spectated struct {
	*Game
	feed  ui.WatchFeed
	page  *Frames
	check func()
	steps atomic.Int32
}

func (s *spectated) OnStep(mc *table.Machine, v *engine.View) {
	s.Game.OnStep(mc, v)
	s.page.Add(s.feed.Step(mc))
	if s.check != nil {
		s.check()
	}
	s.steps.Add(1)
}

// boardDOM is what the board tests read from the page.
type boardDOM struct {
	Frame   int      `json:"frame"`
	Frames  int      `json:"frames"`
	Where   string   `json:"where"`
	Verdict string   `json:"verdict"`
	Good    bool     `json:"good"`
	Open    []string `json:"open"` // every face on the seats' racks
	Backs   int      `json:"backs"`
	Melds   int      `json:"melds"`
	Rack    int      `json:"rack"` // tiles on a rack of the viewer's own (none)
	Shown   bool     `json:"shown"`
}

const readBoard browsertest.DOM[boardDOM] = `(() => {
	const q = (s) => document.querySelector(s);
	return {
		frame: Number(document.body.dataset.frame || 0),
		frames: Number(document.body.dataset.frames || 0),
		where: (q('#where') || {textContent: ''}).textContent,
		verdict: (q('#board-verdict') || {textContent: ''}).textContent,
		good: !!q('#board-verdict.good'),
		open: [...document.querySelectorAll('.seat .open .tile:not(.back)')].map((e) => e.dataset.face),
		backs: document.querySelectorAll('.seat .open .tile.back').length,
		melds: document.querySelectorAll('#melds .meld').length,
		rack: document.querySelectorAll('#rack .tile').length,
		shown: getComputedStyle(q('#board')).display !== 'none' && getComputedStyle(q('#rack')).display === 'none',
	};
})()`

// serveFrames serves f and opens its page in a new tab.
func serveFrames(t *testing.T, ctx context.Context, f *Frames) context.Context {
	t.Helper()
	srv := serve(t)(ListenFrames(f, 0))
	return browsertest.Page(t, ctx, srv.URL(), "#board")
}

// play101 plays an Okey 101 match of bots (one in the player's seat) for
// front, its data under data.
func play101(t *testing.T, front ui.LocalFront, data string, pace time.Duration) *ui.LocalOutcome {
	t.Helper()
	bots, names := botsFor("101", 3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := ui.PlayLocal(ctx, front, ui.LocalOptions{Ruleset: "101:rounds=3", Name: "ayse", Bots: bots, BotName: names,
		Player: bot.NewB101(), Data: data, Pace: pace})
	if err != nil || out.Err != nil {
		t.Fatalf("the match: %v %v", err, out)
	}
	return out
}

// TestBrowser101Watch: a spectator's page follows an Okey 101 match live
// (the frames as the table plays, the melds on the table, no rack of its
// own, the racks hidden until each round's audit opens them), steps back
// by a key and follows again from the last frame, and gives the verdict
// when the watch ends.
func TestBrowser101Watch(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	g := &spectated{Game: NewGame(0), page: NewWatchPage([]string{"ayse", "ali", "veli", "zeynep"}, "101:rounds=3")}
	g.Start()
	defer g.Quit()
	c := serveFrames(t, ctx, g.page)
	done := make(chan *ui.LocalOutcome, 1)
	// The bots take 10 ms a move: the table plays while the page watches.
	go func() { done <- play101(t, g, t.TempDir(), 10*time.Millisecond) }()
	b := readBoard.Until(t, c, 30*time.Second, "the live table with melds", func(b boardDOM) bool { return b.Frame > 5 && b.Melds > 0 })
	if b.Rack != 0 || !b.Shown {
		t.Errorf("the spectator's page: %+v", b)
	}
	browsertest.Shoot(t, c, "watch-live")
	browsertest.Key(t, c, kb.ArrowLeft)
	back := readBoard.Until(t, c, 5*time.Second, "a step back", func(x boardDOM) bool { return x.Frame > 0 && x.Frame < x.Frames })
	time.Sleep(300 * time.Millisecond)
	if now := readBoard.Until(t, c, time.Second, "the page", func(boardDOM) bool { return true }); now.Frame != back.Frame {
		t.Errorf("the page stepped back to frame %d and moved on to %d while the table played", back.Frame, now.Frame)
	}
	out := <-done
	g.page.End(out.Report, "")
	browsertest.Key(t, c, kb.End)
	end := readBoard.Until(t, c, 10*time.Second, "the verdict at the last frame", func(x boardDOM) bool { return x.Verdict != "" && x.Frame > back.Frame })
	if !end.Good || len(end.Open) == 0 {
		t.Errorf("the end of the watch: %+v", end)
	}
	browsertest.Shoot(t, c, "watch-end")
}

// TestBrowser101Replay: a 101 match's transcript replayed in the page:
// the first frame, steps by keys and buttons, the next hand, the last
// frame, every rack open (the audit), the verdict.
func TestBrowser101Replay(t *testing.T) {
	lane.NoRace(t)
	ctx := browser(t)
	g := NewGame(0)
	g.Start()
	out := play101(t, &botFront{g}, t.TempDir(), 0)
	g.Quit()
	f, err := os.Open(out.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := table.ReadTranscript(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	r, err := ui.LoadReplay(tr)
	if err != nil {
		t.Fatal(err)
	}
	p := NewReplayPage(r)
	c := serveFrames(t, ctx, p)
	b := readBoard.Until(t, c, 5*time.Second, "the first frame", func(b boardDOM) bool { return b.Frame == 1 })
	if !b.Good || !strings.Contains(b.Verdict, "honest") || len(b.Open) == 0 || b.Rack != 0 {
		t.Errorf("the replay's first frame: %+v", b)
	}
	browsertest.Do(t, c, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight))
	readBoard.Until(t, c, 5*time.Second, "two steps", func(b boardDOM) bool { return b.Frame == 3 })
	browsertest.Click(t, c, "#board button[data-op=back]")
	readBoard.Until(t, c, 5*time.Second, "a step back", func(b boardDOM) bool { return b.Frame == 2 })
	browsertest.Key(t, c, kb.ArrowDown)
	h := readBoard.Until(t, c, 5*time.Second, "the next hand", func(b boardDOM) bool { return strings.HasPrefix(b.Where, "round 2") })
	browsertest.Shoot(t, c, "replay-hand2")
	browsertest.Click(t, c, "#board button[data-op=last]")
	last := readBoard.Until(t, c, 5*time.Second, "the last frame", func(b boardDOM) bool { return b.Frame == len(r.Frames) })
	if last.Frame <= h.Frame {
		t.Errorf("the last frame %d, the second hand's %d", last.Frame, h.Frame)
	}
	browsertest.Shoot(t, c, "replay-last")
	browsertest.Key(t, c, kb.Home)
	readBoard.Until(t, c, 5*time.Second, "the first frame again", func(b boardDOM) bool { return b.Frame == 1 })
}

// botFront is a Game whose seat a bot plays (LocalOptions.Player): the
// front only shows.
type botFront struct{ *Game }

// TestWatchStateHoldsNoHiddenTile: every state of a spectator's page over
// an Okey 101 match holds on the seats' racks only faces the round showed
// everyone (its public faces), until the round's audit makes every tile
// public; and it never has a rack of its own.
func TestWatchStateHoldsNoHiddenTile(t *testing.T) {
	lane.NoRace(t)
	g := &spectated{Game: NewGame(0), page: NewWatchPage([]string{"ayse", "ali", "veli", "zeynep"}, "101:rounds=3")}
	g.Start()
	defer g.Quit()
	var checked, open int
	g.check = func() {
		var st stateJSON
		g.page.mu.Lock()
		b := g.page.state
		var fr ui.Frame
		if n := len(g.page.r.Frames); n > 0 {
			fr = g.page.r.Frames[g.page.at]
		}
		g.page.mu.Unlock()
		if err := json.Unmarshal(b, &st); err != nil || fr.Match101 == nil {
			return
		}
		if len(st.Rack) != 0 {
			t.Errorf("a spectator's page with a rack: %v", st.Rack)
		}
		r := fr.Match101.Game()
		for seat, se := range st.Seats {
			for i, f := range se.Open {
				if f == nil {
					continue
				}
				sl := r.Rack(seat)[i]
				pub := r.PublicFace(sl)
				if fr.All == nil && (pub == engine.NoFace || pub.String() != f.S) {
					t.Errorf("round %d: seat %d's rack shows %s, not open to all", st.Hand, seat, f.S)
				}
				if fr.All != nil && fr.All.Face(r, sl).String() != f.S {
					t.Errorf("round %d: seat %d's rack shows %s, the audit says %v", st.Hand, seat, f.S, fr.All.Face(r, sl))
				}
				open++
			}
		}
		checked++
	}
	play101(t, g, t.TempDir(), 0)
	if checked < 50 {
		t.Fatalf("%d states checked", checked)
	}
	t.Logf("%d states checked, %d faces on the seats' racks", checked, open)
}

// TestFramesRace is the race detector's share of the spectator's page: the
// table's steps (Add) and the page's commands cross on Frames.
func TestFramesRace(t *testing.T) {
	lane.RaceOnly(t)
	g := &spectated{Game: NewGame(0), page: NewWatchPage([]string{"ayse", "ali", "veli", "zeynep"}, "classic")}
	g.Start()
	defer g.Quit()
	states, stop := g.page.subscribe()
	defer stop()
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		for {
			select {
			case <-states:
				g.page.do(command{Op: "back"})
				g.page.do(command{Op: "last"})
			case <-quit:
				return
			}
		}
	}()
	raceMatch(t, g)
	if g.steps.Load() == 0 {
		t.Fatal("no step reached the page")
	}
}
