package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// The strategies by name, wherever a command takes --strategy: Okey 101 has
// one bot, b101; greedy (the default) means it at a 101 table, and every
// other strategy is refused there, with the reason, as soon as the table's
// ruleset is known. b101 plays Okey 101 only.

// strategyNames is the list a --strategy flag's help shows.
func strategyNames() string {
	return strings.Join(bot.AllNames(), ", ")
}

// checkStrategy says whether the strategy called name can play a table of
// Okey 101 (is101) or of another ruleset.
func checkStrategy(name string, is101 bool) error { return bot.CheckStrategy(name, is101) }

// knownStrategy says whether name is a strategy at all.
func knownStrategy(name string) error { return bot.KnownStrategy(name) }

// strategyMover returns the mover of the strategy called name for a seat at
// a table of Okey 101 (is101) or of another ruleset.
func strategyMover(name string, seed uint64, is101 bool) (table.Mover, error) {
	return bot.ForTable(name, seed, is101)
}

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
