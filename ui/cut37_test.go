package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// TestNoCutWordMessages (issue 37, 6) extends the cut-word tests to the
// lobby's status and error lines with long peer ids, the invite code's box
// and the end panel of a tournament's match (its verdict and the
// transcript's path), in both languages at every supported size.
func TestNoCutWordMessages(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	const peer = "12D3KooWGfrmD8D9iDxRHq3Mm2Lz7TtW5yVdLCh2R3gS6qf5Tz1gF"
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		fl := &inviteLobby{fakeLobby: fakeLobby{changes: make(chan struct{}, 1), tables: []LobbyTable{
			{ID: "t1", Ruleset: "classic", Seats: 4, State: "open", Members: []LobbyMember{{ID: "me", Name: "ayse"}}},
		}}, code: "okey1" + strings.Repeat("7Xq2", 54) + "Zz"}
		l := NewLobbyView(nil, fl, nil)
		l.tables = fl.Tables()
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
		l.msg, l.bad = i18n.T("joining by invite code")+": "+Explain(errors.New("p2p: cannot reach the table's creator "+peer+": no good addresses")), true
		if s := draw("an error with a peer id"); !strings.Contains(s, peer) {
			t.Errorf("the peer id is not whole:\n%s", s)
		}
		l.msg, l.bad = i18n.T("you sit at the table %s: one table at a time (l leaves it, or closes your own)", peer), true
		draw("a refusal with a table id")
		// The invite code's box: its head and the code, the cursor on t1.
		l.cursor = 0
		l.msg = ""
		if s := draw("the invite code's box"); !strings.Contains(strings.ReplaceAll(s, "\n", " "), "v") {
			t.Errorf("no invite box:\n%s", s)
		}
		// A tournament of the player's that has ended, with its standings
		// and the lobby's word of its end.
		l.tours = []LobbyTournament{{ID: strings.Repeat("ab", 32), Name: "the long tournament name of 32b", Ruleset: "classic:points=2",
			Rounds: 3, Points: "3-2-1-0", Registered: 8, Players: 8, Round: 3, Ended: true, Mine: true, StandingsRound: 3,
			Standings: []string{"1. ayse: 9 points, score 12", "2. mehmet: 6 points, score 9", "3. " + peer[:20] + ": 3 points, score 7"}}}
		l.cursor = 0
		l.msg = i18n.T("%s has ended: its standings are in the list", l.tours[0].Name)
		draw("an ended tournament")
		l.tours = nil
		// The end panel of a tournament's match, unfinished.
		hs := &harness{t: t, scr: scr}
		hs.view = NewTableView(func() {})
		hs.view.SetPalette(Palette256)
		hs.view.SetRect(0, 0, w, h)
		hs.view.Update(fixture(t, "K4", winningRack), nil, nil)
		hs.view.context = i18n.T("tournament round %d, table %d", 1, 2)
		hs.view.Finish(&MatchEnd{Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 20}, {Seat: 1, Place: 2}, {Seat: 2, Place: 3}, {Seat: 3, Place: 4}},
			Unfinished: true, Verdict: Verdict(&table.Report{Honest: true, Steps: 61, Hands: make([]table.HandLog, 1)}) + "; " +
				i18n.T("the match is unfinished: the silent seat scores 0 points, the others by the last scores; no one is named"),
			Transcript: "/home/ayse/.config/okey/tournaments/0123456789abcdef0123456789abcdef/folder/r1-t0.transcript"})
		hs.view.m.Ends = nil
		hs.view.overlay = matchOverlay
		hs.draw()
		for _, c := range scr.take("a tournament match's end") {
			t.Error(c)
		}
	})
}
