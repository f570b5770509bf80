package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// TestReport: a cheat the honest seats and verify name is caught, and
// said so seat by seat; the same match judged for another cheater is not;
// an honest match's figures say every transcript verified.
func TestReport(t *testing.T) {
	lane.NoRace(t)
	i18n.Set(i18n.English)
	c := config(t, "turkish-rummy:rounds=1", 3)
	c.Cheat, c.Cheater = table.CheatBadKey, 2
	m, err := Play(context.Background(), c, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if !m.Caught(&b, 0, c) || !strings.Contains(b.String(), "match 0: seat 0 names seat 2: ") || !strings.Contains(b.String(), "match 0: verify names seat 2: ") {
		t.Errorf("not caught:\n%s", b.String())
	}
	b.Reset()
	other := c
	other.Cheater = 1
	if m.Caught(&b, 0, other) || !strings.Contains(b.String(), "verify did not name seat 1") {
		t.Errorf("caught as seat 1's:\n%s", b.String())
	}
	b.Reset()
	s := Stats{Hands: 2, Stalemates: 1, Kinds: map[string]int{"groups": 1}, Elapsed: 2e9, Crypto: 1e9}
	s.WriteText(&b, 1)
	for _, want := range []string{"matches: 1, hands: 2, stalemates: 1\n", "wins: groups 1, seven pairs 0, okey discard 0\n", "time per hand: 1s (cryptography 500ms a peer, 50%)\n", "every transcript verified: yes\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}
