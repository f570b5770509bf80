package main

import (
	"fmt"
	"io"
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
	known := preset == engine.Preset101
	for _, p := range engine.Presets {
		known = known || p == preset
	}
	if !known {
		fmt.Fprint(stderr, i18n.T("okey: help rules: unknown preset %q (have %s)\n", preset, strings.Join(engine.Presets, ", ")))
		return 2
	}
	for _, sec := range rulesSections(rules) {
		head, _, _ := strings.Cut(sec, "\n")
		if !strings.HasPrefix(head, "## ") || !strings.Contains(head, "(`") || strings.Contains(head, "(`"+preset+"`)") {
			fmt.Fprint(stdout, sec)
		}
	}
	return 0
}

// rulesSections cuts a markdown text before each "## " heading.
func rulesSections(md string) []string {
	var out []string
	start := 0
	for i := 0; i < len(md); {
		nl := strings.IndexByte(md[i:], '\n')
		if strings.HasPrefix(md[i:], "## ") && i > start {
			out = append(out, md[start:i])
			start = i
		}
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return append(out, md[start:])
}
