package engine

import "testing"

// FuzzParseRuleset: the ruleset parser never panics, and what it accepts
// prints to a canonical form that parses back to the same ruleset.
func FuzzParseRuleset(f *testing.F) {
	for _, s := range []string{"classic", "classic:points=4,timer=30", "turkish-rummy:rounds=1", "german:strokes,rounds=7",
		"classic:deal=simple,indicator-last,leave-at-zero,one-colour=red-black,partnerships", "german:no-partnerships", "x:y=z,,",
		"classic:no-gosterme,stalemate-show", "german:leave-at-zero,others-lose,points=3", "german:rounds=05",
		"classic:one-colour=any,one-colour=red-black", "101:no-joker-swap,swap-before-open", "101:no-swap-penalty,rounds=3",
		"101:cancels=5,doubles-finisher-single,okey-face-value", "101:cancels=3", "classic:pionts=3", "classic:Points=3",
		"classic:one-color=any", "classic:partnerships=yes", "turkish-rummy:rounds=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRuleset(s)
		if err != nil {
			// Every refusal keeps its parts, for the front ends' words.
			if e, ok := err.(*RulesetError); !ok || e.Message() == "" || e.Message() == "bad ruleset" { //nolint:errorlint // the parser returns it unwrapped
				t.Fatalf("%q: refusal %T %v", s, err, err)
			}
			return
		}
		c := r.String()
		r2, err := ParseRuleset(c)
		if err != nil || r2 != r || r2.String() != c {
			t.Fatalf("%q: canonical %q does not round-trip (%v)", s, c, err)
		}
	})
}

// FuzzParseFaces: the notation parser never panics, and what it accepts
// formats back to text that parses to the same faces.
func FuzzParseFaces(f *testing.F) {
	for _, s := range []string{"R1 Y13 B7 K10 FJ", "r1 y13 fj", "R0", "K14", "  B5  ", "FJFJ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fs, err := ParseFaces(s)
		if err != nil {
			return
		}
		for _, x := range fs {
			if x > FalseJoker {
				t.Fatalf("%q: face %d out of range", s, x)
			}
		}
		back, err := ParseFaces(FormatFaces(fs))
		if err != nil || len(back) != len(fs) {
			t.Fatalf("%q: %q does not parse back (%v)", s, FormatFaces(fs), err)
		}
		for i := range fs {
			if back[i] != fs[i] {
				t.Fatalf("%q: face %d changed", s, i)
			}
		}
	})
}
