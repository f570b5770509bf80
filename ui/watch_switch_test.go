package ui

import (
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"golang.org/x/text/language"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// watchSwitchView is a spectator's screen with the frames of a classic
// match fed to it, and the tables w lists.
// watchSwitchMatch is the match every watch-switch screen shows, played
// once for all of them.
var (
	watchSwitchMu    sync.Mutex
	watchSwitchMatch *table.Transcript
)

func watchSwitchView(t *testing.T, tables []WatchTable) (*WatchView, *[]string) {
	t.Helper()
	watchSwitchMu.Lock()
	if watchSwitchMatch == nil {
		watchSwitchMatch = greedyMatch(t, "classic", 3)
	}
	tr := watchSwitchMatch
	watchSwitchMu.Unlock()
	var names []string
	for _, s := range tr.Config.Seats {
		names = append(names, s.Name)
	}
	v := NewWatchView(names, tr.Config.Ruleset, func() {})
	var feed WatchFeed
	applyChain(t, tr, len(tr.Chain)/2, func(m *table.Machine) { v.Add(feed.Step(m)) })
	var chosen []string
	v.SetTables(func() []WatchTable { return tables }, func(id string) { chosen = append(chosen, id) })
	return v, &chosen
}

func watchPress(v *WatchView, key tcell.Key, r rune) {
	v.InputHandler()(tcell.NewEventKey(key, r, tcell.ModNone), func(tview.Primitive) {})
}

var switchTables = []WatchTable{
	{ID: strings.Repeat("a1", 8), Label: strings.Repeat("a1", 8) + " · Classic · ayse, mehmet, bot1, bot2"},
	{ID: strings.Repeat("b2", 8), Label: strings.Repeat("b2", 8) + " · 101 · zeynep-the-long-name, mehmet, elif, bot3"},
}

// TestWatchSwitchesTables: w at the spectator's screen lists the other
// started tables; a table's key chooses it, Esc keeps the current one;
// with no other table, w says so; the key bar names w.
func TestWatchSwitchesTables(t *testing.T) {
	lane.NoRace(t) // whole screens over a match\'s steps; the watch\'s goroutines are raced in watch_test.go
	for _, lang := range i18n.Langs {
		i18n.Set(lang)
		scr := tcell.NewSimulationScreen("UTF-8")
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		scr.SetSize(80, 24)
		v, chosen := watchSwitchView(t, switchTables)
		v.SetRect(0, 0, 80, 24)
		draw := func() string {
			scr.Clear()
			v.Draw(scr)
			scr.Show()
			return strings.Join(screenLines(scr), "\n")
		}
		if s := draw(); !strings.Contains(s, map[language.Tag]string{i18n.English: "w tables", i18n.Turkish: "w masalar"}[lang]) {
			t.Errorf("%s: the key bar does not name w:\n%s", lang, s)
		}
		watchPress(v, tcell.KeyRune, 'w')
		s := draw()
		if !strings.Contains(s, i18n.T("watch another table")) || !strings.Contains(s, strings.Repeat("b2", 8)) {
			t.Fatalf("%s: w shows no list:\n%s", lang, s)
		}
		watchPress(v, tcell.KeyEscape, 0)
		if v.pick != nil || len(*chosen) != 0 {
			t.Fatalf("%s: Esc did not keep the table: %v", lang, *chosen)
		}
		watchPress(v, tcell.KeyRune, 'w')
		watchPress(v, tcell.KeyRune, '2')
		if len(*chosen) != 1 || (*chosen)[0] != switchTables[1].ID {
			t.Fatalf("%s: 2 chose %v, want %s", lang, *chosen, switchTables[1].ID)
		}
		none, chosen := watchSwitchView(t, nil)
		none.SetRect(0, 0, 80, 24)
		v = none
		watchPress(v, tcell.KeyRune, 'w')
		if s := draw(); v.pick != nil || len(*chosen) != 0 || !strings.Contains(s, i18n.T("no other started table to watch now")) {
			t.Fatalf("%s: w without tables:\n%s", lang, s)
		}
		scr.Fini()
	}
	i18n.Set(i18n.English)
}

// TestNoCutWordWatchSwitch: the spectator's screen with w's key and its
// list of tables, at every size and in every language.
func TestNoCutWordWatchSwitch(t *testing.T) {
	lane.NoRace(t) // whole screens over a match\'s steps; the watch\'s goroutines are raced in watch_test.go
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		v, _ := watchSwitchView(t, switchTables)
		v.SetRect(0, 0, w, h)
		v.Draw(scr)
		for _, c := range scr.take("watch") {
			t.Error(c)
		}
		watchPress(v, tcell.KeyRune, 'w')
		v.Draw(scr)
		for _, c := range scr.take("watch list") {
			t.Error(c)
		}
		none, _ := watchSwitchView(t, nil)
		none.SetRect(0, 0, w, h)
		watchPress(none, tcell.KeyRune, 'w')
		none.Draw(scr)
		for _, c := range scr.take("watch none") {
			t.Error(c)
		}
	})
}
