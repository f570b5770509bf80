package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

func TestChooseByKeyAndClick(t *testing.T) {
	for _, tc := range []struct {
		name string
		act  func(scr tcell.SimulationScreen, s string)
		want int
	}{
		{"key", func(scr tcell.SimulationScreen, _ string) { scr.InjectKey(tcell.KeyRune, 'n', tcell.ModNone) }, 1},
		{"enter", func(scr tcell.SimulationScreen, _ string) { scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) }, 0},
		{"quit", func(scr tcell.SimulationScreen, _ string) { scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone) }, -1},
		{"click", func(scr tcell.SimulationScreen, s string) {
			for y, l := range strings.Split(s, "\n") {
				if x := strings.Index(l, "a new match"); x >= 0 {
					scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
					scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
				}
			}
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scr := tcell.NewSimulationScreen("UTF-8")
			if err := scr.Init(); err != nil {
				t.Fatal(err)
			}
			g := NewGame(0, Options{Screen: scr})
			scr.SetSize(80, 24)
			got := make(chan int, 2)
			g.Choose("an unfinished match", []string{"classic vs bot1"}, []Choice{{'r', "resume it"}, {'n', "a new match"}},
				func(i int) { got <- i })
			ran := make(chan error, 1)
			go func() { ran <- g.Run() }()
			s := waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "a new match") })
			tc.act(scr, s)
			select {
			case i := <-got:
				if i != tc.want {
					t.Fatalf("answer %d, want %d", i, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no answer")
			}
			g.Quit()
			select {
			case <-ran:
			case <-time.After(5 * time.Second):
				t.Fatal("the application did not stop")
			}
		})
	}
}

// TestResumeQuestionListsEveryMatch: every unfinished match is offered,
// the newest first, each on its own key; the second key resumes the second.
func TestResumeQuestionListsEveryMatch(t *testing.T) {
	at := time.Date(2026, 3, 4, 12, 0, 0, 0, time.Local)
	var un []LocalMatch
	for i, rs := range []string{"classic", "german", "turkish-rummy"} {
		un = append(un, LocalMatch{Dir: rs, Ruleset: rs, Names: []string{"ayse", "bot1"}, Started: at.Add(-time.Duration(i) * time.Hour)})
	}
	lines, choices, shown := ResumeQuestion(un, "start a new match")
	if len(shown) != 3 || len(choices) != 4 || choices[3].Key != 'n' {
		t.Fatalf("choices %+v for %d matches", choices, len(un))
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	scr.SetSize(80, 24)
	got := make(chan int, 2)
	g.Choose("unfinished matches", lines, choices, func(i int) { got <- i })
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	s := waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "a new match") })
	for i, want := range []string{"1  resume classic vs bot1, started Mar 4 12:00", "2  resume german vs bot1, started Mar 4 11:00",
		"3  resume turkish-rummy vs bot1, started Mar 4 10:00", "n  start a new match", "You left 3 matches"} {
		if !strings.Contains(s, want) {
			t.Fatalf("line %d: no %q on the question:\n%s", i, want, s)
		}
	}
	scr.InjectKey(tcell.KeyRune, '2', tcell.ModNone)
	select {
	case i := <-got:
		if i != 1 || shown[i].Dir != "german" {
			t.Fatalf("answer %d, want 1 (german)", i)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer")
	}
	g.Quit()
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the application did not stop")
	}
	// More than nine: the newest nine, and a count of the rest.
	for len(un) < 11 {
		un = append(un, un[0])
	}
	lines, choices, shown = ResumeQuestion(un, "new")
	if len(shown) != 9 || len(choices) != 10 || !strings.Contains(strings.Join(lines, " "), "2 older matches") {
		t.Fatalf("11 matches: %q, %d choices", lines, len(choices))
	}
}

// leaveBrokenMatch leaves an unfinished match against a bot under data (the
// bot breaks at its first move) and returns its outcome.
func leaveBrokenMatch(t *testing.T, data string) *LocalOutcome {
	t.Helper()
	rules := engine.MustRuleset("turkish-rummy", "rounds=1").String()
	tr := startLocal(t, LocalOptions{Ruleset: rules, Name: "ayse", Bots: []table.Mover{brokenMover{}}, BotName: []string{"bot1"},
		Strategy: "greedy", Data: data})
	defer func() { tr.g.app.Stop(); <-tr.ran }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case r := <-tr.done:
			if r.err != nil || r.out == nil {
				t.Fatalf("outcome %+v, %v", r.out, r.err)
			}
			return r.out
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the match did not end when its bot broke")
		}
		var screen string
		tr.onUI(func() { screen = strings.Join(screenLines(tr.scr), "\n") })
		switch {
		case strings.Contains(screen, "your turn: draw"):
			tr.press('d')
		case strings.Contains(screen, "your turn: discard"):
			tr.press('x')
		}
		time.Sleep(50 * time.Millisecond) // a poll, bounded by the deadline
	}
}

// TestAskResumeDrops (issue 24 §15): d then a match's key drops it from the
// question: it moves whole to DATA/dropped, its transcript still verifies
// as unfinished, it is no longer offered, and the question comes back; enter
// in the drop question drops nothing, q there goes back.
func TestAskResumeDrops(t *testing.T) {
	data := t.TempDir()
	first := leaveBrokenMatch(t, data)
	second := leaveBrokenMatch(t, data)
	un, err := UnfinishedLocal(data)
	if err != nil || len(un) != 2 || un[0].Dir != second.Dir {
		t.Fatalf("unfinished: %+v, %v", un, err)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	g := NewGame(0, Options{Screen: scr})
	scr.SetSize(80, 24)
	got := make(chan string, 4)
	g.AskResume(data, un, "start a new match", func(m LocalMatch) { got <- "resume " + m.Dir },
		func() { got <- "new" }, func() { got <- "quit" })
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	key := func(k tcell.Key, r rune) { scr.InjectKey(k, r, tcell.ModNone) }
	waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool {
		return strings.Contains(s, "2  resume") && strings.Contains(s, "d  drop a match")
	})
	key(tcell.KeyRune, 'd')
	waitScreen(t, g, scr, 5*time.Second, "the drop question", func(s string) bool {
		return strings.Contains(s, "2  drop") && strings.Contains(s, "q  back")
	})
	key(tcell.KeyEnter, 0) // takes nothing here
	key(tcell.KeyRune, '2')
	s := waitScreen(t, g, scr, 5*time.Second, "the question again", func(s string) bool { return strings.Contains(s, "dropped: ") })
	if strings.Contains(s, "2  resume") || !strings.Contains(s, "1  resume") {
		t.Fatalf("the question after the drop:\n%s", s)
	}
	// The older match moved whole; its transcript verifies as unfinished.
	to := filepath.Join(data, DroppedDir, filepath.Base(first.Dir))
	rel, err := filepath.Rel(first.Dir, first.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(to, rel))
	if err != nil {
		t.Fatalf("the dropped transcript: %v", err)
	}
	if tt, err := table.ReadTranscript(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	} else if rep := table.Verify(tt); rep.Status() != table.StatusUnfinished {
		t.Fatalf("the dropped transcript verifies %v", rep.Status())
	}
	if _, err := os.Stat(filepath.Join(to, table.LocalMatchFile)); err != nil {
		t.Fatalf("the match file (the seats' seeds) is not kept: %v", err)
	}
	if un, err := UnfinishedLocal(data); err != nil || len(un) != 1 || un[0].Dir != second.Dir {
		t.Fatalf("unfinished after the drop: %+v, %v", un, err)
	}
	// q in the drop question goes back; q in the question leaves.
	key(tcell.KeyRune, 'd')
	waitScreen(t, g, scr, 5*time.Second, "the drop question", func(s string) bool { return strings.Contains(s, "1  drop") })
	key(tcell.KeyRune, 'q')
	waitScreen(t, g, scr, 5*time.Second, "the question", func(s string) bool { return strings.Contains(s, "1  resume") })
	select {
	case a := <-got:
		t.Fatalf("answered %q before the last q", a)
	default:
	}
	key(tcell.KeyRune, 'q')
	select {
	case a := <-got:
		if a != "quit" {
			t.Fatalf("answer %q, want quit", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no answer")
	}
	g.Quit()
	<-ran
	// A path outside DATA/matches is refused, and nothing moves.
	if _, err := DropLocal(data, LocalMatch{Dir: filepath.Join(data, "elsewhere", "local-x")}); err == nil {
		t.Fatal("dropped a match outside DATA/matches")
	}
}
