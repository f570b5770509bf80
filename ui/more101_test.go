package ui

import (
	"fmt"
	"strings"
	"testing"
)

// TestTable101MoreNoteNeverCoversAMeld: when the melds do not all fit, the
// count of the rest ("+2 more") goes after the last meld shown, which
// gives its place up when the count would not fit after it, as the replay
// does (TestReplay101CountsMeldsLeftOut). The table wrote the count at the
// right end of the last meld row, over a meld drawn there. The rows run
// out here in a meld area drawn directly (at 80x24 two players' five melds
// take two rows of the many there are), narrow rows beside the side seats
// or not.
func TestTable101MoreNoteNeverCoversAMeld(t *testing.T) {
	hs := newHarness(t, finish101(t), Palette256)
	notes := 0
	pt := hs.view.game().(*part101)
	for w := 30; w <= 78; w++ {
		for _, a := range [][2]int{{1, 0}, {2, 0}, {3, 0}, {2, 1}, {3, 1}, {3, 2}} {
			rows, narrow := a[0], a[1]
			hs.scr.Clear()
			pt.drawMelds(hs.view, hs.scr, 1, 0, w, rows, narrow, 1, 78)
			hs.scr.Show()
			lines := screenLines(hs.scr)
			more := 0
			for y, l := range lines {
				i := strings.Index(l, "+")
				if i < 0 || !strings.Contains(l, " more") {
					continue
				}
				if _, err := fmt.Sscanf(l[i:], "+%d more", &more); err != nil {
					continue
				}
				notes++
				x := len([]rune(l[:i]))
				end := x + len([]rune(fmt.Sprintf("+%d more", more)))
				for _, m := range pt.handles {
					if m.y == y && x < m.x+m.w && m.x < end {
						t.Errorf("%d wide, %d rows (%d narrow): the count (columns %d-%d) covers meld %c (columns %d-%d):\n%s",
							w, rows, narrow, x, end, m.key, m.x, m.x+m.w, strings.Join(lines, "\n"))
					}
				}
			}
			if len(pt.handles)+more != 5 {
				t.Errorf("%d wide, %d rows (%d narrow): %d melds shown, %d counted, of 5:\n%s", w, rows, narrow, len(pt.handles), more, strings.Join(lines, "\n"))
			}
		}
	}
	if notes == 0 {
		t.Fatal("no size left a meld out: the test tests nothing")
	}
}
