// Package analysis is okey analyze's reading of a hand in notation: a
// hand of 14 or 15 tiles (winning or not, its arrangement, its distance,
// the discards that win) or an Okey 101 rack's best opening, as the JSON
// objects okey analyze prints; and the batch mode's one answer a line.
// Its errors for a person carry their catalogue key (Error).
package analysis

import (
	"errors"
	"fmt"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Error is a bad hand, said for a person: Key is its text in the
// catalogue (English, a format), Args its arguments.
type Error struct {
	Key  string
	Args []any
}

func (e *Error) Error() string { return fmt.Sprintf(e.Key, e.Args...) }

func userErr(key string, args ...any) error { return &Error{key, args} }

// Hand14 is the JSON object for 14 tiles.
type Hand14 struct {
	Indicator string     `json:"indicator"`
	Okey      string     `json:"okey"`
	Tiles     []string   `json:"tiles"`
	Winning   bool       `json:"winning"`
	Kind      *string    `json:"kind"`
	Groups    [][]string `json:"groups"`
	Distance  int        `json:"distance"`

	// For a report (Analyze's report): the okey, the winning groups or a
	// best partial layout, and the tiles left out of it.
	OkeyFace engine.Face    `json:"-"`
	Layout   []engine.Group `json:"-"`
	Rest     []engine.Face  `json:"-"`
}

// Hand15 is the JSON object for 15 tiles.
type Hand15 struct {
	Indicator       string   `json:"indicator"`
	Okey            string   `json:"okey"`
	Tiles           []string `json:"tiles"`
	WinningDiscards []string `json:"winning_discards"`

	// For a report: the discards of least distance, and that distance.
	Best     []string `json:"-"`
	BestDist int      `json:"-"`
}

// Analyze parses and analyses one hand of 14 or 15 tiles; it returns
// *Hand14 or *Hand15, with what a report shows when report is set.
func Analyze(indicator string, tokens []string, report bool) (any, error) {
	ind, okey, hand, err := parse(indicator, tokens, true)
	if err != nil {
		return nil, err
	}
	if err := engine.ValidateHand(hand); err != nil {
		return nil, TrimEngine(err)
	}
	if twice(hand, ind) {
		return nil, userErr(i18n.Mark("two %v in the hand and %v is the indicator: there are only two"), ind, ind)
	}
	names := FaceNames(hand)
	switch len(hand) {
	case engine.WinSize:
		res := &Hand14{Indicator: ind.String(), Okey: okey.String(), Tiles: names, Groups: [][]string{}, OkeyFace: okey}
		if arr, ok := engine.WinningArrangement(okey, hand); ok {
			res.Winning = true
			k := arr.Kind.String()
			res.Kind = &k
			for _, g := range arr.Groups {
				res.Groups = append(res.Groups, FaceNames(g.Tiles))
			}
			if report {
				res.Layout = arr.Groups
			}
		} else {
			res.Distance = engine.Distance(okey, hand)
			if report {
				res.Layout, res.Rest = engine.Arrange(okey, hand, false)
			}
		}
		return res, nil
	case engine.WinSize + 1:
		res := &Hand15{Indicator: ind.String(), Okey: okey.String(), Tiles: names,
			WinningDiscards: FaceNames(engine.WinningDiscards(okey, hand))}
		if report {
			best, d := engine.BestDiscards(okey, hand)
			res.Best, res.BestDist = FaceNames(best), d
		}
		return res, nil
	}
	return nil, userErr(i18n.Mark("need %d or %d tiles, got %d"), engine.WinSize, engine.WinSize+1, len(hand))
}

// parse reads the indicator and the tiles; noFalseJoker refuses a false
// joker as the indicator with its own message.
func parse(indicator string, tokens []string, noFalseJoker bool) (ind, okey engine.Face, hand []engine.Face, err error) {
	ind, err = engine.ParseFace(indicator)
	if err != nil {
		return ind, okey, nil, userErr(i18n.Mark("indicator: %v"), TrimEngine(err))
	}
	if noFalseJoker && ind == engine.FalseJoker {
		return ind, okey, nil, userErr(i18n.Mark("indicator %q: a false joker is never the indicator"), indicator)
	}
	okey, err = engine.OkeyFor(ind)
	if err != nil {
		return ind, okey, nil, TrimEngine(err)
	}
	hand = make([]engine.Face, 0, len(tokens))
	for _, tok := range tokens {
		f, err := engine.ParseFace(tok)
		if err != nil {
			return ind, okey, nil, TrimEngine(err)
		}
		hand = append(hand, f)
	}
	return ind, okey, hand, nil
}

// twice reports whether the indicator's face is twice in the tiles: the
// indicator is one of the two tiles of its face.
func twice(tiles []engine.Face, ind engine.Face) bool {
	n := 0
	for _, f := range tiles {
		if f == ind {
			n++
		}
	}
	return n == 2
}

// FaceNames is the faces in notation.
func FaceNames(fs []engine.Face) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}

// TrimEngine is an engine error's message for a terminal: without the
// "engine: " prefix (engine.Error.Message).
func TrimEngine(err error) error {
	var e *engine.Error
	if errors.As(err, &e) {
		return errors.New(e.Message())
	}
	return err
}
