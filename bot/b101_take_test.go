package bot

import (
	"testing"

	"github.com/okey-game/okey/engine"
)

// rig101 starts a two-seat 101 round with dealer 0 on a rigged deck: seat
// 0's first tiles, seat 1's rack, the indicator; the rest from the unused
// faces in order. It returns the match and each slot's face.
func rig101(t *testing.T, seat0, seat1, indicator string) (*engine.Match101, func(engine.Slot) engine.Face) {
	t.Helper()
	r, err := engine.ParseRuleset("101")
	if err != nil {
		t.Fatal(err)
	}
	m, err := engine.NewMatch101(r, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	var left [engine.NumFaces]int
	for f := range left {
		left[f] = 2
	}
	var deck []engine.Face
	put := func(fs []engine.Face) {
		for _, f := range fs {
			if left[f] == 0 {
				t.Fatalf("rig: a third %v", f)
			}
			left[f]--
			deck = append(deck, f)
		}
	}
	fill := func(n int) {
		for f := engine.Face(0); len(deck) < n && f < engine.NumFaces; f++ {
			for left[f] > 0 && len(deck) < n {
				left[f]--
				deck = append(deck, f)
			}
		}
	}
	put(engine.MustParseFaces(seat0))
	// Seat 1's rack and the indicator are taken out first, so that the
	// filler of seat 0 does not use them.
	rack1, ind := engine.MustParseFaces(seat1), engine.MustParseFaces(indicator)
	for _, f := range append(append([]engine.Face(nil), rack1...), ind...) {
		left[f]--
	}
	fill(r.HandSize + 1)
	for _, f := range append(append([]engine.Face(nil), rack1...), ind...) {
		left[f]++
	}
	put(rack1)
	put(ind)
	fill(engine.DeckSize)
	if len(deck) != engine.DeckSize || len(rack1) != r.HandSize {
		t.Fatalf("rig: %d tiles, seat 1 %d", len(deck), len(rack1))
	}
	face := func(s engine.Slot) engine.Face { return deck[s] }
	reveal101(t, m, face)
	return m, face
}

// reveal101 opens what the round waits to see.
func reveal101(t *testing.T, m *engine.Match101, face func(engine.Slot) engine.Face) {
	t.Helper()
	for need := m.Game().Need(); need.Kind == engine.ActReveal; need = m.Game().Need() {
		var fs []engine.SlotFace
		for _, s := range need.Slots {
			fs = append(fs, engine.SlotFace{Slot: s, Face: face(s)})
		}
		if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1, Faces: fs}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestB101TakesUsableFalseJoker: the bot takes a discarded false joker its
// opening can use (as the okey's face, R5 in R4 R5 R6: 92 + 15 = 107) and
// opens with it; it leaves one that fits nothing even when an okey of its
// rack would open (the false joker is not an okey). Issue 20: the bot read a
// false joker taken as "an okey must be used" and never took it.
func TestB101TakesUsableFalseJoker(t *testing.T) {
	for _, c := range []struct {
		name, rack string
		take       bool
	}{
		{"usable", "R4 R6 R10 R11 R12 R13 B10 B11 B12 B13 K1 K3 K8 K9 Y1 Y3 Y8 Y9 B2 B7 Y5", true},
		// 92 + K11* K12 K13 = 128 with the okey, but the false joker fits
		// nothing (no R4, R6, nor two other 5s).
		{"unusable", "R5 R8 R10 R11 R12 R13 B10 B11 B12 B13 K1 K3 K12 K13 Y1 Y3 Y8 Y9 B2 B7 Y6", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, face := rig101(t, "FJ", c.rack, "R4")
			g := m.Game()
			fj := g.Rack(0)[0]
			if err := m.Apply(engine.Action101{Kind: engine.Act101Discard, Seat: 0, Faces: []engine.SlotFace{{Slot: fj, Face: engine.FalseJoker}}}); err != nil {
				t.Fatal(err)
			}
			reveal101(t, m, face)
			b, v := NewB101(), engine.NewView(1)
			move := func() engine.Action101 {
				t.Helper()
				for _, s := range m.Game().Rack(1) {
					v.Learn(s, face(s))
				}
				a, err := b.Move101(m.Game(), v)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Apply(a); err != nil {
					t.Fatalf("%v refused: %v", a.Kind, err)
				}
				reveal101(t, m, face)
				return a
			}
			a := move()
			if took := a.Kind == engine.Act101Take; took != c.take {
				t.Fatalf("the bot's first move %v, take %v", a.Kind, c.take)
			}
			if !c.take {
				return
			}
			a = move()
			laid := false
			for _, p := range a.Melds {
				for _, sf := range p.Tiles {
					laid = laid || sf.Slot == fj
				}
			}
			if a.Kind != engine.Act101Lay || !laid || m.Game().Opened(1) != engine.OpenedSets {
				t.Fatalf("after the take: %v %+v, opened %v", a.Kind, a.Melds, m.Game().Opened(1))
			}
		})
	}
}
