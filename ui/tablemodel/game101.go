package tablemodel

import "github.com/okey-game/okey/engine"

// okey101 is Okey 101's game in the model.
type okey101 struct{}

func (okey101) name() string           { return game101 }
func (okey101) plays(s *Snapshot) bool { return s.Match101 != nil }

func (okey101) events(prev, cur *Snapshot) ([]Line, *HandEnd) { return events101(prev, cur) }

func (okey101) turnOf(s *Snapshot) int {
	seat, _, _ := s.Match101.Game().Turn()
	return seat
}

func (okey101) handNumber(s *Snapshot) uint32 { return uint32(s.Match101.HandNumber()) }

func (okey101) ranking(s *Snapshot) ([]engine.Standing, []int) {
	return s.Match101.Ranking(), s.Match101.Scores()
}
