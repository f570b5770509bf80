package tablemodel

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// TestRuleNamesEveryLanguage: every rule a violation can name (table.Rules)
// has a name in every language: in English the rule itself, in Turkish the
// rule and a few Turkish words, never the English words.
func TestRuleNamesEveryLanguage(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	seen := map[table.Rule]bool{}
	for _, r := range table.Rules {
		if seen[r] {
			t.Errorf("%s is twice in table.Rules", r)
		}
		seen[r] = true
		key, ok := ruleNames[r]
		if !ok || !strings.HasPrefix(key, string(r)+" (") {
			t.Errorf("%s: no name (%q)", r, key)
			continue
		}
		for _, lang := range i18n.Langs {
			i18n.Set(lang)
			got := RuleName(r)
			switch {
			case lang == i18n.English && got != string(r):
				t.Errorf("%s in English: %q", r, got)
			case lang != i18n.English && (got == key || !strings.HasPrefix(got, string(r)+" (")):
				t.Errorf("%s in %v: %q, want the rule and words in that language", r, lang, got)
			}
		}
	}
	if len(ruleNames) != len(table.Rules) {
		t.Errorf("%d rule names for %d rules", len(ruleNames), len(table.Rules))
	}
}
