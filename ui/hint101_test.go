package ui

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestHint101NeverAdvisesAPenalty: through whole 101 matches of b101
// bots, at every turn after the draw the hint seen by the seat to move
// never advises discarding a tile that fits a meld on the table (a
// 101-point penalty) while the rack holds a tile that costs nothing.
func TestHint101NeverAdvisesAPenalty(t *testing.T) {
	if raceDetector {
		t.Skip("whole 101 matches: run without the race detector (make test's non-race line)")
	}
	if os.Getenv("OKEY_HINT101") != "1" {
		// A known defect (issue 24, reopened): in some self-played
		// positions (seed 5, frames 26-27 on the clean-clone CI) the hint
		// still advises a discard that fits a meld; the matches are not
		// reproducible run to run, so it fails only sometimes.
		t.Skip("known defect, issue 24: run with OKEY_HINT101=1")
	}
	discardRE := regexp.MustCompile(`discard the (\S+) \(x\)`)
	checked := 0
	for _, seed := range []uint64{5, 8} { // seed 8 had a hint advising a penalty
		res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: "101:rounds=3",
			Movers: []table.Mover{bot.NewB101(), bot.NewB101(), bot.NewB101()}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		r, err := LoadReplay(res.Transcript(-1))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range r.Frames {
			if f.Match101 == nil || f.All == nil {
				continue
			}
			g := f.Match101.Game()
			seat, drawn, _ := g.Turn()
			if g.Phase() != engine.Phase101Play || !drawn || len(g.Rack(seat)) < 2 {
				continue
			}
			v := engine.NewView(seat)
			for _, sl := range g.Rack(seat) {
				v.Learn(sl, f.All.Face(g, sl))
			}
			s := &Snapshot{Seat: seat, Names: r.Names, Ruleset: r.Ruleset, Match101: f.Match101.Clone(), View: *v,
				Expect: seat, Kind: table.KindMove, At: goldenClock}
			hs := newHarness(t, s, Palette256)
			hs.request101()
			hs.view.Hint()
			msg := hs.view.Message()
			// The hint's line, at every size, cuts no word (it was cut at
			// 120 columns).
			for _, sz := range cutSizes {
				scr := &cutScreen{SimulationScreen: hs.scr}
				scr.SetSize(sz[0], sz[1])
				hs.view.SetRect(0, 0, sz[0], sz[1])
				scr.Clear()
				hs.view.Draw(scr)
				for _, c := range scr.take(fmt.Sprintf("seed %d frame %d at %dx%d", seed, i, sz[0], sz[1])) {
					t.Error(c)
				}
			}
			m := discardRE.FindStringSubmatch(msg)
			if m == nil {
				continue
			}
			checked++
			face := engine.MustParseFaces(m[1])[0]
			if !g.Fits(face) || regexp.MustCompile(`(^| · )add [^·]*`+regexp.QuoteMeta(face.String())+`→`).MatchString(msg) {
				// Free now, or once the adds the hint names first are made.
				continue
			}
			// A tile that costs nothing, not among those the hint lays first.
			laid := hs.p101().sel
			slots, faces := s.View.Rack(g)
			for k, fc := range faces {
				if fc != face && fc != g.Okey() && !g.Fits(fc) && !laid[slots[k]] {
					t.Errorf("seed %d frame %d: the hint %q advises %s, which fits a meld on the table, while %s costs nothing",
						seed, i, msg, face, fc)
					break
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d hints advised a discard", checked)
	}
	t.Logf("%d hints with a discard checked", checked)
}
