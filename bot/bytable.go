package bot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/okey-game/okey/engine"
)

// The strategies by name, wherever a command takes a strategy: Okey 101 has
// one bot, b101; greedy (the default) means it at a 101 table, and every
// other strategy is refused there, with the reason, as soon as the table's
// ruleset is known. b101 plays Okey 101 only.

// AllNames is every strategy's name: Names, then Name101.
func AllNames() []string { return append(Names(), Name101) }

// CheckStrategy says whether the strategy called name can play a table of
// Okey 101 (is101) or of another ruleset.
func CheckStrategy(name string, is101 bool) error {
	switch {
	case name == Name101 && !is101:
		return fmt.Errorf("%s plays Okey 101 only (--preset 101); here use one of %s", Name101, strings.Join(Names(), ", "))
	case name == Name101:
		return nil
	case !slices.Contains(Names(), name):
		return fmt.Errorf("unknown strategy %q (have %s)", name, strings.Join(AllNames(), ", "))
	case is101 && name != "greedy":
		return fmt.Errorf("only %s plays Okey 101 (greedy, the default, means it there), not %q", Name101, name)
	}
	return nil
}

// KnownStrategy says whether name is a strategy at all (at one ruleset or
// the other), for a command that learns the table's ruleset later.
func KnownStrategy(name string) error {
	if name == Name101 || slices.Contains(Names(), name) {
		return nil
	}
	return fmt.Errorf("unknown strategy %q (have %s)", name, strings.Join(AllNames(), ", "))
}

// ForTable is the strategy called name for a seat at a table of Okey 101
// (is101: B101, which also moves by Move101) or of another ruleset; the
// error of CheckStrategy when it cannot play there.
func ForTable(name string, seed uint64, is101 bool) (Strategy, error) {
	if err := CheckStrategy(name, is101); err != nil {
		return nil, err
	}
	if is101 {
		return NewB101(), nil
	}
	return New(name, seed)
}

// RulesetIs101 reports whether a ruleset text is Okey 101's (false when it
// does not parse).
func RulesetIs101(ruleset string) bool {
	r, err := engine.ParseRuleset(ruleset)
	return err == nil && r.Preset == engine.Preset101
}
