package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/okey-game/okey/docs"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// runRules is `okey help rules [PRESET]`: docs/rules.md, whole or the part
// common to every preset plus one preset's section (each preset's section
// is a "## " heading naming the preset in backquotes).
func runRules(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintln(stderr, i18n.T("usage: okey help rules [PRESET]"))
		return 2
	}
	rules := docs.Rules
	if i18n.Current() == i18n.Turkish {
		rules = docs.RulesTR
	}
	if len(args) == 0 {
		fmt.Fprint(stdout, rules)
		return 0
	}
	preset := args[0]
	if !slices.Contains(allPresets(), preset) {
		fmt.Fprint(stderr, i18n.T("okey: help rules: unknown preset %q (have %s)\n", preset, strings.Join(allPresets(), ", ")))
		return 2
	}
	fmt.Fprint(stdout, docs.RulesFor(rules, preset))
	return 0
}

// allPresets lists every preset, Okey 101 last (engine.Presets lists the
// games of 14 tiles only).
func allPresets() []string {
	return append(slices.Clone(engine.Presets), engine.Preset101)
}

// helpText is a command's help text (docs/help) in the interface's
// language: what its -h prints before the flags.
func helpText(command string) string { return docs.Help(command, langCode()) }
