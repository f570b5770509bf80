package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// The screen snapshots (testdata/screens): both games' table screens at
// three sizes, in English and Turkish, through a fixed sequence of scenes
// (the move asked for, a refusal, a selection, the panels). They were
// recorded before the table screen was split into a part per game, so that
// the split changes nothing a player sees; go test -run TestScreens
// -update records them again.
var updateScreens = flag.Bool("update", false, "record the screen snapshots of testdata/screens again")

// goldenClock is the fixed time every snapshot is drawn at.
var goldenClock = time.Unix(1_700_000_000, 0)

// scene is one step of a snapshot sequence: what to do, then the screen.
type scene struct {
	name string
	do   func(hs *harness, s *Snapshot)
}

// screenDump writes the screen's text and, under it, its styles: a letter
// a style (in order of first use), each row as runs of letters, and the
// legend.
func screenDump(scr tcell.SimulationScreen) string {
	cells, w, h := scr.GetContents()
	var b strings.Builder
	b.WriteString("== text\n")
	for _, l := range screenLines(scr) {
		b.WriteString(strings.TrimRight(l, " ") + "\n")
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	ids := map[tcell.Style]int{}
	var legend []string
	b.WriteString("== styles\n")
	for y := 0; y < h; y++ {
		// A row is written as runs: 12a3b is twelve cells of a, three of b.
		run, last := 0, -1
		flush := func() {
			if run > 0 {
				fmt.Fprintf(&b, "%d%c", run, letters[last%len(letters)])
			}
		}
		for x := 0; x < w; x++ {
			st := cells[y*w+x].Style
			id, ok := ids[st]
			if !ok {
				id = len(ids)
				ids[st] = id
				fg, bg, attr := st.Decompose()
				legend = append(legend, fmt.Sprintf("%c fg=%v bg=%v attr=%d", letters[id%len(letters)], fg, bg, attr))
			}
			if id != last {
				flush()
				run, last = 0, id
			}
			run++
		}
		flush()
		b.WriteByte('\n')
	}
	b.WriteString("== legend\n")
	b.WriteString(strings.Join(legend, "\n") + "\n")
	return b.String()
}

// goldenHarness is a harness of the given size on the fixed clock.
func goldenHarness(t *testing.T, s *Snapshot, w, h int) *harness {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	hs := &harness{t: t, scr: scr}
	hs.view = NewTableView(func() { hs.quit = true })
	hs.view.m.Now = func() time.Time { return goldenClock }
	hs.view.SetPalette(Palette256)
	hs.view.SetRect(0, 0, w, h)
	return hs
}

// classicScenes play the classic table: the move asked for, a refusal, the
// hint, a tile lifted and moved, the help, the quit question, a hand's end.
func classicScenes(t *testing.T) (*Snapshot, []Line, []scene) {
	s, lines := playedFixture(t)
	s.At = goldenClock
	return s, lines, []scene{
		{"waiting", func(hs *harness, s *Snapshot) {}},
		{"asked", func(hs *harness, s *Snapshot) { hs.request() }},
		{"refused", func(hs *harness, s *Snapshot) { hs.keys("x") }},
		{"nothing", func(hs *harness, s *Snapshot) { hs.keys("z") }},
		{"hint", func(hs *harness, s *Snapshot) { hs.keys("h") }},
		{"lifted", func(hs *harness, s *Snapshot) { hs.keys(" "); hs.key(tcell.KeyRight, 0) }},
		{"moved", func(hs *harness, s *Snapshot) { hs.keys(" ") }},
		{"sorted", func(hs *harness, s *Snapshot) { hs.keys("r") }},
		{"help", func(hs *harness, s *Snapshot) { hs.keys("?") }},
		{"quit", func(hs *harness, s *Snapshot) { hs.keys(" q") }},
		{"stay", func(hs *harness, s *Snapshot) { hs.keys("n") }},
		{"handend", func(hs *harness, s *Snapshot) {
			names := s.Names
			hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: engine.HandResult{Winner: -1}, Names: names,
				Deltas: make([]int, 4), Scores: []int{20, 20, 20, 20}}})
			hs.draw()
		}},
		{"matchend", func(hs *harness, s *Snapshot) {
			hs.view.Finish(&MatchEnd{Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 20}, {Seat: 1, Place: 2}, {Seat: 2, Place: 3}, {Seat: 3, Place: 4}},
				Verified: true, Verdict: Verdict(&table.Report{Honest: true, Steps: 61, Hands: make([]table.HandLog, 1)})})
			hs.key(tcell.KeyEnter, 0)
		}},
	}
}

// scenes101 play a 101 round: the move asked for, refusals, the draw, a
// selection and its value, the opening laid, the help, the quit question,
// the round's end.
func scenes101(t *testing.T) (*Snapshot, []Line, []scene) {
	s := fixture101(t, "timer=60")
	s.At = goldenClock
	var reply chan engine.Action101
	return s, nil, []scene{
		{"waiting", func(hs *harness, s *Snapshot) {}},
		{"asked", func(hs *harness, s *Snapshot) { reply = hs.request101() }},
		{"refused", func(hs *harness, s *Snapshot) { hs.keys("x") }},
		{"nothing", func(hs *harness, s *Snapshot) { hs.keys("z") }},
		{"drawn", func(hs *harness, s *Snapshot) {
			hs.keys("d")
			hs.apply(s, <-reply)
			reply = hs.request101()
		}},
		{"taken", func(hs *harness, s *Snapshot) { hs.keys("t") }},
		{"selected", func(hs *harness, s *Snapshot) { hs.selectFaces("R10 R11 R12") }},
		{"loose", func(hs *harness, s *Snapshot) { hs.selectFaces("Y3") }},
		{"badlay", func(hs *harness, s *Snapshot) { hs.keys("l") }},
		{"cleared", func(hs *harness, s *Snapshot) { hs.keys("c") }},
		{"opening", func(hs *harness, s *Snapshot) { hs.selectFaces(opening101) }},
		{"laid", func(hs *harness, s *Snapshot) {
			hs.keys("l")
			hs.apply(s, <-reply)
			reply = hs.request101()
		}},
		{"hint", func(hs *harness, s *Snapshot) { hs.keys("h") }},
		{"lifted", func(hs *harness, s *Snapshot) { hs.keys("m"); hs.key(tcell.KeyRight, 0) }},
		{"help", func(hs *harness, s *Snapshot) { hs.keys("m?") }},
		{"quit", func(hs *harness, s *Snapshot) { hs.keys(" q") }},
		{"stay", func(hs *harness, s *Snapshot) { hs.keys("n") }},
		{"roundend", func(hs *harness, s *Snapshot) {
			hs.view.Update(s, nil, []*HandEnd{roundEnd101()})
			hs.draw()
		}},
		{"matchend", func(hs *harness, s *Snapshot) {
			hs.view.Finish(&MatchEnd{Ranking: []engine.Standing{{Seat: 1, Place: 1, Score: -202}, {Seat: 0, Place: 2, Score: 505}},
				Verified: true, Verdict: Verdict(&table.Report{Honest: true, Steps: 61, Hands: make([]table.HandLog, 1)})})
			hs.key(tcell.KeyEnter, 0)
		}},
	}
}

// TestScreens compares both games' table screens, scene by scene, at
// 80x24, 100x30 and 120x36, in English and Turkish, with the recorded
// snapshots.
func TestScreens(t *testing.T) {
	lane.NoRace(t)
	games := []struct {
		name   string
		scenes func(t *testing.T) (*Snapshot, []Line, []scene)
	}{{"classic", classicScenes}, {"101", scenes101}}
	for _, g := range games {
		for _, lang := range i18n.Langs {
			for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 36}} {
				name := fmt.Sprintf("%s-%s-%dx%d", g.name, lang, sz[0], sz[1])
				t.Run(name, func(t *testing.T) {
					i18n.Set(lang)
					t.Cleanup(func() { i18n.Set(i18n.English) })
					s, lines, scenes := g.scenes(t)
					hs := goldenHarness(t, s, sz[0], sz[1])
					hs.view.Update(s, lines, nil)
					hs.draw()
					var b strings.Builder
					for i, sc := range scenes {
						sc.do(hs, s)
						hs.draw()
						fmt.Fprintf(&b, "#### %d %s · message %q bad=%v\n", i, sc.name, hs.view.Message(), hs.view.m.MsgBad)
						b.WriteString(screenDump(hs.scr))
					}
					checkGolden(t, filepath.Join("testdata", "screens", name+".txt"), b.String())
				})
			}
		}
	}
}

// checkGolden compares got with the file, or records it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *updateScreens {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record with go test -run TestScreens -update)", err)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			// The scene the first difference is in.
			head := ""
			for j := i; j >= 0 && j < len(gl); j-- {
				if strings.HasPrefix(gl[j], "#### ") {
					head = gl[j]
					break
				}
			}
			t.Fatalf("%s differs from the recording at line %d (%s):\nwant %q\n got %q", path, i+1, head, w, g)
		}
	}
}
