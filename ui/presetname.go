package ui

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
		name += " (" + opts + ")"
	}
	return name
}
