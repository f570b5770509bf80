package sim

import (
	"context"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

func config(t *testing.T, ruleset string, players int) Config {
	t.Helper()
	rs, err := engine.ParseRuleset(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Ruleset: rs, Players: players, Bots: []string{"greedy"}, Seed: 7, Stall: 100 * time.Millisecond, Withhold: 30 * time.Second}
}

// TestPlayHonest: an honest match verifies honest and counts its hands.
func TestPlayHonest(t *testing.T) {
	lane.NoRace(t)
	c := config(t, "turkish-rummy:rounds=1", 2)
	m, err := Play(context.Background(), c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Report.Honest || m.Transcript == nil || m.Replayed != 0 {
		t.Fatalf("report %+v", m.Report)
	}
	var s Stats
	s.Add(m.Result)
	if s.Hands != 1 || s.Elapsed <= 0 || s.Is101 || s.Hands != s.Stalemates+s.Kinds["groups"]+s.Kinds["seven pairs"]+s.Kinds["okey discard"] {
		t.Fatalf("stats %+v", s)
	}
}

// TestPlayCheatNamed: a seat that cheats is named by verify, and by every
// honest seat.
func TestPlayCheatNamed(t *testing.T) {
	lane.NoRace(t)
	c := config(t, "turkish-rummy:rounds=1", 3)
	c.Cheat, c.Cheater = table.CheatBadKey, 2
	m, err := Play(context.Background(), c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.Report.Honest || m.Report.Violation == nil || m.Report.Violation.Seat != 2 {
		t.Fatalf("verify: %+v", m.Report)
	}
	for seat, r := range m.Result.Results[:2] {
		if r.Violation == nil || r.Violation.Seat != 2 {
			t.Fatalf("seat %d: %v", seat, r.Violation)
		}
	}
}

// TestMover: Okey 101 is played by b101 (greedy means it there) only.
func TestMover(t *testing.T) {
	if _, err := Mover("expert", 0, true); err == nil {
		t.Fatal("expert at 101")
	}
	for _, name := range []string{"greedy", "b101"} {
		m, err := Mover(name, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(table.Mover101); !ok {
			t.Fatalf("%s at 101: %T", name, m)
		}
	}
	if _, err := Mover("random", 1, false); err != nil {
		t.Fatal(err)
	}
}

func TestParseFaults(t *testing.T) {
	f, err := ParseFaults("drop=0.05,dup=0.1,reorder=0.5,delay=5ms")
	if err != nil || f.Drop != 0.05 || f.Dup != 0.1 || f.Reorder != 0.5 || f.Delay != 5*time.Millisecond {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := ParseFaults(""); err != nil || f != (table.Faults{}) {
		t.Fatalf("none: %+v %v", f, err)
	}
	for _, bad := range []string{"drop", "drop=0.6", "drop=-1", "delay=2s", "delay=x", "loss=0.1"} {
		if _, err := ParseFaults(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
