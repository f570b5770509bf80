package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/engine/analysis"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/verdict"
)

func init() {
	register(command{name: "analyze", summary: i18n.Mark("analyse a hand: winning or not, arrangement, discards, distance"), run: runAnalyze})
}

func runAnalyze(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	indicator := fs.String("indicator", "", i18n.T("the indicator `tile` (the okey is the next number of its colour)"))
	asJSON := fs.Bool("json", false, i18n.T("print one JSON object instead of a report"))
	preset := fs.String("preset", "classic", i18n.T("the `ruleset`, preset[:options]: 101 analyses openings"))
	taken := fs.String("taken", "", i18n.T("101: the `tile` the opening must use (the discard just taken)"))
	fs.Usage = func() {
		fmt.Fprint(stderr, helpText("analyze"))
		printDefaults(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rules, perr := engine.ParseRuleset(*preset)
	if perr != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: %v\n", ui.Plain(perr)))
		return 2
	}
	if rules.Preset == engine.Preset101 {
		return runAnalyze101(rules, *indicator, *taken, *asJSON, fs.Args(), stdin, stdout, stderr)
	}
	if *taken != "" {
		fmt.Fprintln(stderr, i18n.T("okey: analyze: --taken is for --preset 101"))
		return 2
	}
	if fs.NArg() == 0 {
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				// At a terminal: say what is awaited rather than wait silently.
				fmt.Fprintln(stderr, i18n.T("okey: analyze: reading hands from the terminal, one \"INDICATOR: TILES\" a line; Ctrl-D ends"))
				fmt.Fprintln(stderr, i18n.T("okey: analyze: (one hand on the command line: okey analyze --indicator R4 R1 R2 R3 ...)"))
			}
		}
		return analyzeBatch(*indicator, stdin, stdout, stderr)
	}
	if *indicator == "" {
		fmt.Fprintln(stderr, i18n.T("okey: analyze: --indicator is required with tiles on the command line"))
		return 2
	}
	res, err := analyzeHand(*indicator, fs.Args(), !*asJSON)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: %s\n", verdict.LocalErr(err)))
		return 2
	}
	if *asJSON {
		b, err := json.Marshal(res)
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: analyze: internal error: %s\n", ui.Plain(err)))
			return 2
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	analysis.Report(stdout, res)
	return 0
}

// analyzeBatch reads "IND: tiles" lines and writes one JSON object a line.
func analyzeBatch(defaultIndicator string, stdin io.Reader, stdout, stderr io.Writer) int {
	return batchLines(defaultIndicator, stdin, stdout, stderr, func(ind string, tiles []string) (any, error) {
		return analysis.Analyze(ind, tiles, false)
	})
}

// batchLines runs analysis.Batch and says on stderr what stopped it.
func batchLines(defaultIndicator string, stdin io.Reader, stdout, stderr io.Writer, analyze func(ind string, tiles []string) (any, error)) int {
	readErr, writeErr := analysis.Batch(defaultIndicator, stdin, stdout, ui.Plain, analyze)
	if writeErr != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: %s\n", ui.Plain(writeErr)))
		return 2
	}
	if readErr != nil {
		fmt.Fprint(stderr, i18n.T("okey: analyze: reading input: %s\n", ui.Plain(readErr)))
		return 2
	}
	return 0
}

// analyzeHand analyses one hand given on the command line; its error for
// a person.
func analyzeHand(indicator string, tokens []string, report bool) (any, error) {
	res, err := analysis.Analyze(indicator, tokens, report)
	return res, analysisErr(err)
}

// analysisErr is an analysis error as an error for a person (verdict.LocalErr).
func analysisErr(err error) error {
	var e *analysis.Error
	if errors.As(err, &e) {
		return verdict.UserErr(e.Key, e.Args...)
	}
	return err
}
