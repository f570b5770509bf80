package tablemodel

import (
	"errors"
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// conflictWhys are the reasons of engine.Conflicts, for their translation
// (a test checks that every reason of the engine's list is here).
var conflictWhys = []string{
	i18n.Mark("stalemate-show scores a gösterme, and no-gosterme has none"),
	i18n.Mark("strokes count up from 0: no account reaches 0"),
	i18n.Mark("they contradict each other"),
	i18n.Mark("strokes score no points to lose"),
	i18n.Mark("strokes count from 0, not from points"),
	i18n.Mark("no-cancel cancels no round"),
	i18n.Mark("without swaps no discard could replace an okey"),
}

// rulesetRefusal says a refused ruleset text or seat count in the current
// language; in English it is the engine's own Message.
func rulesetRefusal(e *engine.RulesetError) string {
	switch e.Refusal {
	case engine.RefuseUnknownPreset:
		return i18n.T("unknown preset %q (have %s)", e.Name, strings.Join(e.Have, ", "))
	case engine.RefuseUnknownOption:
		if e.Nearest != "" {
			return i18n.T("unknown option %q for %s: did you mean %s?", e.Option, e.Preset, e.Nearest)
		}
		return i18n.T("unknown option %q for %s (its options: %s)", e.Option, e.Preset, strings.Join(e.Have, ", "))
	case engine.RefuseOtherPreset:
		return i18n.T("option %q does not apply to preset %s (an option of %s)", e.Option, e.Preset, strings.Join(e.Have, ", "))
	case engine.RefuseNoValue:
		return i18n.T("option %q takes no value: write %s", e.Option, e.Name)
	case engine.RefuseBadValue:
		return i18n.T("option %q: want %s", e.Option, e.Want(i18n.T(" or "), i18n.T(" (seconds)")))
	case engine.RefuseTwice:
		return i18n.T("option %q given twice", e.Name)
	case engine.RefuseConflict:
		return i18n.T("options %s and %s do not go together: %s", e.Name, e.Other, i18n.TKey(e.Why))
	case engine.RefusePlayers:
		return i18n.T("%s is for %d to %d players, not %d", e.Preset, e.Lo, e.Hi, e.N)
	case engine.RefuseNeedsFour:
		if e.Name == "partnerships" {
			return i18n.T("partnerships need 4 players, not %d", e.N)
		}
		return i18n.T("%s needs 4 players, not %d", e.Name, e.N)
	}
	return e.Message()
}

// plainRuleset is Plain's text out with a ruleset refusal in err's chain
// said in the current language.
func plainRuleset(err error, out string) string {
	var e *engine.RulesetError
	if !errors.As(err, &e) {
		return out
	}
	return strings.Replace(out, e.Message(), rulesetRefusal(e), 1)
}
