package tablemodel

import (
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// presetNames are the presets' names for a person, by preset (the English
// name is the preset itself, as typed after --preset).
var presetNames = map[string]string{
	"classic":        i18n.Mark("classic"),
	"turkish-rummy":  i18n.Mark("turkish-rummy"),
	"german":         i18n.Mark("german"),
	engine.Preset101: i18n.Mark("101"),
}

// PresetName is a preset's name in the interface's language (in English the
// preset itself; an unknown preset as it is).
func PresetName(preset string) string {
	if k, ok := presetNames[preset]; ok {
		return i18n.TKey(k)
	}
	return preset
}

// RulesetName is a ruleset text (preset[:options]) for a person: in English
// the text itself, in another language the preset's name there and the
// options, which stay as typed, in parentheses ("Alman (rounds=2)").
func RulesetName(ruleset string) string {
	if i18n.Current() == i18n.English {
		return ruleset
	}
	preset, opts, _ := strings.Cut(ruleset, ":")
	name := PresetName(preset)
	if opts != "" {
		var said []string
		for _, o := range strings.Split(opts, ",") {
			said = append(said, optionName(o))
		}
		name += " (" + strings.Join(said, ", ") + ")"
	}
	return name
}

// optionWords say the common options in the interface's language (issue
// 37, 12: "Klasik (2 puan)", not "Klasik (points=2)"); the others, rarer,
// stay as typed.
var optionWords = map[string]string{
	"points":       i18n.Mark("%s points"),
	"rounds":       i18n.Mark("%s rounds"),
	"timer":        i18n.Mark("%s s a move"),
	"partnerships": i18n.Mark("partnerships"),
	"deal=simple":  i18n.Mark("a simple deal"),
}

func optionName(o string) string {
	if k, ok := optionWords[o]; ok {
		return i18n.TKey(k)
	}
	name, val, ok := strings.Cut(o, "=")
	if k, known := optionWords[name]; known && ok {
		return i18n.TKeyArgs(k, []any{val})
	}
	return o
}
