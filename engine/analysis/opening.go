package analysis

import (
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Opening101 is the JSON object of okey analyze --preset 101.
type Opening101 struct {
	Preset      string     `json:"preset"`
	Indicator   string     `json:"indicator"`
	Okey        string     `json:"okey"`
	Tiles       []string   `json:"tiles"`
	Taken       string     `json:"taken,omitempty"`
	Value       int        `json:"value"`
	Groups      [][]string `json:"groups"`
	Reaches101  bool       `json:"reaches_101"`
	Doubles     int        `json:"doubles"`
	Pairs       [][]string `json:"pairs"`
	FiveDoubles bool       `json:"five_doubles"`
	Opens       bool       `json:"opens"`
}

// Analyze101 parses an Okey 101 rack and finds its best opening; taken,
// when not "", is the tile the opening must use (the discard just taken).
func Analyze101(rules engine.Ruleset, indicator, taken string, tokens []string) (*Opening101, error) {
	ind, okey, rack, err := parse(indicator, tokens, false)
	if err != nil {
		return nil, err
	}
	if len(rack) == 0 || len(rack) > rules.HandSize+1 {
		return nil, userErr(i18n.Mark("need 1 to %d tiles, got %d"), rules.HandSize+1, len(rack))
	}
	if twice(rack, ind) {
		return nil, userErr(i18n.Mark("two %v in the rack and %v is the indicator: there are only two"), ind, ind)
	}
	must := engine.NoFace
	if taken != "" {
		if must, err = engine.ParseFace(taken); err != nil {
			return nil, userErr(i18n.Mark("taken: %v"), TrimEngine(err))
		}
	}
	o, err := engine.BestOpening101With(okey, rack, !rules.Game101.NoJokerDoubles, must)
	if err != nil {
		return nil, TrimEngine(err)
	}
	res := &Opening101{Preset: rules.String(), Indicator: ind.String(), Okey: okey.String(), Tiles: FaceNames(rack),
		Value: o.Value, Groups: groupNames(okey, o.Groups), Reaches101: o.Value >= 101,
		Doubles: o.Doubles, Pairs: groupNames(okey, o.Pairs), FiveDoubles: o.Doubles >= 5, Opens: o.Opens()}
	if must != engine.NoFace {
		res.Taken = must.String()
	}
	return res, nil
}

// groupNames writes groups, an okey that stands for another face as
// OKEY=FACE.
func groupNames(okey engine.Face, gs []engine.Group) [][]string {
	out := [][]string{}
	for _, g := range gs {
		var names []string
		for i, f := range g.Tiles {
			s := f.String()
			if f == okey && g.As[i] != okey {
				s += "=" + g.As[i].String()
			}
			names = append(names, s)
		}
		out = append(out, names)
	}
	return out
}
