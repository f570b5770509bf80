package netplay

import (
	"testing"

	"github.com/okey-game/okey/bot"
)

// TestLocalBots: the bots of a match against bots play its strategy,
// b101 at Okey 101, and a saved strategy this version does not know gives
// way to the fallback; a house bot plays b101 at 101 whatever it is
// called, else its strategy.
func TestLocalBots(t *testing.T) {
	ms := LocalBots("classic", "random", "greedy", 3)
	if len(ms) != 3 {
		t.Fatalf("%d bots", len(ms))
	}
	for _, m := range ms {
		if _, ok := m.(*bot.Random); !ok {
			t.Errorf("a random bot is %T", m)
		}
	}
	for _, m := range LocalBots("101", "expert", "greedy", 2) {
		if _, ok := m.(*bot.B101); !ok {
			t.Errorf("a 101 bot is %T", m)
		}
	}
	if ms := LocalBots("classic", "no-such", "greedy", 1); len(ms) != 1 || ms[0] == nil {
		t.Errorf("an unknown strategy's bots: %v", ms)
	}
	if m, err := HouseMover("expert", 1, true); err != nil {
		t.Error(err)
	} else if _, ok := m.(*bot.B101); !ok {
		t.Errorf("a house bot at 101 is %T", m)
	}
	if _, err := HouseMover("no-such", 1, false); err == nil {
		t.Error("a house bot of an unknown strategy was made")
	}
}
