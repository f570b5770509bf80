package collect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

// TestWriteText: the text of the fixed set says what was left out and
// why, a match's copies once, and each player's figures with the rating
// and score drawn, within 80 columns; --top cuts the players.
func TestWriteText(t *testing.T) {
	i18n.Set(i18n.English)
	dir := fixture(t)
	var b bytes.Buffer
	WriteText(&b, summary(t, dir, nil), 2, "")
	s := strings.ReplaceAll(b.String(), dir, "DIR")
	for _, want := range []string{
		"11 files read: 5 kept (honest and finished), 1 unfinished, 4 left out; a match's copies counted once: 1\n",
		"verified now: 10 (no cache)\n",
		"  DIR/honest-classic-2.okey: counted once; its copies: 1\n",
		"DIR/cheat-withhold.okey: unfinished, honest so far: counted as unfinished for its players, not as a loss\n",
		"DIR/tampered-classic-3.okey: left out: damaged or altered, no one named",
		"Win share: 95% Wilson interval.\n",
		"  rating                ▁",
		"  score   classic       ",
		"more players (--top, or --json for all)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	for _, line := range strings.Split(s[strings.Index(s, "matches. Ratings"):], "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	b.Reset()
	WriteText(&b, Summary{}, 2, "/data/stats-cache.json")
	if !strings.Contains(b.String(), "verdicts from the cache (/data/stats-cache.json): 0\n") || !strings.HasSuffix(b.String(), "no finished match verifies: no record yet\n") {
		t.Errorf("an empty record:\n%s", b.String())
	}
}
