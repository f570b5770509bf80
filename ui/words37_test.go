package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

// TestWordsReadRight (issue 37, 12): at 80x24 and 120x36, in English and
// in Turkish, the quit question's key bar names the keys the question
// names (e/h in Turkish, under "e: evet, kalk   h: hayır, kal"); a discard
// made reads as done ("K11 taşını attın", not "atıyorsun"); and 101's help
// says p sorts for five doubles, not seven pairs.
func TestWordsReadRight(t *testing.T) {
	for _, lang := range []string{"en", "tr"} {
		for _, size := range [][2]int{{80, 24}, {120, 36}} {
			name := fmt.Sprintf("%s %dx%d", lang, size[0], size[1])
			if lang == "tr" {
				inTurkish(t)
			} else {
				i18n.Set(i18n.English)
			}
			want := map[string][]string{
				"en": {"y leave", "n stay", "you discard the ", "p pairs (for five doubles)"},
				"tr": {"e kalk", "h kal", " taşını attın", "p çift diz (beş çift için)"},
			}[lang]
			not := map[string][]string{
				"en": {"seven pairs"},
				"tr": {"y çık", "n kal", "atıyorsun", "yedi çift"},
			}[lang]
			hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
			hs.resize(size[0], size[1])
			hs.request()
			hs.keys("q")
			bar := screenLines(hs.scr)[size[1]-1]
			for _, w := range want[:2] {
				if !strings.Contains(bar, w) {
					t.Errorf("%s: the quit question's key bar has no %q: %q", name, w, bar)
				}
			}
			hs.keys("n")
			hs.keys("x")
			if s := hs.screen(); !strings.Contains(s, want[2]) {
				t.Errorf("%s: the discard made is not said as %q:\n%s", name, want[2], s)
			}
			s := fixture101(t)
			h101 := newHarness(t, s, Palette256)
			h101.resize(size[0], size[1])
			h101.keys("?")
			help := h101.screen()
			if !strings.Contains(help, want[3]) {
				t.Errorf("%s: 101's help has no %q:\n%s", name, want[3], help)
			}
			for _, n := range not {
				if strings.Contains(bar+hs.screen()+help, n) {
					t.Errorf("%s: %q is still shown", name, n)
				}
			}
		}
	}
	i18n.Set(i18n.English)
}
