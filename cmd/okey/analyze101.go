package main

import (
	"encoding/json"
	"fmt"
	"io"

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
	analysis.Report(stdout, res)
	return 0
}

// analyzeBatch101 reads "IND: tiles" lines and writes one JSON object a line.
func analyzeBatch101(rules engine.Ruleset, defaultIndicator, taken string, stdin io.Reader, stdout, stderr io.Writer) int {
	return batchLines(defaultIndicator, stdin, stdout, stderr, func(ind string, tiles []string) (any, error) {
		return analysis.Analyze101(rules, ind, taken, tiles)
	})
}
