// Package rig101 is a rigged Okey 101 round for the front ends' tests (the
// terminal's in package ui, the web page's in package web): a round whose
// faces the test chooses, built on the engine alone (no shuffle, no
// peer), and the seat's snapshots after each move, as the table's peer
// would hand them to a front end. The player (seat 0) holds Rack, whose
// first ten tiles (Opening) open with 112 points; the indicator is B1, so
// the okey is B2. It is test code that two packages share, kept out of
// the binary's paths (nothing but tests imports it).
package rig101

import (
	"fmt"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// The player's rack in the fixture: an opening of 112 points in three
// melds (R10-R13, the 10s, K11-K13), R9 to add later, and ten loose
// tiles (the model's own test positions, modeltest).
const (
	Opening = modeltest.Opening101
	Rack    = modeltest.Rack101
)

// Fixture builds an n-player 101 round with the options text (an Okey 101
// ruleset's options, "rounds=3") where the last seat deals and has
// discarded Y6; the player (seat 0) holds Rack and is to draw.
func Fixture(n int, options string) (*tablemodel.Snapshot, error) {
	r, err := engine.NewRuleset(engine.Preset101, options)
	if err != nil {
		return nil, err
	}
	dealer := n - 1
	m, err := engine.NewMatch101(r, n, dealer)
	if err != nil {
		return nil, err
	}
	pend := m.Game().Pending()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1,
		Faces: []engine.SlotFace{{Slot: pend[0], Face: engine.MustParseFaces("B1")[0]}}}); err != nil {
		return nil, err
	}
	faces := engine.MustParseFaces(Rack)
	slots := m.Game().Rack(0)
	if len(slots) != len(faces) {
		return nil, fmt.Errorf("rig101: a rack of %d tiles, the fixture has %d", len(slots), len(faces))
	}
	v := engine.NewView(0)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	if err := m.Apply(engine.Action101{Kind: engine.Act101Discard, Seat: dealer,
		Faces: []engine.SlotFace{{Slot: m.Game().Rack(dealer)[0], Face: engine.MustParseFaces("Y6")[0]}}}); err != nil {
		return nil, err
	}
	names := []string{"ayse", "bot1", "bot2", "bot3"}[:n]
	return &tablemodel.Snapshot{Seat: 0, Names: names, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}, nil
}

// Apply plays a on s (in place); a draw of the player's own seat learns
// draw as the drawn tile's face. It returns the snapshot before the move
// (a copy), for tablemodel.Events.
func Apply(s *tablemodel.Snapshot, a engine.Action101, draw string) (*tablemodel.Snapshot, error) {
	if a.Kind == engine.Act101Draw && a.Seat == s.Seat {
		f, err := engine.ParseFaces(draw)
		if err != nil || len(f) != 1 {
			return nil, fmt.Errorf("rig101: the drawn face %q", draw)
		}
		s.View.Learn(s.Match101.Game().Stock()[0], f[0])
	}
	prev := *s
	prev.Match101 = s.Match101.Clone()
	if err := s.Match101.Apply(a); err != nil {
		return nil, fmt.Errorf("rig101: %v: %w", a.Kind, err)
	}
	return &prev, nil
}

// Meld is one meld of a lay: its tiles' faces and the faces they stand
// for ("" for the tiles' own).
type Meld struct{ Tiles, As string }

// Lay is seat's lay of melds, the tiles taken from its rack's first slots
// on in order.
func Lay(g *engine.Game101, seat int, melds ...Meld) (engine.Action101, error) {
	rack := g.Rack(seat)
	lay := engine.Action101{Kind: engine.Act101Lay, Seat: seat}
	k := 0
	for _, ml := range melds {
		as := ml.As
		if as == "" {
			as = ml.Tiles
		}
		tiles, err := engine.ParseFaces(ml.Tiles)
		if err != nil {
			return lay, err
		}
		asFaces, err := engine.ParseFaces(as)
		if err != nil || len(asFaces) != len(tiles) {
			return lay, fmt.Errorf("rig101: the meld %q stands for %q", ml.Tiles, as)
		}
		var mp engine.MeldPlay
		for i, f := range tiles {
			if k >= len(rack) {
				return lay, fmt.Errorf("rig101: seat %d holds %d tiles", seat, len(rack))
			}
			mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: rack[k], Face: f})
			mp.As = append(mp.As, asFaces[i])
			k++
		}
		lay.Melds = append(lay.Melds, mp)
	}
	return lay, nil
}

// Discard is seat's discard of its rack's slot at index i (-1: the last)
// as face f.
func Discard(g *engine.Game101, seat, i int, f string) (engine.Action101, error) {
	rack := g.Rack(seat)
	if i < 0 {
		i = len(rack) - 1
	}
	faces, err := engine.ParseFaces(f)
	if err != nil || len(faces) != 1 || i >= len(rack) {
		return engine.Action101{}, fmt.Errorf("rig101: discard %q at %d", f, i)
	}
	return engine.Action101{Kind: engine.Act101Discard, Seat: seat,
		Faces: []engine.SlotFace{{Slot: rack[i], Face: faces[0]}}}, nil
}
