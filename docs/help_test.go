package docs

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// helpFlagRE finds the flags a help text names.
var helpFlagRE = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// TestHelp: every command's help text is there in English and in Turkish,
// starts with its synopsis in that language, names the same flags in
// both, fits 80 columns after the synopsis, and holds no format verb (it
// prints as it is).
func TestHelp(t *testing.T) {
	cmds := HelpCommands()
	for _, want := range []string{"analyze", "arena", "bot", "play", "relay", "replay", "sim", "stats", "tournament", "train", "verify", "watch"} {
		if !slices.Contains(cmds, want) {
			t.Errorf("no help text for okey %s (have %v)", want, cmds)
		}
	}
	for _, c := range cmds {
		en, tr := Help(c, "en"), Help(c, "tr")
		if !strings.HasPrefix(en, "usage: okey "+c) {
			t.Errorf("%s: the English text does not start with its synopsis: %.40q", c, en)
		}
		if !strings.HasPrefix(tr, "kullanım: okey "+c) {
			t.Errorf("%s: no Turkish text (help/%s.tr.txt), or it does not start with its synopsis: %.40q", c, c, tr)
		}
		if fe, ft := flagSet(en), flagSet(tr); !slices.Equal(fe, ft) {
			t.Errorf("%s: the English names the flags %v, the Turkish %v", c, fe, ft)
		}
		for lang, text := range map[string]string{"en": en, "tr": tr} {
			if strings.Contains(strings.NewReplacer("95%", "", "%95", "", "i%", "").Replace(text), "%") {
				t.Errorf("%s (%s): a format verb in a text printed as it is", c, lang)
			}
			_, body, _ := strings.Cut(text, "\n\n")
			for _, line := range strings.Split(body, "\n") {
				if n := utf8.RuneCountInString(line); n > 80 {
					t.Errorf("%s (%s): a line of %d columns: %q", c, lang, n, line)
				}
			}
		}
	}
	if Help("nope", "en") != "" || Help("bot", "de") != Help("bot", "en") {
		t.Error("Help: an unknown command has a text, or an unknown language is not English")
	}
}

// flagSet is the sorted set of flags text names.
func flagSet(text string) []string {
	fs := helpFlagRE.FindAllString(text, -1)
	slices.Sort(fs)
	return slices.Compact(fs)
}
