package main

import (
	"testing"

	"github.com/okey-game/okey/internal/i18n"
)

// TestNewMatchRowCounts: the chooser's row says "vs 1 bot", not "vs 1
// bots" (issue 24 point 18).
func TestNewMatchRowCounts(t *testing.T) {
	i18n.Set(i18n.English) // other tests run commands that set the language
	if got := newMatchRow(1, "classic"); got != "start a new match vs 1 bot (classic)" {
		t.Errorf("%q", got)
	}
	if got := newMatchRow(3, "classic"); got != "start a new match vs 3 bots (classic)" {
		t.Errorf("%q", got)
	}
}
