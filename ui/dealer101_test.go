package ui

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// TestDealerFirstSelectionSaysDiscard: at the dealer's first turn of a 101
// round the engine refuses a lay (the dealer starts by discarding), so a
// selection worth an opening must not offer l: the status says the dealer
// discards first, and l changes nothing. The status said "that opens: l
// lays the opening" and the tmux e2e, following it, waited for a lay that
// never came.
func TestDealerFirstSelectionSaysDiscard(t *testing.T) {
	hs := dealerFirst(t)
	hs.selectFaces("R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13 K10 K11 K12 K13")
	status := hs.p101().selText(hs.view)
	if strings.Contains(status, "l lays") || !strings.Contains(status, "the dealer starts by discarding (x)") {
		t.Errorf("the dealer's first turn, an opening selected: %q", status)
	}
	sent := hs.view.m.Sent
	hs.keys("l")
	if hs.view.m.Sent != sent {
		t.Error("l sent a move at the dealer's first turn")
	}
}

// dealerFirst is a 2-seat 101 round at the dealer's (the player's) first
// turn, asked for a move, with an opening of 184 points in four melds on
// the rack.
func dealerFirst(t *testing.T) *harness { return dealerFirstWith(t, "K3") }

// dealerFirstWith is dealerFirst with the indicator ind.
func dealerFirstWith(t *testing.T, ind string) *harness {
	t.Helper()
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	m := modeltest.Deal101(t, r, 2, 0, ind)
	v := modeltest.View(t, 0, m.Game().Rack(0), "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13 K10 K11 K12 K13 R1 Y2 B3 K5 R7 Y8")
	s := &Snapshot{Seat: 0, Names: []string{"ayse", "bot1"}, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
	hs := newHarness(t, s, Palette256)
	hs.request101()
	return hs
}

// TestDealerFirstScreenSaysDiscard: at the dealer's first turn nothing on
// the screen advises a lay, which the engine refuses: the turn line says
// to discard (it said "your turn: lay, add, then discard"), the key bar
// has no l or a with an opening selected, l, a, a meld's handle, d and t
// are refused with the reason (d and t said "you have taken a tile
// already"), and the hint names the discard and puts the
// opening off to the next turn; in English and Turkish.
func TestDealerFirstScreenSaysDiscard(t *testing.T) {
	for _, tc := range []struct {
		lang                           language.Tag
		turn, notTurn, why, hint, open string
	}{
		{i18n.English, "your turn: discard a tile (x)", "lay, add", "the dealer starts by discarding (x)",
			"the dealer starts by discarding: discard the Y8 (x)", "you can open at your next turn: 184 points in 4 melds"},
		{i18n.Turkish, "sıra sende: bir taş at (x)", "aç, işle", "dağıtan taş atarak başlar (x)",
			"dağıtan taş atarak başlar: Y8 taşını at (x)", "sonraki sıranda açabilirsin: 184 puan, 4 per"},
	} {
		t.Run(tc.lang.String(), func(t *testing.T) {
			i18n.Set(tc.lang)
			t.Cleanup(func() { i18n.Set(i18n.English) })
			hs := dealerFirst(t)
			scr := hs.screen()
			if !strings.Contains(scr, tc.turn) || strings.Contains(scr, tc.notTurn) {
				t.Errorf("the dealer's first turn, the turn line:\n%s", scr)
			}
			hs.keys("h")
			lines := screenLines(hs.scr)
			// The message line shows the hint's first part (the move);
			// the whole hint goes on with the opening.
			if msg := strings.TrimSpace(lines[len(lines)-2]); msg != tc.hint {
				t.Errorf("the hint's line at the dealer's first turn: %q", msg)
			}
			if msg := hs.view.m.Msg; !strings.HasPrefix(msg, tc.hint) || !strings.Contains(msg, tc.open) {
				t.Errorf("the hint at the dealer's first turn: %q", msg)
			}
			// The hint selected the opening: neither l nor a is offered.
			if len(hs.view.m.Sel) == 0 {
				t.Fatal("the hint selected nothing")
			}
			bar := lines[len(lines)-1]
			if strings.Contains(bar, " l ") || strings.Contains(bar, " a ") {
				t.Errorf("the key bar offers a lay at the dealer's first turn: %q", bar)
			}
			for _, k := range []string{"l", "a", "1", "d", "t"} {
				sent := hs.view.m.Sent
				hs.keys(k)
				lines = screenLines(hs.scr)
				if msg := strings.TrimSpace(lines[len(lines)-2]); msg != tc.why || hs.view.m.Sent != sent {
					t.Errorf("%s at the dealer's first turn: %q (sent %d moves)", k, msg, hs.view.m.Sent-sent)
				}
			}
		})
	}
}

// TestTurnLineTilesTwoSpacesApart: the 101 turn line writes the indicator
// and the okey as wide as their text, two spaces after each, whatever
// their width ("indicator Y10 okey Y11" ran together, "okey K4   previous
// discard" had three).
func TestTurnLineTilesTwoSpacesApart(t *testing.T) {
	for _, c := range []struct{ ind, want string }{
		{"Y10", " bank 62  indicator Y10  okey Y11"},
		{"K3", " bank 62  indicator K3  okey K4"},
	} {
		hs := dealerFirstWith(t, c.ind)
		found := false
		for _, l := range screenLines(hs.scr) {
			if strings.HasPrefix(l, " bank ") {
				found = true
				if got := strings.TrimRight(l, " "); got != c.want {
					t.Errorf("the turn line reads %q, want %q", got, c.want)
				}
			}
		}
		if !found {
			t.Errorf("no turn line:\n%s", hs.screen())
		}
	}
}
