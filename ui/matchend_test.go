package ui

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// TestMatchEndPanelShowsItAllAt80x24: at every supported size, in either
// language, the match's panel after a four-player match (turkish-rummy,
// classic) shows the ranking, how the ruleset scores, the verdict, the
// transcript's path whole and q: quit, nothing cut.
func TestMatchEndPanelShowsItAllAt80x24(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	const path = "/home/ayse/.local/share/okey/matches/12D3KooWQx7Yh2tYb4fE9zj2uVf6u8wR1cM3pN5kL7aS9dG2hJ4/transcript"
	for _, rs := range []string{"turkish-rummy:rounds=1", "classic:points=2"} {
		t.Run(rs, func(t *testing.T) {
			_, m := lastHandEnd(t, greedyMatchN(t, rs, 4, 11), 4)
			everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
				snap := TakeSnapshot(m, nil, 0)
				v := NewTableView(func() {})
				v.SetPalette(Palette256)
				v.SetRect(0, 0, w, h)
				v.Update(snap, nil, nil)
				end := &MatchEnd{Verified: true, Transcript: path,
					Verdict: Verdict(&table.Report{Honest: true, Steps: 161, Hands: make([]table.HandLog, 1)})}
				end.Ranking, end.Scores = tablemodel.Ranking(snap)
				v.Finish(end)
				scr.Clear()
				v.Draw(scr)
				scr.Show()
				lines := screenLines(scr)
				s := strings.Join(lines, "\n")
				var flat strings.Builder
				for _, l := range lines {
					flat.WriteString(strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│")))
				}
				r, _ := v.rules()
				want := []string{end.Verdict, path, scoringLine(r), i18n.T("q: quit")}
				for _, st := range end.Ranking {
					want = append(want, snap.Names[st.Seat])
				}
				for _, w := range want {
					if !strings.Contains(strings.ReplaceAll(flat.String(), " ", ""), strings.ReplaceAll(w, " ", "")) {
						t.Errorf("the match's panel leaves out %q:\n%s", w, s)
					}
				}
			})
		})
	}
}
