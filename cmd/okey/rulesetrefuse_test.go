package main

import (
	"strings"
	"testing"
)

// TestRulesetRefusalsSaid: every command that reads --preset says a refused
// ruleset as the engine's refusal (a typo named with its nearest option, a
// value on an option that takes none, the allowed rounds), and in Turkish
// with --lang tr.
func TestRulesetRefusalsSaid(t *testing.T) {
	for _, c := range []struct {
		args   []string
		en, tr string
	}{
		{[]string{"sim", "--preset", "classic:pionts=3"}, `unknown option "pionts=3" for classic: did you mean points=N?`, "points=N mi demek istedin?"},
		{[]string{"play", "--bots", "1", "--preset", "classic:one-color=any"}, "did you mean one-colour=any|red-black?", "one-colour=any|red-black mi demek istedin?"},
		{[]string{"bot", "--preset", "classic:partnerships=yes"}, `option "partnerships=yes" takes no value: write partnerships`, "değer almaz: partnerships yaz"},
		{[]string{"arena", "--bots", "greedy,greedy", "--preset", "turkish-rummy:rounds=2"}, "want rounds=1 or rounds=3", "rounds=1 ya da rounds=3 olmalı"},
		{[]string{"analyze", "--preset", "german:rounds=100", "R1"}, "want rounds=1..99", "rounds=1..99 olmalı"},
		{[]string{"tournament", "create", "--players", "4", "--preset", "classic:Points=3"}, "did you mean points=N?", "points=N mi demek istedin?"},
		{[]string{"sim", "--players", "5"}, "classic is for 2 to 4 players, not 5", "classic 2 ile 4 oyuncu içindir, 5 değil"},
	} {
		code, _, errs := runOkey(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.en) || strings.Contains(errs, "does not apply") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.en)
		}
		code, _, errs = runOkey(t, "", append([]string{"--lang", "tr"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.tr) || strings.Contains(errs, "option") || strings.Contains(errs, "want") {
			t.Errorf("--lang tr %v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.tr)
		}
	}
}
