package ui

import (
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The interface's language: every string a person reads goes through
// i18n.T. Library errors stay English in logs; shown to a player, the known
// ones are translated here from their type (Explain), the rest shown as
// Plain gives them.

// keyName is how the status bar and help write a key.
func keyName(name string) string {
	switch name {
	case "arrows":
		return i18n.T("arrows")
	case "space":
		return i18n.T("space")
	case "any key":
		return i18n.T("any key")
	case "enter":
		return i18n.T("enter")
	}
	return name
}

// ColourName is a colour's name in prose ("red", "kırmızı"); tiles keep
// their notation (R7).
func ColourName(c engine.Colour) string {
	switch c {
	case engine.Red:
		return i18n.T("red")
	case engine.Yellow:
		return i18n.T("yellow")
	case engine.Blue:
		return i18n.T("blue")
	case engine.Black:
		return i18n.T("black")
	}
	return c.String()
}

// RuleName is a protocol rule's name for a person (tablemodel.RuleName).
func RuleName(rule table.Rule) string { return tablemodel.RuleName(rule) }

// KindNameOf is KindName for a kind written as the protocol names it
// (tablemodel.KindNameOf).
func KindNameOf(name string) string { return tablemodel.KindNameOf(name) }

// KindName is a protocol message's kind for a person (tablemodel.KindName).
func KindName(k table.Kind) string { return tablemodel.KindName(k) }

// ShortTime is when a match started, as the language writes a day and an
// hour: "Jan 2 15:04", "2.01 15:04".
func ShortTime(t time.Time) string { return i18n.ShortTime(t) }

// Evidence is the evidence of a verdict for a person (tablemodel.Evidence).
func Evidence(err error) string { return tablemodel.Evidence(err) }

// PresetName is a preset's name in the interface's language
// (tablemodel.PresetName).
func PresetName(preset string) string { return tablemodel.PresetName(preset) }

// RulesetName is a ruleset text for a person (tablemodel.RulesetName).
func RulesetName(ruleset string) string { return tablemodel.RulesetName(ruleset) }
