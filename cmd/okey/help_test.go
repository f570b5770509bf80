package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/okey-game/okey/internal/i18n"
)

// TestHelpFits (issue 37, 15): okey help, in English and in Turkish, fits
// 80 columns with every summary in one column (tournament's too); bot and
// watch say they work with invite codes, not only on the LAN; and every
// command's -h text (after its synopsis, before the flags) fits 80 columns.
func TestHelpFits(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) }) // --lang tr is process-wide
	for _, lang := range []string{"en", "tr"} {
		var out, errb bytes.Buffer
		if code := run([]string{"--lang", lang, "help"}, nil, &out, &errb); code != 0 {
			t.Fatalf("%s: okey help: exit %d: %s", lang, code, errb.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s: okey help: a line of %d columns: %q", lang, n, line)
			}
		}
		names := make([]string, 0, len(commands))
		for n := range commands {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !strings.Contains(out.String(), "\n  "+n+strings.Repeat(" ", 11-len(n))) {
				t.Errorf("%s: okey help: %s's summary is not in the column after the names:\n%s", lang, n, out.String())
			}
		}
		if lang == "en" {
			for _, want := range []string{"  bot        a headless player: finds or opens a table (LAN or invite code)", "  watch      watch a table (LAN or invite code) live"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("okey help: no %q in:\n%s", want, out.String())
				}
			}
		}
		for _, n := range names {
			out.Reset()
			errb.Reset()
			run([]string{"--lang", lang, n, "-h"}, nil, &out, &errb)
			text := out.String() + errb.String()
			_, body, _ := strings.Cut(text, "\n\n") // after the synopsis
			for _, line := range strings.Split(body, "\n") {
				if strings.HasPrefix(line, "  -") {
					break // the flags
				}
				if c := utf8.RuneCountInString(line); c > 80 {
					t.Errorf("%s: okey %s -h: a line of %d columns: %q", lang, n, c, line)
				}
			}
		}
	}
}
