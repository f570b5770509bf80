package bot

import (
	"fmt"
	"strings"
)

// Levels are the names people pick a bot by, weakest first, each with the
// strategy it plays: easy (random), normal (greedy), hard (expert).
var Levels = []struct{ Level, Strategy string }{
	{"easy", "random"},
	{"normal", "greedy"},
	{"hard", "expert"},
}

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
