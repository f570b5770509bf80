package participant

import (
	"errors"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

type mover101 interface {
	Move101(*engine.Game101, *engine.View) (engine.Action101, error)
}

// TestStrategySeat: a seat played by a strategy refuses, before it
// registers, a ruleset the strategy cannot play (a *StrategyError with the
// reason), and sits at each table with the strategy for its ruleset; a
// level's seat plays every ruleset, b101 at Okey 101.
func TestStrategySeat(t *testing.T) {
	var c Config
	StrategySeat(&c, "expert")
	var se *StrategyError
	if err := c.Plays("101"); !errors.As(err, &se) || !strings.Contains(err.Error(), "only b101 plays Okey 101") {
		t.Fatalf("expert at 101: %v, want a StrategyError", err)
	}
	if err := c.Plays("classic"); err != nil {
		t.Fatalf("expert at classic: %v", err)
	}
	if s := c.Sit(tournament.Ref{Round: 1}, table.Config{Ruleset: "classic"}, 0); s.Mover == nil {
		t.Fatal("no mover at classic")
	}
	StrategySeat(&c, "greedy")
	if s := c.Sit(tournament.Ref{Round: 1}, table.Config{Ruleset: "101"}, 0); s.Mover == nil {
		t.Fatal("greedy has no mover at 101")
	} else if _, ok := s.Mover.(mover101); !ok {
		t.Fatalf("greedy at 101: %T does not play Okey 101", s.Mover)
	}
	LevelSeat(&c, "expert")
	if err := c.Plays("101"); err != nil {
		t.Fatalf("a level at 101: %v", err)
	}
	if s := c.Sit(tournament.Ref{Round: 1}, table.Config{Ruleset: "101"}, 0); s.Mover == nil {
		t.Fatal("a level has no mover at 101")
	} else if _, ok := s.Mover.(mover101); !ok {
		t.Fatalf("a level at 101: %T does not play Okey 101", s.Mover)
	}
}
