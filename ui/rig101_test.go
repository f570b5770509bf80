package ui

import (
	"testing"

	"github.com/okey-game/okey/engine"
)

// rig101 builds a rigged 101 round for the screen tests: a match of
// players with dealer dealing, the indicator revealed as K3 (the okey is
// K4), then the moves the test makes, each of which must be legal.
type rig101 struct {
	t *testing.T
	r engine.Ruleset
	m *engine.Match101
}

func newRig101(t *testing.T, players, dealer int) *rig101 {
	t.Helper()
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	m, err := engine.NewMatch101(r, players, dealer)
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig101{t: t, r: r, m: m}
	rg.apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1,
		Faces: []engine.SlotFace{{Slot: rg.g().Pending()[0], Face: engine.MustParseFaces("K3")[0]}}})
	return rg
}

func (rg *rig101) g() *engine.Game101 { return rg.m.Game() }

func (rg *rig101) apply(a engine.Action101) {
	rg.t.Helper()
	if err := rg.m.Apply(a); err != nil {
		rg.t.Fatalf("%v: %v", a.Kind, err)
	}
}

// draw has seat draw from the stock.
func (rg *rig101) draw(seat int) {
	rg.t.Helper()
	rg.apply(engine.Action101{Kind: engine.Act101Draw, Seat: seat})
}

// discard has seat discard its rack's last slot as face f.
func (rg *rig101) discard(seat int, f string) {
	rg.t.Helper()
	rack := rg.g().Rack(seat)
	rg.apply(engine.Action101{Kind: engine.Act101Discard, Seat: seat,
		Faces: []engine.SlotFace{{Slot: rack[len(rack)-1], Face: engine.MustParseFaces(f)[0]}}})
}

// lay has seat open with melds, each {tiles, as}: the tiles' faces, from
// the rack's first slots on, and the faces they stand for ("" for the
// tiles' own).
func (rg *rig101) lay(seat int, melds [][2]string) {
	rg.t.Helper()
	rack := rg.g().Rack(seat)
	lay := engine.Action101{Kind: engine.Act101Lay, Seat: seat}
	k := 0
	for _, ml := range melds {
		as := ml[1]
		if as == "" {
			as = ml[0]
		}
		asFaces := engine.MustParseFaces(as)
		var mp engine.MeldPlay
		for i, f := range engine.MustParseFaces(ml[0]) {
			mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: rack[k], Face: f})
			mp.As = append(mp.As, asFaces[i])
			k++
		}
		lay.Melds = append(lay.Melds, mp)
	}
	rg.apply(lay)
}
