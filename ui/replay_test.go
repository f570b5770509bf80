package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

func TestReplay(t *testing.T) {
	r, err := LoadReplay(greedyMatch(t, "turkish-rummy:rounds=1", 7))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Report.Honest {
		t.Fatalf("report: %+v", r.Report)
	}
	moves, ends := 0, 0
	for i, f := range r.Frames {
		h := f.Match.Hand()
		if f.End != nil {
			ends++
		}
		if h.Phase() != engine.PhasePlay {
			continue
		}
		moves++
		if f.All == nil {
			t.Fatalf("frame %d: the audited hand's faces are not known", i)
		}
		for seat := 0; seat < 2; seat++ {
			for _, s := range h.Rack(seat) {
				if f.All.Face(h, s) == engine.NoFace {
					t.Fatalf("frame %d: seat %d slot %d has no face", i, seat, s)
				}
			}
		}
	}
	if ends != 1 || moves < 3 {
		t.Fatalf("%d frames: %d in play, %d hand ends", len(r.Frames), moves, ends)
	}

	quit := false
	v, draw := replayScreen(t, r, func() { quit = true })
	key := func(k tcell.Key, c rune) { v.Key(tcell.NewEventKey(k, c, tcell.ModNone)) }
	s := draw()
	if !strings.Contains(s, "move 1/") || !strings.Contains(s, "verified: honest") {
		t.Fatalf("first frame:\n%s", s)
	}
	key(tcell.KeyRight, 0)
	key(tcell.KeyRight, 0)
	if v.At() != 2 || !strings.Contains(draw(), "move 3/") {
		t.Fatalf("two steps on: at %d\n%s", v.At(), draw())
	}
	key(tcell.KeyEnd, 0)
	s = draw()
	if !strings.Contains(s, "winning hand") && !strings.Contains(s, "no winner") {
		t.Fatalf("the last frame does not show the end of the hand:\n%s", s)
	}
	// Every rack is visible: each seat's line of tiles shows faces, no "??".
	if strings.Contains(s, "??") {
		t.Fatalf("a face is hidden in the replay:\n%s", s)
	}
	key(tcell.KeyLeft, 0)
	if v.At() != len(r.Frames)-2 {
		t.Fatalf("left from the end: at %d", v.At())
	}
	key(tcell.KeyUp, 0)
	if v.At() != 0 {
		t.Fatalf("up: at %d", v.At())
	}
	key(tcell.KeyRune, 'q')
	if !quit {
		t.Fatal("q did not quit")
	}
}

// TestReplayOfACutTranscript: a transcript that stops in the middle of a hand
// (a player left) replays up to where it stops, says "unfinished, honest so
// far" in the accent colour, never CHEATING, and the log shows only the
// hand on screen.
func TestReplayOfACutTranscript(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	full := greedyMatch(t, "turkish-rummy", 3)
	whole, err := LoadReplay(full)
	if err != nil {
		t.Fatal(err)
	}
	// Cut in the second hand, a few moves after its start.
	second := -1
	for i, f := range whole.Frames {
		if f.Hand == 1 {
			second = i
			break
		}
	}
	if second < 0 {
		t.Fatal("no second hand")
	}
	cut := *full
	cut.Chain = full.Chain[:whole.Frames[second].Step+1]
	r, err := LoadReplay(&cut)
	if err != nil {
		t.Fatal(err)
	}
	if r.Report.Status() != table.StatusUnfinished {
		t.Fatalf("a cut transcript verifies as %v", r.Report.Status())
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(80, 24)
	v := NewReplayView(r, func() {})
	v.SetRect(0, 0, 80, 24)
	v.Seek(len(r.Frames) - 1)
	scr.Clear()
	v.Draw(scr)
	scr.Show()
	lines := screenLines(scr)
	s := strings.Join(lines, "\n")
	if !strings.Contains(s, "unfinished, honest so far") || strings.Contains(s, "CHEAT") {
		t.Fatalf("the verdict of a cut transcript:\n%s", s)
	}
	if !strings.Contains(s, "hand 2") {
		t.Fatalf("the replay does not reach the second hand:\n%s", s)
	}
	// The verdict line is drawn in the accent colour, not as a fault.
	row := -1
	for i, l := range lines {
		if strings.Contains(l, "unfinished, honest so far") {
			row = i
		}
	}
	col := strings.Index(lines[row], "unfinished")
	if _, style, _ := scr.Get(col, row); true {
		if fg, _, _ := style.Decompose(); fg != Palette256.Accent {
			t.Fatalf("the verdict's colour %v, want the accent %v", fg, Palette256.Accent)
		}
	}
	// The log shows the second hand's moves only: no line of the first
	// hand's end (its winner or "no winner") under the new deal.
	for _, l := range whole.Frames[second-1].Lines {
		var text strings.Builder
		for _, sp := range l {
			text.WriteString(sp.Text)
		}
		if tx := strings.TrimSpace(text.String()); len(tx) > 8 && strings.Contains(s, tx) {
			t.Fatalf("the first hand's log line %q shows in the second hand:\n%s", tx, s)
		}
	}
}

// TestReplayHandStartAndWinningLine: the first frame of a hand says the
// tiles are being dealt (no empty racks, no "stock 0") under no log of the
// hand before; the winning hand has a line of its own; counts read "1 turn".
func TestReplayHandStartAndWinningLine(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	r, err := LoadReplay(greedyMatch(t, "turkish-rummy", 3))
	if err != nil {
		t.Fatal(err)
	}
	v, draw := replayScreen(t, r, func() {})
	show := func(i int) []string {
		v.Seek(i)
		return strings.Split(draw(), "\n")
	}
	starts, wins := 0, 0
	for i, f := range r.Frames {
		lines := show(i)
		s := strings.Join(lines, "\n")
		if strings.Contains(s, " 1 turns") {
			t.Errorf("frame %d says \"1 turns\":\n%s", i, s)
		}
		if i > 0 && r.Frames[i-1].Hand != f.Hand {
			starts++
			if !strings.Contains(s, "being shuffled and dealt") || strings.Contains(s, "stock 0") || strings.Contains(s, "wins with") {
				t.Errorf("the first frame of hand %d:\n%s", f.Hand+1, s)
			}
		}
		for _, l := range lines {
			if at := strings.Index(l, "winning hand"); at >= 0 {
				wins++
				if rest := l[at:]; strings.Contains(rest, "discard") || strings.Contains(rest, "draws") || strings.Contains(rest, "wins") {
					t.Errorf("frame %d: log text on the winning hand's line: %q", i, l)
				}
				if at > 0 && strings.TrimSpace(l[:at]) != "" {
					t.Errorf("frame %d: text before the winning hand: %q", i, l)
				}
			}
		}
	}
	if starts < 2 || wins < 1 {
		t.Fatalf("%d hand starts, %d winning hands shown", starts, wins)
	}
}

// TestScoreTableShowsEveryHand: once the audit has opened the tiles, the
// hand's score table shows what every other player held (issue 15, point 4).
func TestScoreTableShowsEveryHand(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	end, m := lastHandEnd(t, greedyMatch(t, "turkish-rummy:rounds=1", 7), 2)
	snap := TakeSnapshot(m, nil, 0)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(80, 24)
	v := NewTableView(func() {})
	v.SetRect(0, 0, 80, 24)
	v.Update(snap, nil, []*HandEnd{end})
	scr.Clear()
	v.Draw(scr)
	scr.Show()
	s := strings.Join(screenLines(scr), "\n")
	if !strings.Contains(s, "opened by the audit") {
		t.Fatalf("the score table does not show the other hands:\n%s", s)
	}
	loser := 1 - end.Result.Winner
	if end.Result.Winner < 0 {
		loser = 0
	}
	// The rack in face order, one space apart and two between colours.
	var tiles []int
	for _, l := range snap.Finished {
		if l.Hand == end.Hand {
			tiles = l.Tiles
		}
	}
	var faces []engine.Face
	for _, sl := range end.Racks[loser] {
		faces = append(faces, engine.Tile(tiles[sl]).Face())
	}
	slices.SortFunc(faces, func(a, b engine.Face) int { return faceKey(a) - faceKey(b) })
	want := fmt.Sprintf("%-10.10s %s", end.Names[loser], tileList(faces, true))
	for _, l := range screenLines(scr) {
		if strings.TrimSpace(strings.Trim(l, "│")) == want {
			return
		}
	}
	t.Fatalf("no line %q with the %d tiles of %s:\n%s", want, len(end.Racks[loser]), end.Names[loser], s)
}

// greedyMatch plays a match of two greedy bots on ruleset, its shuffles
// fixed by seed, and returns its transcript.
func greedyMatch(t *testing.T, ruleset string, seed uint64) *table.Transcript {
	t.Helper()
	return greedyMatchN(t, ruleset, 2, seed)
}

// greedyMatchN is greedyMatch with n greedy players; each seat's seeds and
// nonces come from the seed too, so it is the same match at every run.
// The match is played once per test binary (greedyMatches: several tests
// read the same one) and each caller gets its own copy.
func greedyMatchN(t *testing.T, ruleset string, n int, seed uint64) *table.Transcript {
	t.Helper()
	v, _ := greedyMatches.LoadOrStore(fmt.Sprintf("%s/%d/%d", ruleset, n, seed), new(playedMatch))
	m := v.(*playedMatch)
	m.once.Do(func() {
		var movers []table.Mover
		for i := 0; i < n; i++ {
			b, _ := bot.New("greedy", uint64(i))
			movers = append(movers, b)
		}
		res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: ruleset, Movers: movers, Seed: seed, Rands: seededRands(n, seed)})
		if err != nil {
			m.err = err
			return
		}
		var buf bytes.Buffer
		m.err = table.WriteTranscript(&buf, res.Transcript(-1))
		m.file = buf.Bytes()
	})
	if m.err != nil {
		t.Fatal(m.err)
	}
	tr, err := table.ReadTranscript(bytes.NewReader(m.file))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// greedyMatches holds greedyMatchN's matches by their arguments.
var greedyMatches sync.Map

type playedMatch struct {
	once sync.Once
	file []byte
	err  error
}

// lastHandEnd replays tr: its last hand end, which must list the racks of
// players players (the audit opened them), and a machine at the
// transcript's end.
func lastHandEnd(t *testing.T, tr *table.Transcript, players int) (*HandEnd, *table.Machine) {
	t.Helper()
	r, err := LoadReplay(tr)
	if err != nil {
		t.Fatal(err)
	}
	var end *HandEnd
	for _, f := range r.Frames {
		if f.End != nil {
			end = f.End
		}
	}
	if end == nil || len(end.Racks) != players {
		t.Fatalf("no hand end with %d racks: %+v", players, end)
	}
	m := applyChain(t, tr, len(tr.Chain), nil)
	return end, m
}

// applyChain applies the first n messages of tr's chain to a new machine of
// its table, calling each (when not nil) after every one, and returns the
// machine.
func applyChain(t *testing.T, tr *table.Transcript, n int, each func(*table.Machine)) *table.Machine {
	t.Helper()
	m, err := table.NewMachine(tr.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range tr.Chain[:n] {
		env, err := table.DecodeEnvelope(raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(env); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(m)
		}
	}
	return m
}

// replayScreen shows r on a simulated 80x24 screen; draw draws the view and
// returns the screen's lines.
func replayScreen(t *testing.T, r *Replay, quit func()) (*ReplayView, func() string) {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(80, 24)
	v := NewReplayView(r, quit)
	v.SetRect(0, 0, 80, 24)
	return v, func() string {
		scr.Clear()
		v.Draw(scr)
		scr.Show()
		return strings.Join(screenLines(scr), "\n")
	}
}

// TestReplayOfVersion1: a transcript an earlier okey wrote (table protocol
// 1, sequential rounds: the frozen conformance suite's) replays by its own
// version's rules, every move a frame.
func TestReplayOfVersion1(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	for _, name := range []string{"honest-classic-3", "honest-101-3"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "conformance", "v1", "transcripts", name+".okey"))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := table.ReadTranscript(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r, err := LoadReplay(tr)
		if err != nil {
			t.Fatal(err)
		}
		moves := 0
		for _, raw := range tr.Chain {
			if e, err := table.DecodeEnvelope(raw); err == nil && e.Kind == table.KindMove {
				moves++
			}
		}
		if !r.Report.Honest || len(r.Frames) < moves {
			t.Fatalf("%s: honest %v, %d frames for %d moves", name, r.Report.Honest, len(r.Frames), moves)
		}
	}
}
