package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// inTurkish switches the interface to Turkish for one test.
func inTurkish(t *testing.T) {
	i18n.Set(i18n.Turkish)
	t.Cleanup(func() { i18n.Set(i18n.English) })
}

// englishWords are words of the English interface that no Turkish screen
// may show (as whole words: names and tile notation are not words).
var englishWords = regexp.MustCompile(`\b(your|you|the|stock|face-up|dealer|help|quit|turn|turns|rack|discard|discards|score|change|hand|tiles|keys|mouse|scoring|teams|rules|over|won|table|players|seats|ready|leave|stay|draw|take|win|hint|undo|sort|verified|honest|unfinished)\b`)

func checkTurkish(t *testing.T, what, scr string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(scr, w) {
			t.Errorf("%s: no %q on the Turkish screen:\n%s", what, w, scr)
		}
	}
	// A command is written as typed.
	if m := englishWords.FindAllString(strings.NewReplacer("okey help rules", "", "docs/rules.tr.md", "").Replace(scr), -1); len(m) > 0 {
		t.Errorf("%s: English words %q on the Turkish screen:\n%s", what, m, scr)
	}
}

// TestTurkishTable: the table, the player's move, the help screen, a
// hand's score table and the match's end, in Turkish.
func TestTurkishTable(t *testing.T) {
	inTurkish(t)
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	hs.request()
	checkTurkish(t, "the table", hs.screen(), "istakan", "gösterge", "deste", "okey", "sıra sende", "? yardım · q çık", "dağıtan")
	hs.keys("h")
	checkTurkish(t, "the hint", hs.screen(), "öner", "(x)")
	hs.keys("?")
	checkTurkish(t, "the help", hs.screen(), "tuşlar", "fare", "puanlama", "yüksek olan iyi", "okey help rules classic", "gösterme")
	hs.keys(" ")
	names := []string{"ayse", "bot1", "bot2", "bot3"}
	s := hs.view.m.Snap
	hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: engine.HandResult{Winner: -1}, Names: names,
		Deltas: make([]int, 4), Scores: []int{20, 20, 20, 20}}})
	hs.draw()
	checkTurkish(t, "the score table", hs.screen(), "1. el bitti", "Deste bitti", "değişim", "puan", "enter: sonraki el")
	hs.view.Finish(&MatchEnd{Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 20}, {Seat: 1, Place: 2}, {Seat: 2, Place: 3}, {Seat: 3, Place: 4}},
		Verified: true, Verdict: Verdict(&table.Report{Honest: true, Steps: 61, Hands: make([]table.HandLog, 1)})})
	hs.view.m.Ends = nil
	hs.view.overlay = matchOverlay
	hs.draw()
	checkTurkish(t, "the match's end", hs.screen(), "maç bitti", "Maçı kazandın!", "doğrulandı: dürüst (61 mesaj", "1 el)", "q: çık")
}

// TestTurkishGerman: teams, their scoring and the causes of a change, in
// Turkish.
func TestTurkishGerman(t *testing.T) {
	inTurkish(t)
	r := engine.MustRuleset("german", "")
	m, err := engine.NewMatch(r, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ayse", "bot1", "bot2", "bot3"}
	s := &Snapshot{Seat: 0, Names: names, Ruleset: r.String(), Match: m, View: *engine.NewView(0), Expect: -1, At: time.Now()}
	hs := newHarness(t, s, Palette256)
	checkTurkish(t, "german table", hs.screen(), "takım A", "takım B", "adın: ayse")
	res := engine.HandResult{Winner: 0, Kind: engine.Pairs, OneColour: engine.NumColours, Upcard: -1}
	hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: res, Winner: "sen", Names: names, Deltas: []int{-4, 0, -4, 0}, Scores: []int{16, 20, 16, 20}}})
	hs.draw()
	checkTurkish(t, "german score table", hs.screen(), "yedi çiftle bitirdin", "ortağı bitirdi (yedi çift) -4", "düşük olan iyi", "A: ayse ve bot2, B: bot1 ve bot3; eşler puanı paylaşır")
}

// TestTurkishLobby: the lobby and its form in Turkish.
func TestTurkishLobby(t *testing.T) {
	inTurkish(t)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(80, 24)
	g := NewGame(0, Options{Screen: scr})
	fl := &fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
		{ID: "t1", Ruleset: "classic", Seats: 4, State: "started", Members: []LobbyMember{{ID: "x", Name: "mehmet", Ready: true}}},
	}}
	g.ShowLobby(fl, func(LobbyTable) {})
	ran := make(chan error, 1)
	go func() { ran <- g.Run() }()
	got := waitScreen(t, g, scr, 5*time.Second, "the lobby", func(s string) bool { return strings.Contains(s, "mehmet*") })
	checkTurkish(t, "the lobby", got, "okey salonu  adın: ayse", "masa", "oyuncular (* hazır)", "[başladı]", "c aç", "q çık")
	scr.InjectKey(tcell.KeyRune, 'c', tcell.ModNone)
	got = waitScreen(t, g, scr, 5*time.Second, "the form", func(s string) bool { return strings.Contains(s, "masa aç") })
	checkTurkish(t, "the form", got, "kurallar < Klasik >", "seviye   < zor (expert) >", "esc vazgeç")
	scr.InjectKey(tcell.KeyEscape, 0, tcell.ModNone)
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not leave the lobby")
	}
}

// TestTurkishLogLines: the log says who did what in Turkish, with the tile.
func TestTurkishLogLines(t *testing.T) {
	inTurkish(t)
	s := fixture(t, "K4", winningRack)
	next := *s
	next.Match = s.Match.Clone()
	slot := s.Match.Hand().Rack(0)[0]
	r13, _ := engine.ParseFace("R13")
	if err := next.Match.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: slot,
		Faces: []engine.SlotFace{{Slot: slot, Face: r13}}}); err != nil {
		t.Fatal(err)
	}
	lines, _ := Events(s, &next)
	if len(lines) != 1 || lines[0].String() != "attın: R13" {
		t.Fatalf("events %v", lines)
	}
	third := next
	third.Match = next.Match.Clone()
	if err := third.Match.Apply(engine.Action{Kind: engine.ActTake, Seat: 1}); err != nil {
		t.Fatal(err)
	}
	if lines, _ = Events(&next, &third); len(lines) != 1 || lines[0].String() != "bot1 aldı: R13" {
		t.Fatalf("events %v", lines)
	}
	if got := refusalIn(classicGame, engine.ErrMustDraw); got != "önce desteden çek (d) ya da yandaki taşı al (t)" {
		t.Errorf("a refusal: %q", got)
	}
	if got := RuleName("false-win"); !strings.Contains(got, "false-win") || !strings.Contains(got, "bitmeyen") {
		t.Errorf("a rule's name: %q", got)
	}
}

// TestTurkishHintReasons: the hint's reason is written from the choice in
// Turkish (the expert's sentence stays in English), with its key.
func TestTurkishHintReasons(t *testing.T) {
	r7, _ := engine.ParseFace("R7")
	k3, _ := engine.ParseFace("K3")
	cases := []struct {
		c    bot.Choice
		want string
	}{
		{bot.Choice{Kind: engine.ActDiscard, Face: r7, Dist: 2, Outs: 9}, "R7 at (x): bitmeye 2 taş kalır, 9 taş işine yarar"},
		{bot.Choice{Kind: engine.ActDiscard, Face: r7, Dist: 3, Danger: 0.5}, "R7 at (x): bitmeye 3 taş kalır; işlek: sonraki oyuncu isteyebilir"},
		{bot.Choice{Kind: engine.ActDiscard, Face: r7, Dist: 0}, "R7 at, el bitmeye hazır kalsın (x)"},
		{bot.Choice{Kind: engine.ActWin, Face: k3}, "bitirebilirsin (w): K3 ile bitir"},
		{bot.Choice{Kind: engine.ActWin, Face: engine.NoFace}, "bitirebilirsin (w): yedi çiftle bitir"},
		{bot.Choice{Kind: engine.ActTake, Face: k3, Dist: 1}, "K3 al (t): sonra bitmeye 1 taş kalır"},
		{bot.Choice{Kind: engine.ActDraw, Face: engine.NoFace, Dist: 2, Outs: 4}, "desteden çek (d): bitmeye 2 taş var, 4 taş işine yarar"},
	}
	inTurkish(t)
	for _, c := range cases {
		c.c.Reason = "an English reason"
		if got := tablemodel.HintText(bot.Advice{Choices: []bot.Choice{c.c}}); got != c.want {
			t.Errorf("%+v: %q, want %q", c.c, got, c.want)
		}
	}
	next := tablemodel.HintText(bot.Advice{Choices: []bot.Choice{cases[0].c, {Kind: engine.ActDiscard, Face: k3}, {Kind: engine.ActDraw, Face: engine.NoFace}}})
	if !strings.HasSuffix(next, "; diğer seçenekler: K3, çek") {
		t.Errorf("the next choices: %q", next)
	}
	i18n.Set(i18n.English)
	en := cases[0].c
	en.Reason = "an English reason"
	if got := tablemodel.HintText(bot.Advice{Choices: []bot.Choice{en}}); got != "an English reason (x)" {
		t.Errorf("English keeps the expert's sentence: %q", got)
	}
}

// TestTurkishReplay: the replay's frames, log and verdict in Turkish.
func TestTurkishReplay(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	inTurkish(t)
	r, err := LoadReplay(greedyMatch(t, "turkish-rummy:rounds=1", 7))
	if err != nil {
		t.Fatal(err)
	}
	v, draw := replayScreen(t, r, func() {})
	checkTurkish(t, "the replay's first frame", draw(), "okey replay", "hamle 1/", "doğrulandı: dürüst", "sağ ileri")
	for i := 0; i < 6; i++ {
		v.Key(tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone))
	}
	checkTurkish(t, "the replay in play", draw(), "gösterge", "deste", "dağıtan", "puan  atılanlar")
	v.Key(tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone))
	s := draw()
	if !strings.Contains(s, "biten el") && !strings.Contains(s, "kazanansız") {
		t.Errorf("the replay's last frame does not show the hand's end in Turkish:\n%s", s)
	}
	checkTurkish(t, "the replay's last frame", s)
}

// TestTurkishQuitAndTooSmall: the quit question and the too-small screen in
// Turkish.
func TestTurkishQuitAndTooSmall(t *testing.T) {
	inTurkish(t)
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	hs.request()
	hs.keys("q")
	checkTurkish(t, "the quit question", hs.screen(), "masadan kalkıyor musun?", "Maç bitmedi", "e: evet, kalk   h: hayır, kal")
	hs.keys("n")
	hs.scr.SetSize(60, 20)
	hs.view.SetRect(0, 0, 60, 20)
	hs.draw()
	checkTurkish(t, "too small", hs.screen(), "okey en az 80x24 ister, bu terminal 60x20", "büyüt", "masa hamleni bekliyor")
}

// TestTurkishResumeQuestion: the question at the start of a match against
// bots, with the matches left unfinished, in Turkish.
func TestTurkishResumeQuestion(t *testing.T) {
	inTurkish(t)
	at := time.Date(2026, 3, 4, 12, 0, 0, 0, time.Local)
	var un []LocalMatch
	for i := 0; i < 11; i++ {
		un = append(un, LocalMatch{Dir: "m", Ruleset: "classic", Names: []string{"ayse", "bot1"}, Started: at.Add(-time.Duration(i) * time.Hour)})
	}
	lines, choices, _ := ResumeQuestion(un, i18n.T("start a new match vs %d bots (%s)", 1, "classic"))
	all := strings.Join(lines, "\n")
	for _, c := range choices {
		all += "\n" + c.Label
	}
	checkTurkish(t, "the resume question", all, "Botlara karşı 11 maçtan bitmeden kalktın (en yenisi önce):",
		"devam: Klasik, bot1 ile, başlangıç 4.03 12:00", "(ve listelenmeyen daha eski 2 maç", "1 bota karşı yeni maç başlat (classic)")
}

// TestTurkishConfirmKeys: in Turkish a question is answered with e (evet)
// or h (hayır), as the screen shows; y still says yes. In English e is
// no answer of yes.
func TestTurkishConfirmKeys(t *testing.T) {
	for _, tc := range []struct {
		turkish bool
		key     string
		leaves  bool
	}{{true, "e", true}, {true, "E", true}, {true, "y", true}, {true, "h", false}, {false, "e", false}, {false, "y", true}} {
		if tc.turkish {
			inTurkish(t)
		} else {
			i18n.Set(i18n.English)
		}
		hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
		hs.request()
		hs.keys("q")
		if tc.turkish && !strings.Contains(hs.screen(), "e: evet, kalk   h: hayır, kal") {
			t.Fatalf("the Turkish quit question does not show e and h:\n%s", hs.screen())
		}
		hs.keys(tc.key)
		if hs.quit != tc.leaves {
			t.Errorf("turkish %v, %q at the quit question: left %v, want %v", tc.turkish, tc.key, hs.quit, tc.leaves)
		}
	}
	// A binding's question (a 101 discard that costs a penalty): e runs it.
	inTurkish(t)
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	reply := hs.request101()
	hs.selectFaces("Y1")
	hs.view.asking, hs.view.question, hs.view.overlay = func(t *TableView) { t.say("done") }, "?", confirmOverlay
	hs.draw()
	if !strings.Contains(hs.screen(), "e: evet   h: hayır") {
		t.Fatalf("the Turkish question does not show e and h:\n%s", hs.screen())
	}
	hs.keys("e")
	if hs.view.Message() != "done" {
		t.Errorf("e did not answer yes: %q", hs.view.Message())
	}
	noReply(t, reply)
}
