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
