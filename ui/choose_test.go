package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
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
