package bot

import "testing"

// TestChoose: a level or a strategy, never both; neither is the default
// level's; b101 is a strategy; a strategy that cannot play a known table's
// ruleset is refused now, an unknown table's later.
func TestChoose(t *testing.T) {
	for _, c := range []struct {
		level, strategy string
		known, is101    bool
		want            string // "" : an error
	}{
		{"", "", false, false, "expert"},
		{"easy", "", true, false, "random"},
		{"", "greedy", true, false, "greedy"},
		{"easy", "greedy", false, false, ""},
		{"", "b101", false, false, "b101"},
		{"", "b101", true, true, "b101"},
		{"hard", "b101", false, false, ""},
		{"", "b101", true, false, ""},
		{"", "expert", true, true, ""},
		{"", "expert", false, true, "expert"},
		{"", "greedy", true, true, "greedy"},
		{"", "nosuch", false, false, ""},
		{"nosuch", "", false, false, ""},
	} {
		got, err := Choose(c.level, c.strategy, c.known, c.is101)
		if c.want == "" && err == nil {
			t.Errorf("%+v: %q, want an error", c, got)
		}
		if c.want != "" && (err != nil || got != c.want) {
			t.Errorf("%+v: %q %v, want %q", c, got, err, c.want)
		}
	}
	if LevelOf("expert") != "hard" || LevelOf("random") != "easy" || LevelOf("nosuch") != "" {
		t.Error("LevelOf")
	}
}
