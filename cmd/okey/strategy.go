package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// The strategies by name, wherever a command takes --strategy: Okey 101 has
// one bot, b101; greedy (the default) means it at a 101 table, and every
// other strategy is refused there, with the reason, as soon as the table's
// ruleset is known. b101 plays Okey 101 only.

// strategyNames is the list a --strategy flag's help shows.
func strategyNames() string {
	return strings.Join(append(bot.Names(), bot.Name101), ", ")
}

// checkStrategy says whether the strategy called name can play a table of
// Okey 101 (is101) or of another ruleset.
func checkStrategy(name string, is101 bool) error {
	switch {
	case name == bot.Name101 && !is101:
		return fmt.Errorf("%s plays Okey 101 only (--preset 101); here use one of %s", bot.Name101, strings.Join(bot.Names(), ", "))
	case name == bot.Name101:
		return nil
	case !slices.Contains(bot.Names(), name):
		return fmt.Errorf("unknown strategy %q (have %s)", name, strategyNames())
	case is101 && name != "greedy":
		return fmt.Errorf("only %s plays Okey 101 (greedy, the default, means it there), not %q", bot.Name101, name)
	}
	return nil
}

// knownStrategy says whether name is a strategy at all (at one ruleset or
// the other), for a command that learns the table's ruleset later.
func knownStrategy(name string) error {
	if name == bot.Name101 || slices.Contains(bot.Names(), name) {
		return nil
	}
	return fmt.Errorf("unknown strategy %q (have %s)", name, strategyNames())
}

// strategyMover returns the mover of the strategy called name for a seat at
// a table of Okey 101 (is101) or of another ruleset; the error of
// checkStrategy when it cannot play there.
func strategyMover(name string, seed uint64, is101 bool) (table.Mover, error) {
	if err := checkStrategy(name, is101); err != nil {
		return nil, err
	}
	if is101 {
		return bot.NewB101(), nil
	}
	return bot.New(name, seed)
}

// rulesetIs101 reports whether a ruleset text is Okey 101's (false when it
// does not parse).
func rulesetIs101(ruleset string) bool {
	r, err := engine.ParseRuleset(ruleset)
	return err == nil && r.Preset == engine.Preset101
}

// tournamentBot is a tourney participant's seat played by the strategy
// called name: Plays refuses a tournament whose ruleset it cannot play
// (before the participant registers), and Sit gives each table the mover
// for its ruleset.
func tournamentBot(c *participant.Config, name string) {
	c.Plays = func(ruleset string) error {
		if err := checkStrategy(name, rulesetIs101(ruleset)); err != nil {
			return &strategyError{err}
		}
		return nil
	}
	c.Sit = func(_ tournament.Ref, cfg table.Config, _ int) participant.Sitting {
		m, err := strategyMover(name, 0, rulesetIs101(cfg.Ruleset))
		if err != nil {
			// Plays refused the tournament before: never here. A nil
			// mover makes the table fail with table.NewPeer's error.
			return participant.Sitting{}
		}
		return participant.Sitting{Mover: m}
	}
}

// tournamentLevelBot is tournamentBot for a level's strategy: it plays
// every ruleset, b101 at Okey 101.
func tournamentLevelBot(c *participant.Config, name string) {
	c.Plays = func(string) error { return nil }
	c.Sit = func(_ tournament.Ref, cfg table.Config, _ int) participant.Sitting {
		is101 := rulesetIs101(cfg.Ruleset)
		n := name
		if is101 {
			n = "greedy" // which means b101 there
		}
		m, err := strategyMover(n, 0, is101)
		if err != nil {
			return participant.Sitting{}
		}
		return participant.Sitting{Mover: m}
	}
}

// strategyError is a tournament participant's refusal of a ruleset its
// strategy cannot play (participant.Config.Plays).
type strategyError struct{ err error }

func (e *strategyError) Error() string { return e.err.Error() }
func (e *strategyError) Unwrap() error { return e.err }

// levelOf is the level whose strategy is strategy ("" for none).
func levelOf(strategy string) string {
	for _, l := range bot.Levels {
		if l.Strategy == strategy {
			return l.Level
		}
	}
	return ""
}

// printLevels writes the bot levels for a command's -h: each level's
// strategy and its measured strength (bot.Levels), the command that
// measured it, and the default.
func printLevels(w io.Writer) {
	fmt.Fprint(w, i18n.T("Bot levels (--level), weakest first: the strategy each plays and the share of\nhands one seat of it won against three greedy seats (95%% interval), measured\nonce, at arena's defaults (classic, seed 1), with\n  %s\nAt Okey 101 every level plays b101.\n", bot.LevelsMeasured))
	for _, l := range bot.Levels {
		def := ""
		if l.Level == bot.DefaultLevel {
			def = " " + i18n.T("(the default)")
		}
		fmt.Fprintf(w, "  %-8s %-8s %s%s\n", l.Level, l.Strategy, l.Share, def)
	}
	fmt.Fprintln(w)
}
