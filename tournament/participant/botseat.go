package participant

import (
	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// StrategySeat makes c's seat played by the strategy called name: Plays
// refuses a tournament whose ruleset it cannot play (before the
// participant registers) with a *StrategyError, and Sit gives each table
// the strategy for its ruleset (bot.ForTable).
func StrategySeat(c *Config, name string) {
	c.Plays = func(ruleset string) error {
		if err := bot.CheckStrategy(name, bot.RulesetIs101(ruleset)); err != nil {
			return &StrategyError{err}
		}
		return nil
	}
	c.Sit = func(_ tournament.Ref, cfg table.Config, _ int) Sitting {
		m, err := bot.ForTable(name, 0, bot.RulesetIs101(cfg.Ruleset))
		if err != nil {
			// Plays refused the tournament before: never here. A nil
			// mover makes the table fail with table.NewPeer's error.
			return Sitting{}
		}
		return Sitting{Mover: m}
	}
}

// LevelSeat is StrategySeat for a level's strategy: it plays every
// ruleset, b101 at Okey 101.
func LevelSeat(c *Config, name string) {
	c.Plays = func(string) error { return nil }
	c.Sit = func(_ tournament.Ref, cfg table.Config, _ int) Sitting {
		is101 := bot.RulesetIs101(cfg.Ruleset)
		n := name
		if is101 {
			n = "greedy" // which means b101 there
		}
		m, err := bot.ForTable(n, 0, is101)
		if err != nil {
			return Sitting{}
		}
		return Sitting{Mover: m}
	}
}

// StrategyError is a participant's refusal of a ruleset its strategy
// cannot play (StrategySeat's Config.Plays).
type StrategyError struct{ Err error }

func (e *StrategyError) Error() string { return e.Err.Error() }
func (e *StrategyError) Unwrap() error { return e.Err }
