package docs

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sections cuts a page at its "## " headings: the heading's preset (the
// backquoted name in it, "" for a common section) and the section's text.
func sections(md string) (names []string, texts []string) {
	parts := strings.Split("\n"+md, "\n## ")
	pre := regexp.MustCompile("\\(`([a-z0-9-]+)`\\)")
	for _, p := range parts[1:] {
		head, _, _ := strings.Cut(p, "\n")
		name := ""
		if m := pre.FindStringSubmatch(head); m != nil {
			name = m[1]
		}
		names = append(names, name)
		texts = append(texts, p)
	}
	return names, texts
}

var codeRE = regexp.MustCompile("`([^`]+)`")

// code returns the backquoted words of a text, sorted, without repeats:
// presets, options, tiles and commands, which both languages must name alike.
func code(s string) []string {
	var out []string
	for _, m := range codeRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestRulesInBothLanguages: the Turkish page has the English page's
// sections in the same order, the same presets, and each section names the
// same options, tiles and commands.
func TestRulesInBothLanguages(t *testing.T) {
	en, enText := sections(Rules)
	tr, trText := sections(RulesTR)
	if !slices.Equal(en, tr) {
		t.Fatalf("sections differ:\n en %q\n tr %q", en, tr)
	}
	for _, p := range []string{"classic", "turkish-rummy", "german", "101"} {
		if !slices.Contains(en, p) {
			t.Errorf("no section for preset %s", p)
		}
	}
	for i := range en {
		if e, r := code(enText[i]), code(trText[i]); !slices.Equal(e, r) {
			t.Errorf("section %d (%q): the code words differ:\n en %q\n tr %q", i, en[i], e, r)
		}
	}
	for _, w := range []string{"gösterge", "okey", "sahte okey", "per", "çift", "istaka", "el açmak", "işlek", "deste", "gösterme", "kırmızı", "siyah"} {
		if !strings.Contains(RulesTR, w) {
			t.Errorf("the Turkish rules never say %q", w)
		}
	}
}
