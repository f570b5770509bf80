package main

import (
	"fmt"
	"io"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/internal/i18n"
)

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
