package bot

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestForTable: at Okey 101 greedy and b101 play (b101's bot), any other
// strategy is refused with the reason; elsewhere b101 is refused, and an
// unknown name everywhere.
func TestForTable(t *testing.T) {
	for _, c := range []struct {
		name  string
		is101 bool
		want  string // "" plays
	}{
		{"greedy", true, ""}, {"b101", true, ""}, {"expert", true, "only b101 plays Okey 101"}, {"random", true, "only b101"},
		{"greedy", false, ""}, {"expert", false, ""}, {"b101", false, "plays Okey 101 only"}, {"oracle", false, "unknown strategy"},
	} {
		s, err := ForTable(c.name, 1, c.is101)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Fatalf("%s (101: %v): %v, want %q", c.name, c.is101, err, c.want)
		}
		if err != nil {
			continue
		}
		_, plays101 := s.(interface {
			Move101(*engine.Game101, *engine.View) (engine.Action101, error)
		})
		if plays101 != c.is101 {
			t.Fatalf("%s (101: %v): %T moves at 101: %v", c.name, c.is101, s, plays101)
		}
	}
	if KnownStrategy("b101") != nil || KnownStrategy("greedy") != nil || KnownStrategy("oracle") == nil {
		t.Fatal("KnownStrategy")
	}
	if !RulesetIs101("101") || RulesetIs101("classic") || RulesetIs101("no such") {
		t.Fatal("RulesetIs101")
	}
}
