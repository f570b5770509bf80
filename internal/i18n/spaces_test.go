package i18n

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestNoStraySpaces: no catalogue string, English or Turkish, has a space
// before a comma, full stop, semicolon or closing bracket, or after an
// opening one ("R6 , okey"); and a Turkish text has doubled spaces only
// where its English has them (the columns of key bars and forms), not
// inside its sentences (issue 24 point 18).
func TestNoStraySpaces(t *testing.T) {
	stray := regexp.MustCompile(`[^ ] +[,.;)]( |$)|\( `)
	all, _ := trEntries()
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := all[k]
		for _, s := range []string{k, v} {
			for _, line := range strings.Split(s, "\n") {
				if m := stray.FindString(strings.TrimRight(line, " ")); m != "" && !strings.Contains(line, "...") {
					t.Errorf("a stray space (%q) in %q", m, s)
				}
			}
		}
		if runs(v) > runs(k) {
			t.Errorf("doubled spaces in the Turkish %q that the English %q does not have", v, k)
		}
	}
}

// runs counts the runs of two spaces or more inside the lines of s (not
// their indentation).
func runs(s string) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		n += len(doubled.FindAllString(strings.TrimSpace(line), -1))
	}
	return n
}

var doubled = regexp.MustCompile(` {2,}`)
