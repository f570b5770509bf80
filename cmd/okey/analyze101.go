package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// opening101 is the JSON object of okey analyze --preset 101.
type opening101 struct {
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

func runAnalyze101(rules engine.Ruleset, indicator, taken string, asJSON bool, tiles []string,
	stdin io.Reader, stdout, stderr io.Writer) int {
	if len(tiles) == 0 {
		return analyzeBatch101(rules, indicator, taken, stdin, stdout, stderr)
	}
	if indicator == "" {
		fmt.Fprintln(stderr, i18n.T("okey: analyze: --indicator is required with tiles on the command line"))
		return 2
	}
	res, err := analyze101(rules, indicator, taken, tiles)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: %s\n", localErr(err)))
		return 2
	}
	if asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	fmt.Fprint(stdout, i18n.T("indicator %s, okey %s (Okey 101)\n", res.Indicator, res.Okey))
	fmt.Fprint(stdout, i18n.T("tiles:    %s\n", strings.Join(res.Tiles, " ")))
	if res.Taken != "" {
		fmt.Fprint(stdout, i18n.T("using:    %s (taken)\n", res.Taken))
	}
	verdict := func(ok bool) string {
		if ok {
			return i18n.T("opens")
		}
		return i18n.T("does not open")
	}
	// An okey, OKEY=FACE in JSON, is written FACE* with a legend line.
	groups := func(gs [][]string) {
		var legend []string
		for _, g := range gs {
			ts := make([]string, len(g))
			for i, tok := range g {
				ts[i] = tok
				if own, as, ok := strings.Cut(tok, "="); ok {
					ts[i] = as + "*"
					legend = append(legend, i18n.T("* okey (%s) stands for %s", own, as))
				}
			}
			fmt.Fprintf(stdout, "  %s\n", strings.Join(ts, " "))
		}
		for _, l := range legend {
			fmt.Fprintf(stdout, "  %s\n", l)
		}
	}
	fmt.Fprint(stdout, i18n.T("sets and runs: %d points, %s (101 needed)\n", res.Value, verdict(res.Reaches101)))
	groups(res.Groups)
	fmt.Fprint(stdout, i18n.T("doubles: %d, %s (5 needed)\n", res.Doubles, verdict(res.FiveDoubles)))
	groups(res.Pairs)
	return 0
}

// analyzeBatch101 reads "IND: tiles" lines and writes one JSON object a line.
func analyzeBatch101(rules engine.Ruleset, defaultIndicator, taken string, stdin io.Reader, stdout, stderr io.Writer) int {
	return batchLines(defaultIndicator, stdin, stdout, stderr, func(ind string, tiles []string) (any, error) {
		return analyze101(rules, ind, taken, tiles)
	})
}

// analyze101 parses a rack and finds its best opening.
func analyze101(rules engine.Ruleset, indicator, taken string, tokens []string) (*opening101, error) {
	ind, err := engine.ParseFace(indicator)
	if err != nil {
		return nil, userErr(i18n.Mark("indicator: %v"), trimEngine(err))
	}
	okey, err := engine.OkeyFor(ind)
	if err != nil {
		return nil, trimEngine(err)
	}
	rack := make([]engine.Face, 0, len(tokens))
	for _, tok := range tokens {
		f, err := engine.ParseFace(tok)
		if err != nil {
			return nil, trimEngine(err)
		}
		rack = append(rack, f)
	}
	if len(rack) == 0 || len(rack) > rules.HandSize+1 {
		return nil, userErr(i18n.Mark("need 1 to %d tiles, got %d"), rules.HandSize+1, len(rack))
	}
	n := 0
	for _, f := range rack {
		if f == ind {
			n++
		}
	}
	if n == 2 {
		return nil, userErr(i18n.Mark("two %v in the rack and %v is the indicator: there are only two"), ind, ind)
	}
	must := engine.NoFace
	if taken != "" {
		if must, err = engine.ParseFace(taken); err != nil {
			return nil, userErr(i18n.Mark("taken: %v"), trimEngine(err))
		}
	}
	o, err := engine.BestOpening101With(okey, rack, !rules.Game101.NoJokerDoubles, must)
	if err != nil {
		return nil, trimEngine(err)
	}
	res := &opening101{Preset: rules.String(), Indicator: ind.String(), Okey: okey.String(), Tiles: faceNames(rack),
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
