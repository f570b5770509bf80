package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/engine/analysis"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/verdict"
)

func runAnalyze101(rules engine.Ruleset, indicator, taken string, asJSON bool, tiles []string,
	stdin io.Reader, stdout, stderr io.Writer) int {
	if len(tiles) == 0 {
		return analyzeBatch101(rules, indicator, taken, stdin, stdout, stderr)
	}
	if indicator == "" {
		fmt.Fprintln(stderr, i18n.T("okey: analyze: --indicator is required with tiles on the command line"))
		return 2
	}
	res, err := analysis.Analyze101(rules, indicator, taken, tiles)
	err = analysisErr(err)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: %s\n", verdict.LocalErr(err)))
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
		return analysis.Analyze101(rules, ind, taken, tiles)
	})
}
