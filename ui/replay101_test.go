package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// TestReplay101: a 101 transcript replays (it had "no hand to replay"):
// frames for the round's moves, every rack open from the audit, the melds
// on the table shown as they are laid, and the round's end.
func TestReplay101(t *testing.T) {
	lane.NoRace(t)
	res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: "101:rounds=3",
		Movers: []table.Mover{bot.NewB101(), bot.NewB101()}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	r, err := LoadReplay(res.Transcript(-1))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Report.Honest {
		t.Fatalf("report: %+v", r.Report)
	}
	ends, laid := 0, -1
	for i, f := range r.Frames {
		if f.Match101 == nil {
			t.Fatalf("frame %d has no 101 state", i)
		}
		// A round cancelled by all-doubles is replayed and does not count.
		if f.End != nil && (f.End.R101 == nil || f.End.R101.Result.End != engine.EndCancelled) {
			ends++
		}
		g := f.Match101.Game()
		if laid < 0 && len(g.Melds()) > 0 {
			laid = i
		}
		if g.Phase() == engine.Phase101Play && f.All != nil {
			for seat := 0; seat < 2; seat++ {
				for _, s := range g.Rack(seat) {
					if f.All.Face(g, s) == engine.NoFace {
						t.Fatalf("frame %d: seat %d slot %d has no face", i, seat, s)
					}
				}
			}
		}
	}
	if ends != 3 {
		t.Errorf("%d counted round ends in a 3-round match", ends)
	}
	if laid < 0 {
		t.Fatal("no meld was laid in the whole match")
	}
	v, draw := replayScreen(t, r, func() {})
	v.SetPalette(Palette256)
	v.Seek(laid)
	s := draw()
	for _, want := range []string{"okey replay · 101:rounds=3", "indicator", "bank ", "1 ", "verified: honest"} {
		if !strings.Contains(s, want) {
			t.Errorf("the replay lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, " opens with ") && !strings.Contains(s, " lays ") {
		t.Errorf("the frame where a meld is laid does not say so:\n%s", s)
	}
	// A meld holding an okey writes it as the face it stands for, starred,
	// as the table does (the replay wrote the okey's own face).
	wildAt, want := -1, ""
	for i, f := range r.Frames {
		g := f.Match101.Game()
		for _, md := range g.Melds() {
			for k, sl := range md.Tiles {
				if sp := meldTile(g, md, k, sl); sp.Wild && wildAt < 0 {
					wildAt, want = i, sp.FaceText()
				}
			}
		}
	}
	if wildAt < 0 {
		t.Fatal("no meld of the match holds an okey: the seed no longer tests the starred okey")
	}
	v.Seek(wildAt)
	if s := draw(); !strings.Contains(s, " "+want) {
		t.Errorf("frame %d: no meld writes its okey as %q:\n%s", wildAt, want, s)
	}
	v.Seek(laid)
	s = draw()
	// Every rack in face order, one space apart and two between colours
	// (or its first tiles and how many more, past the screen's width).
	f := r.Frames[laid]
	g := f.Match101.Game()
	lines := strings.Split(s, "\n")
	for seat := 0; seat < 2; seat++ {
		faces := sortedFaces(g.Rack(seat), func(sl engine.Slot) engine.Face { return f.All.Face(g, sl) })
		want := "   " + tileList(faces, true)
		if tilesWidth(faces, true) > 76 {
			continue
		}
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.TrimRight(l, " ") == want }) {
			t.Errorf("seat %d's rack is not listed as %q:\n%s", seat, want, s)
		}
	}
}

// TestReplay101CountsMeldsLeftOut: melds past the replay's last row for
// them are counted ("+2 more"), as the table counts them; they were left
// out silently. The rows run out here in a short frame drawn directly (at
// 80x24 four players' melds rarely need more than the rows there are).
func TestReplay101CountsMeldsLeftOut(t *testing.T) {
	s := finish101(t)
	m := s.Match101
	if n := len(m.Game().Melds()); n != 5 {
		t.Fatalf("%d melds in the position, want 5", n)
	}
	r := &Replay{Names: s.Names, Ruleset: s.Ruleset, Report: &table.Report{Honest: true},
		Frames: []Frame{{Match101: m}}}
	v := NewReplayView(r, func() {})
	v.SetPalette(Palette256)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	for _, h := range []int{11, 12, 24} {
		scr.SetSize(80, h)
		scr.Clear()
		v.draw101(scr, 0, 0, 80, h, r.Frames[0])
		scr.Show()
		shown := 0
		for _, l := range screenLines(scr) {
			for _, f := range strings.Fields(l) {
				if len(f) == 1 && strings.Contains("12345", f) && strings.Contains(l, f+" bot1") {
					shown++
				}
			}
		}
		more := 0
		for _, l := range screenLines(scr) {
			if _, after, ok := strings.Cut(l, "+"); ok {
				fmt.Sscanf(after, "%d more", &more)
			}
		}
		if shown+more != 5 || (h == 24 && more != 0) {
			t.Errorf("80x%d: %d melds shown, %d counted, of 5:\n%s", h, shown, more, strings.Join(screenLines(scr), "\n"))
		}
	}
}
