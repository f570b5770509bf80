package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// cutScreen is a simulated screen that records every text put had to cut
// (cutWatcher): a word cut at a box's edge or at the screen's.
type cutScreen struct {
	tcell.SimulationScreen
	cuts []string
}

func (c *cutScreen) cut(x, y int, s string, from int) {
	c.cuts = append(c.cuts, fmt.Sprintf("at %d,%d %q cut after %q", x, y, s, s[:from]))
}

// take returns the cuts recorded since the last take, each once, prefixed
// with what was on the screen.
func (c *cutScreen) take(what string) []string {
	var out []string
	for _, s := range c.cuts {
		out = append(out, what+": "+s)
	}
	c.cuts = c.cuts[:0]
	return out
}

// strayRE finds a space before a comma, a semicolon or a closing bracket,
// or after an opening one.
var strayRE = regexp.MustCompile(`[^ ] +[,;)]( |$)|\( `)

// cutSizes are the sizes the README supports.
var cutSizes = [][2]int{{80, 24}, {100, 30}, {120, 36}}

// everyCut runs f in every language at every supported size on a cutScreen
// and fails with every cut it recorded (each once).
func everyCut(t *testing.T, f func(t *testing.T, scr *cutScreen, w, h int)) {
	t.Helper()
	for _, lang := range i18n.Langs {
		for _, sz := range cutSizes {
			t.Run(fmt.Sprintf("%s-%dx%d", lang, sz[0], sz[1]), func(t *testing.T) {
				i18n.Set(lang)
				t.Cleanup(func() { i18n.Set(i18n.English) })
				sim := tcell.NewSimulationScreen("UTF-8")
				if err := sim.Init(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(sim.Fini)
				sim.SetSize(sz[0], sz[1])
				scr := &cutScreen{SimulationScreen: sim}
				f(t, scr, sz[0], sz[1])
				seen := map[string]bool{}
				for _, c := range scr.cuts {
					if !seen[c] {
						seen[c] = true
						t.Error(c)
					}
				}
			})
		}
	}
}

// germanScenes play a german hand (partnerships): the take asked for, the
// hint, the help, the leave question, the hand's end with its score table.
func germanScenes(t *testing.T) (*Snapshot, []Line, []scene) {
	s := germanFixture(t, "R5 R6 K1 K2 K3 Y9 B9 R9 Y11 Y12 Y13 B2 B6", "R7")
	s.At = goldenClock
	return s, nil, []scene{
		{"asked", func(hs *harness, s *Snapshot) { hs.request() }},
		{"refused", func(hs *harness, s *Snapshot) { hs.keys("x") }},
		{"hint", func(hs *harness, s *Snapshot) { hs.keys("h") }},
		{"help", func(hs *harness, s *Snapshot) { hs.keys("?") }},
		{"quit", func(hs *harness, s *Snapshot) { hs.keys(" q") }},
		{"stay", func(hs *harness, s *Snapshot) { hs.keys("n") }},
		{"handend", func(hs *harness, s *Snapshot) {
			res := engine.HandResult{Winner: 2, Kind: engine.Groups, OkeyDiscard: true, Upcard: -1}
			hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: res, Names: s.Names,
				Deltas: []int{-4, -4, 4, 4}, Scores: []int{-4, -4, 4, 4}}})
			hs.draw()
		}},
		{"matchend", func(hs *harness, s *Snapshot) {
			hs.view.Finish(&MatchEnd{Ranking: []engine.Standing{{Seat: 2, Place: 1, Score: 4}, {Seat: 0, Place: 2, Score: 4}, {Seat: 1, Place: 3, Score: -4}, {Seat: 3, Place: 4, Score: -4}},
				Verified: true, Verdict: Verdict(&table.Report{Honest: true, Steps: 161, Hands: make([]table.HandLog, 3)})})
			hs.key(tcell.KeyEnter, 0)
		}},
	}
}

// fullRackScenes101 end a 101 round with a whole rack of 21 tiles left to
// a seat: the round's panel shows every one of them (it showed 18 at 80
// columns), in face order, one space apart and two between colours.
func fullRackScenes101(t *testing.T) (*Snapshot, []Line, []scene) {
	s := fixture101(t, "timer=60")
	s.At = goldenClock
	const rack = "R5 R7 Y2 K7 Y3 B5 K5 K8 B4 R3 R13 K9 B3 K1 K3 R6 R4 B10 Y12 K11 B13"
	return s, nil, []scene{{"roundend, a full rack", func(hs *harness, s *Snapshot) {
		e := roundEnd101()
		e.R101.Racks[1] = engine.MustParseFaces(rack)
		hs.view.Update(s, nil, []*HandEnd{e})
		hs.draw()
		const sorted = "R3 R4 R5 R6 R7 R13  Y2 Y3 Y12  B3 B4 B5 B10 B13  K1 K3 K5 K7 K8 K9 K11"
		if scr := hs.screen(); !strings.Contains(scr, sorted) {
			t.Errorf("the round's panel does not show the rack as %q:\n%s", sorted, scr)
		}
	}}}
}

// TestNoCutWordTable: the table of each game (classic, german, 101), through
// its scenes (the move asked for, refusals, the hint, the help, the leave
// question, the hand's or the round's panel, the match's end), cuts no text
// at any supported size, in either language.
func TestNoCutWordTable(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	games := []struct {
		name   string
		scenes func(t *testing.T) (*Snapshot, []Line, []scene)
	}{{"classic", classicScenes}, {"german", germanScenes}, {"101", scenes101}, {"101-full-rack", fullRackScenes101}}
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
				s, lines, scenes := g.scenes(t)
				hs := goldenHarness(t, s, w, h)
				hs.scr = scr
				hs.view.Update(s, lines, nil)
				hs.draw()
				for _, sc := range scenes {
					sc.do(hs, s)
					hs.draw()
					for _, c := range scr.take(sc.name) {
						t.Error(c)
					}
					// No space before a comma or a closing bracket, none
					// after an opening one ("R6 , okey").
					for _, l := range screenLines(scr) {
						if m := strayRE.FindString(strings.TrimRight(l, " ")); m != "" {
							t.Errorf("%s: a stray space (%q) in %q", sc.name, m, l)
						}
					}
				}
			})
		})
	}
}

// cutLobby is a lobby as a player sees it on a real LAN: a full peer
// address, tables, unfinished matches.
type cutLobby struct{ fakeLobby }

func (*cutLobby) Self() (string, string, []string) {
	id := "12D3KooWQm7nW5yVdLCh2R3gS6qf5Tz1gF9XkK8Hc4bUeP2vYs3A"
	return "ayse", id, []string{"/ip4/192.168.178.123/tcp/40123/p2p/" + id}
}

// TestNoCutWordLobby: the lobby (its header with the address to give
// others, the unfinished matches, the tables, the create form, a message)
// cuts no text at any supported size, in either language; the --peer
// address on it is whole.
func TestNoCutWordLobby(t *testing.T) {
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		fl := &cutLobby{fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
			{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "x", Name: "mehmet", Ready: true}}},
			// A full table's members: at 80 columns the names that fit
			// whole and how many more ("ayse (you), bot2*, +2"), not "bot1*,".
			{ID: "t2", Ruleset: "turkish-rummy", Seats: 4, State: "open", Members: []LobbyMember{{ID: "12D3KooWQm7nW5yVdLCh2R3gS6qf5Tz1gF9XkK8Hc4bUeP2vYs3A", Name: "ayse"},
				{ID: "b2", Name: "bot2", Ready: true}, {ID: "b1", Name: "bot1", Ready: true}, {ID: "b3", Name: "bot3", Ready: true}}},
		}}}
		l := NewLobbyView(nil, fl, nil)
		l.tables = fl.Tables()
		l.unfin = []LobbyTable{{ID: "u1", Ruleset: "101", Local: true, Note: "started Mar 4 12:00"}}
		l.SetRect(0, 0, w, h)
		draw := func(what string) string {
			scr.Clear()
			l.Draw(scr)
			scr.Show()
			for _, c := range scr.take(what) {
				t.Error(c)
			}
			return strings.Join(screenLines(scr), "\n")
		}
		l.msg = i18n.T("%s: done; everyone at the table presses r when ready, you too", i18n.T("creating a table"))
		s := draw("lobby")
		if !strings.Contains(s, "ayse "+i18n.T("(you)")+", bot2*, bot1*, bot3*") && !strings.Contains(s, "bot2*, +2") {
			t.Errorf("the full table's members are neither all listed nor counted:\n%s", s)
		}
		_, id, addrs := fl.Self()
		if !strings.Contains(s, id) {
			t.Errorf("the id %s is not whole on the lobby:\n%s", id, s)
		}
		// Where the address fits a line it has one to itself, so that
		// copying it gives a good address; where it cannot (80 columns),
		// its pieces are whole, one under the other, and the label says
		// it is split.
		var pieces []string
		for _, line := range strings.Split(s, "\n") {
			if f := strings.Fields(line); len(f) == 1 && len(f[0]) > 8 && strings.Contains(addrs[0], f[0]) || strings.Contains(line, "/ip4/") {
				pieces = append(pieces, strings.TrimSpace(line))
			}
		}
		switch {
		case width(addrs[0]) <= w-2 && (len(pieces) != 1 || pieces[0] != addrs[0]):
			t.Errorf("the address is not whole on a line of its own: %q\n%s", pieces, s)
		case width(addrs[0]) > w-2 && (strings.Join(pieces, "") != addrs[0] || !strings.Contains(s, i18n.T("others reach you with --peer and this address, one line (split here):"))):
			t.Errorf("the address split over %q, want its pieces under a label that says so\n%s", pieces, s)
		}
		// With tournaments announced (more than the section shows), the
		// cursor on one with standings, then on the last one.
		l.tours = cutTours
		l.cursor = len(l.unfin) + 1
		s = draw("lobby with tournaments")
		if !strings.Contains(s, i18n.T("tournaments (j: register and play)")) || !strings.Contains(s, "spring cup") {
			t.Errorf("the tournaments are not listed:\n%s", s)
		}
		if !strings.Contains(s, i18n.T("standings after round %d of %d:", 1, 3)) {
			t.Errorf("the selected tournament's standings are not shown:\n%s", s)
		}
		l.cursor = len(l.unfin) + len(l.tours) - 1
		s = draw("lobby with tournaments, the last selected")
		if !strings.Contains(s, "istanbul open") || !strings.Contains(s, i18n.T("%d more tournaments: up/down scrolls", 1)) {
			t.Errorf("the selected tournament is not in view:\n%s", s)
		}
		l.tform = newTourForm()
		l.tform.name = "the long tournament name of 32b"
		for f := 0; f < tourFormFields; f++ {
			l.tform.field = f
			draw(fmt.Sprintf("tournament form, field %d", f))
		}
		l.tform = nil
		// A lobby that announces tournaments, with none on the LAN.
		saved := l.b
		l.b = &cutCreator{fl}
		l.tours, l.cursor = nil, 0
		if s := draw("lobby, no tournament"); !strings.Contains(s, i18n.T("no tournaments on the LAN: t announces one")) {
			t.Errorf("the lobby does not say t announces a tournament:\n%s", s)
		}
		l.b = saved
		l.tours, l.cursor = nil, 0
		l.form = &createForm{players: 4, timer: 3, level: defaultLevel, options: "partnerships"}
		for f := 0; f < formFields; f++ {
			l.form.field = f
			s := draw(fmt.Sprintf("create form, field %d", f))
			// Nothing of the list shows beside the form ("┐)").
			for _, line := range strings.Split(s, "\n") {
				if i, j := strings.IndexAny(line, "┌│└"), strings.LastIndexAny(line, "┐│┘"); i >= 0 && j > i &&
					(strings.TrimSpace(line[:i]) != "" || strings.TrimSpace(line[j+len("┐"):]) != "") {
					t.Errorf("text beside the create form: %q", line)
				}
			}
		}
		l.form.preset = slices.Index(lobbyPresets, "101")
		draw("create form, 101")
	})
}

// TestNoCutWordChooser: the question of unfinished matches, and the drop
// question, cut no text.
func TestNoCutWordChooser(t *testing.T) {
	at := time.Date(2026, 3, 4, 12, 0, 0, 0, time.Local)
	var un []LocalMatch
	for i, rs := range []string{"classic", "german", "turkish-rummy", "101", "classic:partnerships"} {
		un = append(un, LocalMatch{Dir: rs, Ruleset: rs, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Started: at.Add(-time.Duration(i) * time.Hour)})
	}
	for len(un) < 11 {
		un = append(un, un[0])
	}
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		lines, choices, _ := ResumeQuestion(un, i18n.T("start a new match"))
		lines = append(lines, "", i18n.T("not dropped: %s", i18n.T("ui: %s exists already", "/home/ayse/.local/share/okey/dropped/local-20260304-120000")))
		choices = append(choices, Choice{Key: 'd', Label: i18n.T("drop a match (kept under %s in the data dir)", DroppedDir)})
		for _, q := range []struct {
			title   string
			lines   []string
			choices []Choice
		}{
			{i18n.T("unfinished matches"), lines, choices},
			{i18n.T("drop an unfinished match"), []string{i18n.T("Drop which match? It moves to %s in the data dir, whole:", DroppedDir),
				i18n.T("its transcript still verifies (unfinished); it is no longer offered.")}, choices[:len(choices)-2]},
		} {
			c := &ChooseView{Box: tview.NewBox(), title: q.title, lines: q.lines, choices: q.choices}
			c.SetRect(0, 0, w, h)
			c.Draw(scr)
			for _, cut := range scr.take(q.title) {
				t.Error(cut)
			}
		}
	})
}

// cutVerdicts are the replay's verdicts, one of each kind.
func cutVerdicts() []*table.Report {
	seats := []string{"ayse", "bot1", "bot2", "bot3"}
	return []*table.Report{
		{Honest: true, Seats: seats, Steps: 1234, Hands: make([]table.HandLog, 12)},
		{Seats: seats, Steps: 1234, Violation: &table.Violation{Seat: 1, Step: 1200, Rule: table.RuleStateDivergence}},
		{Seats: seats, Steps: 1234, Invalid: errors.New("table: record 1201 does not verify")},
		{Seats: seats, Steps: 1234, Hands: make([]table.HandLog, 11), Next: &table.Next{Seat: 3, Kind: table.KindMove, Step: 1235}},
		{Seats: seats, Steps: 1234, Hands: make([]table.HandLog, 11), Failure: &table.Failure{Step: 1234, Err: errors.New("engine: the stock is empty")}},
		{Seats: seats, Steps: 1234, Hands: make([]table.HandLog, 11)},
	}
}

// TestNoCutWordReplay: the replay of a classic and of a 101 match, every
// frame, and its verdict of every kind, cut no text.
func TestNoCutWordReplay(t *testing.T) {
	lane.NoRace(t)
	classic, err := LoadReplay(greedyMatch(t, "classic", 3))
	if err != nil {
		t.Fatal(err)
	}
	res, err := table.RunLocal(context.Background(), table.LocalOptions{Ruleset: "101:rounds=3",
		Movers: []table.Mover{bot.NewB101(), bot.NewB101()}, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	r101, err := LoadReplay(res.Transcript(-1))
	if err != nil {
		t.Fatal(err)
	}
	replays := []*Replay{classic, r101}
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		for _, r := range replays {
			v := NewReplayView(r, func() {})
			v.SetRect(0, 0, w, h)
			for i := range r.Frames {
				v.Seek(i)
				scr.Clear()
				v.Draw(scr)
			}
			for _, c := range scr.take(r.Ruleset) {
				t.Error(c)
			}
			honest := r.Report
			for _, rep := range cutVerdicts() {
				r.Report = rep
				scr.Clear()
				v.Draw(scr)
				for _, c := range scr.take(r.Ruleset + " verdict") {
					t.Error(c)
				}
			}
			r.Report = honest
		}
	})
}

// cutTours are tournaments as a LAN lobby lists them: registering,
// under way with the player in it and standings, ended, with long names.
var cutTours = []LobbyTournament{
	{ID: strings.Repeat("ab", 32), Name: "spring cup", Ruleset: "classic:points=2", Rounds: 3, Registered: 5, Players: 8},
	{ID: strings.Repeat("cd", 32), Name: "the long tournament name of 32b", Ruleset: "turkish-rummy:rounds=1", Rounds: 3, Points: "4-2-1-0",
		Registered: 8, Players: 8, Round: 2, Mine: true, Playing: true, StandingsRound: 1,
		Standings: []string{"1. ayse: 3 points, score 12", "2. mehmet: 3 points, score 9", "3. bot1: 2 points, score 7",
			"4. bot2: 2 points, score 3", "5. bot3: 1 points, score 2"}},
	{ID: strings.Repeat("ef", 32), Name: "yaz kupası", Ruleset: "101", Rounds: 1, Registered: 4, Players: 4, Round: 1, Ended: true},
	{ID: strings.Repeat("01", 32), Name: "istanbul open", Ruleset: "classic", Rounds: 15, Registered: 63, Players: 64},
}

// cutCreator is a cutLobby that announces tournaments.
type cutCreator struct{ *cutLobby }

func (*cutCreator) Tournaments() []LobbyTournament               { return nil }
func (*cutCreator) TournamentChanges() <-chan struct{}           { return nil }
func (*cutCreator) JoinTournament(context.Context, string) error { return nil }
func (*cutCreator) CreateTournament(context.Context, string, string, int, int) (string, error) {
	return "", nil
}
