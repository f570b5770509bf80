package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestTileRows: a list of tiles is split between tiles, each row at most
// the width given, tiles one space apart and two between colours.
func TestTileRows(t *testing.T) {
	for _, tc := range []struct {
		faces    string
		w        int
		byColour bool
		want     []string
	}{
		{"R1 R5 Y2 Y7 K13 FJ", 80, true, []string{"R1 R5  Y2 Y7  K13  FJ"}},
		{"R1 R5 Y2 Y7 K13 FJ", 80, false, []string{"R1 R5 Y2 Y7 K13 FJ"}},
		{"R1 R5 Y2 Y7 K13 FJ", 12, true, []string{"R1 R5  Y2 Y7", "K13  FJ"}},
		{"R1 R5 Y2 Y7 K13 FJ", 11, true, []string{"R1 R5  Y2", "Y7  K13  FJ"}},
		{"R1 R5 Y2 Y7 K13 FJ", 8, true, []string{"R1 R5", "Y2 Y7", "K13  FJ"}},
		{"R10 R11", 2, true, []string{"R10", "R11"}},
	} {
		var got []string
		for _, r := range tileRows(engine.MustParseFaces(tc.faces), tc.w, tc.byColour) {
			got = append(got, tileList(r, tc.byColour))
			if n := tilesWidth(r, tc.byColour); n > tc.w && len(r) > 1 {
				t.Errorf("%s in %d: a row of %d cells", tc.faces, tc.w, n)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s in %d cells: %q, want %q", tc.faces, tc.w, got, tc.want)
		}
	}
}

// TestTileLine: a list of tiles on one row draws every tile that fits and
// says how many it left out: "+N" after a rack's first tiles, before a
// pile's latest.
func TestTileLine(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 1)
	for _, tc := range []struct {
		faces            string
		w                int
		byColour, latest bool
		want             string
	}{
		{"R1 R5 Y2 Y7 K13 FJ", 40, true, false, "R1 R5  Y2 Y7  K13  FJ"},
		{"R1 R5 Y2 Y7 K13 FJ", 15, true, false, "R1 R5  Y2 Y7 +2"},
		{"R1 R5 Y2 Y7 K13 FJ", 15, false, true, "+2 Y2 Y7 K13 FJ"},
		{"R1 R5 Y2 Y7 K13 FJ", 2, false, true, "+6"},
	} {
		scr.Clear()
		end := drawTileLine(scr, Palette256, 0, 0, tc.w, engine.MustParseFaces(tc.faces), engine.NoFace, tc.byColour, tc.latest, tcell.StyleDefault)
		scr.Show()
		got := strings.TrimRight(screenLines(scr)[0], " ")
		if got != tc.want || end != width(tc.want) {
			t.Errorf("%s in %d cells: %q ending at %d, want %q", tc.faces, tc.w, got, end, tc.want)
		}
	}
}

// tileList writes faces as a panel lists them: one space apart, two
// between colours when byColour.
func tileList(faces []engine.Face, byColour bool) string {
	var b strings.Builder
	for i, f := range faces {
		if i > 0 {
			b.WriteString(" ")
			if byColour && colourOf(faces[i-1]) != colourOf(f) {
				b.WriteString(" ")
			}
		}
		b.WriteString(f.String())
	}
	return b.String()
}

func colourOf(f engine.Face) int {
	if f == engine.FalseJoker {
		return -1
	}
	return int(f.Colour())
}

// TestReplayListsRacksAsTiles: the replay lists every seat's rack as a
// player reads it, in face order, each tile as wide as its text, one
// space apart and two between colours, as the log writes tiles (it drew
// 3-cell slots, "K9  R3", and dropped the tiles past the screen's edge
// without a word).
func TestReplayListsRacksAsTiles(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	r, err := LoadReplay(greedyMatch(t, "turkish-rummy:rounds=1", 7))
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, f := range r.Frames {
		if f.Match.Hand().Phase() == engine.PhasePlay && f.All != nil && f.Match.Hand().Turns() > 4 {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no frame in play")
	}
	v, draw := replayScreen(t, r, func() {})
	v.Seek(at)
	s := draw()
	f := r.Frames[at]
	h := f.Match.Hand()
	for seat := range r.Names {
		faces := sortedFaces(h.Rack(seat), func(sl engine.Slot) engine.Face { return f.All.Face(h, sl) })
		if want := "   " + tileList(faces, true); !slices.ContainsFunc(strings.Split(s, "\n"), func(l string) bool {
			return strings.TrimRight(l, " ") == want
		}) {
			t.Errorf("seat %d's rack is not listed as %q:\n%s", seat, want, s)
		}
	}
}
