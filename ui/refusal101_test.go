package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// TestRefusalsByGame: the one table of refusals gives an error the
// sentence of its game (the same ErrMustDraw names the stock in the
// classic game, the bank in 101), the engine's detail of a meld that is
// not valid, and the dealer's first move, from the error's type alone.
func TestRefusalsByGame(t *testing.T) {
	if a, b := refusalIn(classicGame, engine.ErrMustDraw), refusalIn(game101, engine.ErrMustDraw); a == b || !strings.Contains(b, "bank") {
		t.Errorf("ErrMustDraw reads %q in the classic game and %q in 101", a, b)
	}
	// A 101 error the 101 rows lack reads as in the classic game.
	if got := refusalIn(game101, engine.ErrTurn); got != "it is not your turn" {
		t.Errorf("ErrTurn in 101: %q", got)
	}

	// A lay of R1 B5 Y9: not a valid meld, with the engine's reason.
	s := fixture101(t)
	m := s.Match101
	if err := m.Apply(engine.Action101{Kind: engine.Act101Draw, Seat: 0}); err != nil {
		t.Fatal(err)
	}
	rack := m.Game().Rack(0)
	faces := engine.MustParseFaces("R10 Y3 K2")
	var slots []engine.Slot
	for _, f := range faces {
		for _, sl := range rack {
			if s.View.Face(m.Game(), sl) == f {
				slots = append(slots, sl)
				break
			}
		}
	}
	mp := engine.MeldPlay{As: faces}
	for i, sl := range slots {
		mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: sl, Face: faces[i]})
	}
	err := m.Clone().Apply(engine.Action101{Kind: engine.Act101Lay, Seat: 0, Melds: []engine.MeldPlay{mp}})
	if !errors.Is(err, engine.ErrMeld) {
		t.Fatalf("an invalid meld: %v", err)
	}
	want := "not a valid meld: " + strings.TrimPrefix(err.Error(), "engine: not a valid meld: ")
	if got := refusalIn(game101, err); got != want {
		t.Errorf("meld refusal %q, want %q", got, want)
	}

	// The dealer's first move must be its discard: a lay is refused.
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	m2 := modeltest.Deal101(t, r, 2, 0, "B1")
	err = m2.Apply(engine.Action101{Kind: engine.Act101Lay, Seat: 0, Melds: []engine.MeldPlay{mp}})
	if got := refusalIn(game101, err); got != "the dealer starts by discarding (x)" {
		t.Errorf("the dealer's draw (%v) reads %q", err, got)
	}
	i18n.Set(i18n.Turkish)
	defer i18n.Set(i18n.English)
	if got := refusalIn(game101, err); got == "the dealer starts by discarding (x)" || got == "" {
		t.Errorf("the dealer's refusal is not in Turkish: %q", got)
	}
}
