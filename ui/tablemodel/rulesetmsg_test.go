package tablemodel

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// refusedTexts are ruleset texts (and seat counts) of every kind of
// refusal, with a word each refusal's Turkish must hold.
var refusedTexts = []struct {
	text  string
	seats int
	tr    string
}{
	{"classic:pionts=3", 0, "points=N mi demek istedin"},
	{"classic:Points=3", 0, "points=N mi demek istedin"},
	{"classic:one-color=any", 0, "one-colour=any|red-black mi demek istedin"},
	{"turkish-rummy:bogus", 0, "seçenekleri: rounds=N, timer=S"},
	{"classic:partnerships=yes", 0, "değer almaz: partnerships yaz"},
	{"turkish-rummy:rounds=2", 0, "rounds=1 ya da rounds=3 olmalı"},
	{"german:rounds=0", 0, "rounds=1..99 olmalı"},
	{"101:rounds=4", 0, "rounds=9 ya da rounds=11 olmalı"},
	{"classic:timer=4", 0, "timer=5..600 (saniye) olmalı"},
	{"classic:strokes", 0, "şu oyunların seçeneği: german"},
	{"poker", 0, "bilinmeyen oyun"},
	{"classic:points=2,points=3", 0, "iki kez"},
	{"german:points=3,strokes", 0, "birlikte verilemez: strokes puandan değil"},
	{"classic", 5, "2 ile 4 oyuncu içindir, 5 değil"},
	{"classic:partnerships", 3, "4 oyuncu ister, 3 değil"},
	{"german:no-partnerships", 2, "no-partnerships 4 oyuncu ister, 2 değil"},
}

func refusedErr(t *testing.T, text string, seats int) error {
	t.Helper()
	r, err := engine.ParseRuleset(text)
	if seats != 0 {
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		err = r.CheckPlayers(seats)
	}
	if err == nil {
		t.Fatalf("%s with %d seats accepted", text, seats)
	}
	return err
}

// TestRulesetRefusalTurkish: with Turkish every ruleset refusal is Turkish
// (Plain and Explain, also wrapped in another error); with English it is
// the engine's own sentence.
func TestRulesetRefusalTurkish(t *testing.T) {
	defer i18n.Set(i18n.English)
	english := regexp.MustCompile(`\b(option|options|unknown|want|given|twice|players|needs?|write|takes|value|preset|apply|mean|contradict|seconds)\b`)
	for _, c := range refusedTexts {
		err := refusedErr(t, c.text, c.seats)
		var re *engine.RulesetError
		if !errors.As(err, &re) {
			t.Fatalf("%s: %T %v is no RulesetError", c.text, err, err)
		}
		i18n.Set(i18n.English)
		if got := Plain(err); got != re.Message() {
			t.Errorf("%s: English %q, want the engine's %q", c.text, got, re.Message())
		}
		i18n.Set(i18n.Turkish)
		wrapped := fmt.Errorf("table: bad config: %w", err)
		for _, got := range []string{Plain(err), Explain(err), Plain(wrapped)} {
			if !strings.Contains(got, c.tr) || english.MatchString(got) {
				t.Errorf("%s: Turkish %q, want %q and no English word", c.text, got, c.tr)
			}
		}
	}
}

// TestConflictReasonsTranslated: every reason of engine.Conflicts has its
// Turkish (conflictWhys lists exactly them).
func TestConflictReasonsTranslated(t *testing.T) {
	defer i18n.Set(i18n.English)
	i18n.Set(i18n.Turkish)
	var whys []string
	for _, c := range engine.Conflicts {
		if !slices.Contains(whys, c.Why) {
			whys = append(whys, c.Why)
		}
		if i18n.TKey(c.Why) == c.Why {
			t.Errorf("%s %s/%s: %q has no Turkish", c.Preset, c.A, c.B, c.Why)
		}
	}
	slices.Sort(whys)
	mine := slices.Clone(conflictWhys)
	slices.Sort(mine)
	if !slices.Equal(whys, mine) {
		t.Errorf("conflictWhys %v, engine.Conflicts %v", mine, whys)
	}
}
