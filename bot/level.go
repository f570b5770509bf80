package bot

import (
	"fmt"
	"strings"
)

// Levels are the names people pick a bot by, weakest first, each with the
// strategy it plays and its measured strength: Share is the share of hands
// one seat of the strategy won against three greedy seats in classic,
// measured once with LevelsMeasured (not at start-up), its 95% interval in
// brackets. Every command that seats bots takes these names (okey play,
// bot and tournament, the lobby's forms).
var Levels = []struct{ Level, Strategy, Share string }{
	{"easy", "random", "SHARE_RANDOM"},
	{"normal", "greedy", "25.0% (parity)"},
	{"hard", "expert", "SHARE_EXPERT"},
	{"learned", "learned", "SHARE_LEARNED"},
}

// LevelsMeasured is the command that measured Levels' shares, S the
// level's strategy (at arena's defaults: classic, seed 1).
const LevelsMeasured = "okey arena --bots S,greedy,greedy,greedy --hands 4000"

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
