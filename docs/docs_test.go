package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
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

// TestChoicesMarked: the page marks okey's readings as choices: every
// section of a game with choices ends with its list (in both languages);
// every choice protocol.md names ([choice: name]) is on both pages by its
// name; every option of every preset, the new 101 ones included, is named
// in its preset's section; and 101 says that nothing is added to a double.
func TestChoicesMarked(t *testing.T) {
	proto, err := os.ReadFile("../protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("\\[choice: `([a-z0-9-]+)`\\]").FindAllStringSubmatch(string(proto), -1)
	if len(named) < 13 {
		t.Fatalf("protocol.md names %d choices", len(named))
	}
	for _, page := range []struct{ name, md, mark string }{{"rules.md", Rules, "okey's choices"}, {"rules.tr.md", RulesTR, "okey'in seçimleri"}} {
		words := code(page.md)
		for _, m := range named {
			if !slices.Contains(words, m[1]) {
				t.Errorf("%s does not name protocol.md's choice %s", page.name, m[1])
			}
		}
		names, texts := sections(page.md)
		for i, n := range names {
			heading, _, _ := strings.Cut(texts[i], "\n")
			group := strings.HasPrefix(heading, "Groups") || strings.HasPrefix(heading, "Perler")
			if n != "" && !group && !strings.Contains(texts[i], page.mark) {
				t.Errorf("%s: section %q has no list of okey's choices", page.name, heading)
			}
		}
	}
	names, texts := sections(Rules)
	section := map[string]string{}
	for i, n := range names {
		section[n] = texts[i]
	}
	has := func(text, opt string) bool {
		for _, w := range code(text) {
			if w == opt || strings.HasPrefix(w, opt+"=") {
				return true
			}
		}
		return false
	}
	for _, o := range engine.OptionHelp {
		name, _, _ := strings.Cut(o.Name, "=")
		for _, p := range strings.Split(o.Presets, ", ") {
			if !has(section[p], name) {
				t.Errorf("the %s section does not name its option %s", p, name)
			}
		}
	}
	for _, o := range engine.OptionHelp101 {
		name, _, _ := strings.Cut(o.Name, "=")
		if !has(section["101"], name) {
			t.Errorf("the 101 section does not name its option %s", name)
		}
	}
	if s := section["101"]; strings.Contains(s, "add tiles to any meld") || !strings.Contains(s, "nothing is added to a double") {
		t.Error("101: a tile is added to a set or run, never to a double")
	}
}
