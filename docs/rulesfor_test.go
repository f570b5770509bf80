package docs

import (
	"strings"
	"testing"
)

// TestRulesFor: one preset's rules keep the page's common sections and
// that preset's own, in order, and leave out every other preset's; the
// whole page is cut without losing a byte.
func TestRulesFor(t *testing.T) {
	if got := strings.Join(rulesSections(Rules), ""); got != Rules {
		t.Fatal("the sections do not add up to the page")
	}
	own := map[string]string{"classic": "## Classic (`classic`)", "turkish-rummy": "## Turkish rummy (`turkish-rummy`)",
		"german": "## German (`german`)", "101": "## Okey 101 (`101`)"}
	for preset, head := range own {
		got := RulesFor(Rules, preset)
		for _, want := range []string{"## The tiles\n", "## The turn timer\n", "## Tournaments\n", head + "\n"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: no %q", preset, want)
			}
		}
		for other, h := range own {
			if other != preset && strings.Contains(got, h) {
				t.Errorf("%s: holds %s's section", preset, other)
			}
		}
		if turn := strings.Contains(got, "## A turn (`classic`, `turkish-rummy`, `german`)"); turn == (preset == "101") {
			t.Errorf("%s: the 14-tile games' turn section shown: %v", preset, turn)
		}
		if strings.Index(got, "## The tiles") > strings.Index(got, head) || strings.Index(got, head) > strings.Index(got, "## Tournaments") {
			t.Errorf("%s: the sections are out of the page's order", preset)
		}
	}
	if got := RulesFor(RulesTR, "101"); !strings.Contains(got, "(`101`)") || strings.Contains(got, "(`german`)") {
		t.Error("the Turkish page's 101 rules: its section missing or German's shown")
	}
}
