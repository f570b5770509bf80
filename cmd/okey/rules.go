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
	for _, sec := range rulesSections(rules) {
		head, _, _ := strings.Cut(sec, "\n")
		if ps := headPresets(head); !strings.HasPrefix(head, "## ") || ps == nil || slices.Contains(ps, preset) {
			fmt.Fprint(stdout, sec)
		}
	}
	return 0
}

// allPresets lists every preset, Okey 101 last (engine.Presets lists the
// games of 14 tiles only).
func allPresets() []string {
	return append(slices.Clone(engine.Presets), engine.Preset101)
}

// headPresets is the presets a rules heading is for: the backquoted names
// in its parentheses, "## Classic (`classic`)" or "## A turn (`classic`,
// `german`)"; nil for a section common to every preset.
func headPresets(head string) []string {
	open := strings.LastIndex(head, "(`")
	if open < 0 {
		return nil
	}
	inner, _, ok := strings.Cut(head[open+1:], ")")
	if !ok {
		return nil
	}
	var out []string
	for _, f := range strings.Split(inner, ",") {
		if f = strings.TrimSpace(f); len(f) > 2 && f[0] == '`' && f[len(f)-1] == '`' {
			out = append(out, f[1:len(f)-1])
		}
	}
	return out
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
