// Package docs holds the player's documentation that the okey command
// shows: docs/rules.md and its Turkish docs/rules.tr.md, for `okey help
// rules`, and each command's help text in both languages (help/, for
// `okey COMMAND -h` and `okey help COMMAND`).
package docs

import (
	_ "embed"
	"slices"
	"strings"
)

// Rules is docs/rules.md: the rules of each preset, in the project's words.
//
//go:embed rules.md
var Rules string

// RulesTR is docs/rules.tr.md: the same rules in Turkish, section by
// section (each preset's section names the preset in backquotes).
//
//go:embed rules.tr.md
var RulesTR string

// RulesFor is the rules page md (Rules or RulesTR) for one preset: its
// sections common to every preset (the text before the first "## "
// heading, and each heading that names no preset), and each section whose
// heading names the preset in backquotes in its parentheses ("## Classic
// (`classic`)", "## A turn (`classic`, `german`)"), in the page's order.
func RulesFor(md, preset string) string {
	var b strings.Builder
	for _, sec := range rulesSections(md) {
		head, _, _ := strings.Cut(sec, "\n")
		if ps := headPresets(head); !strings.HasPrefix(head, "## ") || ps == nil || slices.Contains(ps, preset) {
			b.WriteString(sec)
		}
	}
	return b.String()
}

// headPresets is the presets a rules heading is for: the backquoted names
// in its parentheses; nil for a section common to every preset.
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
