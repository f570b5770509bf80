package ui

import (
	"fmt"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestTurkishEvidenceAndPresets (issue 24 §14): a verdict's evidence and the
// presets' names read in Turkish; English keeps the library's words and the
// preset as typed.
func TestTurkishEvidenceAndPresets(t *testing.T) {
	notHeld := fmt.Errorf("%w: seat 1 slot 30", engine.ErrNotHeld)
	if got := Evidence(notHeld); got != "tile not in the player's rack: seat 1 slot 30" {
		t.Errorf("English evidence %q", got)
	}
	if got := RulesetName("german:rounds=2"); got != "german:rounds=2" {
		t.Errorf("English ruleset %q", got)
	}
	inTurkish(t)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{notHeld, "taş o oyuncunun istakasında yok (oyuncu 1 yuva 30)"},
		{engine.ErrNotWinning, "bitti denen el bitmiyor"},
		{fmt.Errorf("%w: step 3, at 4", table.ErrNotNext), "zincirdeki yerinde olmayan bir mesaj (step 3, at 4)"},
	} {
		if got := Evidence(tc.err); got != tc.want {
			t.Errorf("Evidence(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	checkTurkish(t, "the evidence", Evidence(notHeld), "istakasında yok")
	for rs, want := range map[string]string{"classic": "Klasik", "german:rounds=2": "Alman (2 el)", "101": "Okey 101",
		"turkish-rummy:rounds=1": "Türk rummy (1 el)", "poker": "poker",
		"classic:points=2,partnerships,timer=30": "Klasik (2 puan, eşli, hamle başına 30 sn)",
		"classic:deal=simple,indicator-last":     "Klasik (basit dağıtım, indicator-last)"} {
		if got := RulesetName(rs); got != want {
			t.Errorf("RulesetName(%q) = %q, want %q", rs, got, want)
		}
	}
}
