package bot

import "fmt"

// Choose resolves a command's --level and --strategy (either may be "")
// into the strategy its bots play: at most one of the two, b101 included
// among the strategies; with neither, DefaultLevel's. When the table's
// ruleset is known (known; is101 says whether it is Okey 101), a strategy
// named that cannot play it is refused now (CheckStrategy); else it is
// refused once the table is found.
func Choose(level, strategy string, known, is101 bool) (string, error) {
	def, _ := StrategyFor(DefaultLevel)
	named := strategy
	if named == Name101 {
		named = "" // not one of New's: checked below
	}
	chosen, err := ChooseStrategy(level, named, def)
	if err == nil && strategy == Name101 {
		chosen = Name101
		if level != "" {
			err = fmt.Errorf("give a level or a strategy, not both")
		}
	}
	if err == nil && strategy != "" && known {
		err = CheckStrategy(strategy, is101)
	}
	return chosen, err
}

// LevelOf is the level whose strategy is strategy ("" for none).
func LevelOf(strategy string) string {
	for _, l := range Levels {
		if l.Strategy == strategy {
			return l.Level
		}
	}
	return ""
}
