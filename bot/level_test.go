package bot

import (
	"strings"
	"testing"
)

func TestLevels(t *testing.T) {
	for _, tc := range []struct{ level, strategy, want, err string }{
		{"easy", "", "random", ""},
		{"normal", "", "greedy", ""},
		{"hard", "", "expert", ""},
		{"", "", "expert", ""}, // the default given
		{"", "greedy", "greedy", ""},
		{"hard", "greedy", "", "not both"},
		{"grandmaster", "", "", "unknown level"},
		{"", "oracle", "", "unknown strategy"},
	} {
		got, err := ChooseStrategy(tc.level, tc.strategy, "expert")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q/%q: err %v, want %q", tc.level, tc.strategy, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q/%q = %q, %v; want %q", tc.level, tc.strategy, got, err, tc.want)
		}
	}
	if s, _ := StrategyFor(DefaultLevel); s != "expert" {
		t.Fatalf("the default level plays %q", s)
	}
	for _, l := range Levels {
		if _, err := New(l.Strategy, 1); err != nil {
			t.Fatalf("level %s: %v", l.Level, err)
		}
	}
}
