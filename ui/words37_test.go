package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// TestWordsReadRight (issue 37, 12): at 80x24 and 120x36, in English and
// in Turkish, the quit question's key bar names the keys the question
// names (e/h in Turkish, under "e: evet, kalk   h: hayır, kal"); a discard
// made reads as done ("K11 taşını attın", not "atıyorsun"); and 101's help
// says p sorts for five doubles, not seven pairs.
func TestWordsReadRight(t *testing.T) {
	for _, lang := range []string{"en", "tr"} {
		for _, size := range [][2]int{{80, 24}, {120, 36}} {
			name := fmt.Sprintf("%s %dx%d", lang, size[0], size[1])
			if lang == "tr" {
				inTurkish(t)
			} else {
				i18n.Set(i18n.English)
			}
			want := map[string][]string{
				"en": {"y leave", "n stay", "you discard the ", "p pairs (for five doubles)"},
				"tr": {"e kalk", "h kal", " taşını attın", "p çift diz (beş çift için)"},
			}[lang]
			not := map[string][]string{
				"en": {"seven pairs"},
				"tr": {"y çık", "n kal", "atıyorsun", "yedi çift"},
			}[lang]
			hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
			hs.resize(size[0], size[1])
			hs.request()
			hs.keys("q")
			bar := screenLines(hs.scr)[size[1]-1]
			for _, w := range want[:2] {
				if !strings.Contains(bar, w) {
					t.Errorf("%s: the quit question's key bar has no %q: %q", name, w, bar)
				}
			}
			hs.keys("n")
			hs.keys("x")
			if s := hs.screen(); !strings.Contains(s, want[2]) {
				t.Errorf("%s: the discard made is not said as %q:\n%s", name, want[2], s)
			}
			s := fixture101(t)
			h101 := newHarness(t, s, Palette256)
			h101.resize(size[0], size[1])
			h101.keys("?")
			help := h101.screen()
			if !strings.Contains(help, want[3]) {
				t.Errorf("%s: 101's help has no %q:\n%s", name, want[3], help)
			}
			for _, n := range not {
				if strings.Contains(bar+hs.screen()+help, n) {
					t.Errorf("%s: %q is still shown", name, n)
				}
			}
		}
	}
	i18n.Set(i18n.English)
}

// TestTournamentAndRoundWords (issue 37, 14): at 80x24 and 120x36, in
// English and in Turkish, a tournament's table says so in its header; 101's
// header counts the rounds of the panel it shows ("2 rounds left" under "1
// of 3 counted"); the lobby says a 101 table's round, not its hand, and an
// ended tournament of the player's as played and ended.
func TestTournamentAndRoundWords(t *testing.T) {
	for _, lang := range []string{"en", "tr"} {
		for _, size := range [][2]int{{80, 24}, {120, 36}} {
			name := fmt.Sprintf("%s %dx%d", lang, size[0], size[1])
			if lang == "tr" {
				inTurkish(t)
			} else {
				i18n.Set(i18n.English)
			}
			tr := lang == "tr"
			pick := func(en, tr2 string) string {
				if tr {
					return tr2
				}
				return en
			}
			hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
			hs.view.context = i18n.T("tournament round %d, table %d", 2, 1)
			hs.resize(size[0], size[1])
			if head, want := screenLines(hs.scr)[0], pick("okey · tournament round 2, table 1 · ", "okey · turnuva 2. tur, 1. masa · "); !strings.Contains(head, want) {
				t.Errorf("%s: the tournament's table header has no %q: %q", name, want, head)
			}
			h101 := newHarness(t, fixture101(t), Palette256)
			h101.resize(size[0], size[1])
			h101.view.Update(h101.view.m.Snap, nil, []*HandEnd{roundEnd101()})
			h101.draw()
			scr := h101.screen()
			for _, want := range []string{pick("(1 of 3 counted)", "(1/3 sayıldı)"), pick("2 rounds left", "2 el kaldı")} {
				if !strings.Contains(scr, want) {
					t.Errorf("%s: the 101 round's panel and header: no %q:\n%s", name, want, scr)
				}
			}
			row := tableState(LobbyTable{Ruleset: "101:rounds=3", State: "started", Hand: 1, Scores: []int{0, 0}})
			if want := pick("[round 1, scores 0 0]", "[el 1, puanlar 0 0]"); !strings.Contains(row, want) {
				t.Errorf("%s: a 101 table's lobby row says %q, want %q", name, row, want)
			}
			cup := LobbyTournament{ID: "aa", Name: "spring cup", Rounds: 1, Round: 1, Ended: true, Mine: true}
			if s, want := TourState(cup), pick("ended, you played", "bitti, oynadın"); s != want {
				t.Errorf("%s: an ended tournament of the player's: %q, want %q", name, s, want)
			}
			l := &LobbyView{tours: []LobbyTournament{cup}}
			l.msg = i18n.T("%s: done", i18n.T("registering in %s", cup.Name))
			l.noteTourEnd()
			if want := pick("spring cup has ended", "spring cup bitti"); !strings.Contains(l.msg, want) {
				t.Errorf("%s: after the end the lobby still says %q", name, l.msg)
			}
		}
	}
	i18n.Set(i18n.English)
}

// TestHintKeepsItsKey (issue 37, 5): at 80x24 and 120x36, in English and
// in Turkish, the hint's line keeps the key to press when the screen drops
// its last parts (the next best, the feeding danger).
func TestHintKeepsItsKey(t *testing.T) {
	y4, k1, r8 := engine.MustParseFaces("Y4")[0], engine.MustParseFaces("K1")[0], engine.MustParseFaces("R8")[0]
	adv := bot.Advice{Choices: []bot.Choice{
		{Kind: engine.ActDiscard, Face: y4, Dist: 3, Outs: 18, Danger: 0.5,
			Reason: "discard Y4: 3 from a win, 18 live tiles help (R1 R2 R3 Y5 Y6 B7 B8 K9 K10 K11); the next player may want it"},
		{Kind: engine.ActDiscard, Face: k1}, {Kind: engine.ActDiscard, Face: r8}}}
	for _, lang := range []string{"en", "tr"} {
		for _, size := range [][2]int{{80, 24}, {120, 36}} {
			if lang == "tr" {
				inTurkish(t)
			} else {
				i18n.Set(i18n.English)
			}
			hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
			hs.resize(size[0], size[1])
			hs.view.say(tablemodel.HintText(adv))
			hs.draw()
			if s := hs.screen(); !strings.Contains(s, "(x)") {
				t.Errorf("%s %dx%d: the hint lost its key (x):\n%s", lang, size[0], size[1], s)
			}
		}
	}
	i18n.Set(i18n.English)
}

// TestFormLevels (issue 37, 9): the create form offers every bot level,
// learned too, each with the strategy it plays, hard by default, at 80x24
// and 120x36 in English and in Turkish.
func TestFormLevels(t *testing.T) {
	for _, lang := range []string{"en", "tr"} {
		for _, size := range [][2]int{{80, 24}, {120, 36}} {
			if lang == "tr" {
				inTurkish(t)
			} else {
				i18n.Set(i18n.English)
			}
			scr := tcell.NewSimulationScreen("UTF-8")
			if err := scr.Init(); err != nil {
				t.Fatal(err)
			}
			scr.SetSize(size[0], size[1])
			fl := &fakeLobby{changes: make(chan struct{}, 1)}
			l := NewLobbyView(nil, fl, nil)
			l.SetRect(0, 0, size[0], size[1])
			l.form = &createForm{players: 4, bots: 3, level: defaultLevel}
			var seen []string
			for i := range bot.Levels {
				l.form.level = i
				scr.Clear()
				l.Draw(scr)
				scr.Show()
				seen = append(seen, strings.Join(screenLines(scr), "\n"))
			}
			for i, lv := range bot.Levels {
				want := levelName(lv.Level)
				if !strings.Contains(want, "("+lv.Strategy+")") || !strings.Contains(seen[i], want) {
					t.Errorf("%s %dx%d: the form does not offer %q", lang, size[0], size[1], want)
				}
			}
			if bot.Levels[defaultLevel].Level != bot.DefaultLevel {
				t.Errorf("the form's first level is %s, want %s", bot.Levels[defaultLevel].Level, bot.DefaultLevel)
			}
			scr.Fini()
		}
	}
	i18n.Set(i18n.English)
}
