package bot

import (
	"fmt"
	"strings"
)

// Levels are the names people pick a bot by, weakest first, each with the
// strategy it plays and its measured strength: Share is the share of hands
// one seat of the strategy won against three greedy seats in classic,
// measured once with LevelsMeasured (not at start-up), its 95% interval
// clustered by deal in brackets, and N (22:30-22:45 UTC 2026-11-28, load
// 25-30 on 2 cores; learned's figure is docs/learned.md's, the same command
// and seed; the expert's 400 hands, as the machine allowed). Every command that seats bots takes these names (okey play,
// bot and tournament, the lobby's forms).
var Levels = []struct{ Level, Strategy, Share string }{
	{"easy", "random", "0.2% [0.0-0.3], 4000 hands"},
	{"normal", "greedy", "24.3% (a quarter of 97.1%), 4000 hands"},
	{"learned", "learned", "28.8% [27.7-29.9], 4000 hands"},
	{"hard", "expert", "35.2% [31.1-39.4], 400 hands"},
}

// LevelsMeasured is the command that measured Levels' shares, S the
// level's strategy (at arena's defaults: classic, seed 1).
const LevelsMeasured = "okey arena --bots S,greedy,greedy,greedy --hands N"

// DefaultLevel is the level a bot plays when nobody chose one.
const DefaultLevel = "hard"

// LevelNames returns the level names, weakest first.
func LevelNames() []string {
	out := make([]string, len(Levels))
	for i, l := range Levels {
		out[i] = l.Level
	}
	return out
}

// StrategyFor returns the strategy name a level plays.
func StrategyFor(level string) (string, error) {
	for _, l := range Levels {
		if l.Level == level {
			return l.Strategy, nil
		}
	}
	return "", fmt.Errorf("bot: unknown level %q (have %s)", level, strings.Join(LevelNames(), ", "))
}

// ChooseStrategy resolves a level and an explicit strategy name, given as
// flags: at most one of them may be set ("" is unset); with neither it
// returns def (a strategy name).
func ChooseStrategy(level, strategy, def string) (string, error) {
	switch {
	case level != "" && strategy != "":
		return "", fmt.Errorf("bot: give a level or a strategy, not both (level %s plays %s)", level, levelStrategy(level))
	case level != "":
		return StrategyFor(level)
	case strategy != "":
		if _, err := New(strategy, 0); err != nil {
			return "", err
		}
		return strategy, nil
	}
	return def, nil
}

func levelStrategy(level string) string {
	s, err := StrategyFor(level)
	if err != nil {
		return "nothing"
	}
	return s
}
