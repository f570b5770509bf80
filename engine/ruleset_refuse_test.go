package engine

import (
	"fmt"
	"strings"
	"testing"
)

// optionSamples lists every option of every preset with a value (and, for
// options with values, a second value): the parser's whole vocabulary.
var optionSamples = map[string][][2]string{
	"classic": {{"partnerships"}, {"leave-at-zero"}, {"stalemate-show"}, {"no-gosterme"},
		{"one-colour=any", "one-colour=red-black"}, {"indicator-last"}, {"deal=simple", "deal=stacks"},
		{"points=3", "points=5"}, {"timer=30", "timer=60"}},
	"turkish-rummy": {{"rounds=1", "rounds=3"}, {"timer=30", "timer=60"}},
	"german": {{"partnerships"}, {"no-partnerships"}, {"leave-at-zero"}, {"others-lose"},
		{"rounds=3", "rounds=7"}, {"points=3", "points=5"}, {"timer=30", "timer=60"}, {"strokes"}},
	Preset101: {{"rounds=3", "rounds=7"}, {"partnerships"}, {"timer=30", "timer=60"}, {"no-joker-doubles"},
		{"no-joker-swap"}, {"no-swap-penalty"}, {"swap-before-open"}, {"finish-joker-penalty"},
		{"joker-finish-single-sums"}, {"unopened-joker-penalty"}, {"no-cancel"}, {"cancels=1", "cancels=9"},
		{"okey-face-value"}, {"doubles-finisher-single"}},
}

func optName(o string) string { n, _, _ := strings.Cut(o, "="); return n }

// TestRepeatedOptionRefused: an option given twice is refused the same way
// for every option of every preset, with the same value or another, next
// to each other or apart (protocol.md 3.1).
func TestRepeatedOptionRefused(t *testing.T) {
	for preset, opts := range optionSamples {
		for _, o := range opts {
			second := o[0]
			if o[1] != "" {
				second = o[1]
			}
			want := fmt.Sprintf("engine: option %q given twice", optName(o[0]))
			for _, text := range []string{o[0] + "," + o[0], o[0] + "," + second, o[0] + ",timer=45," + second} {
				if optName(o[0]) == "timer" && strings.Count(text, "timer") == 3 {
					text = o[0] + "," + second
				}
				_, err := NewRuleset(preset, text)
				if err == nil || err.Error() != want {
					t.Errorf("%s:%s: %v, want %q", preset, text, err, want)
				}
			}
		}
	}
}

// TestContradictoryPairsRefused: each pair of Conflicts is refused, in
// either order, with its reason; each of its options alone is accepted.
func TestContradictoryPairsRefused(t *testing.T) {
	sample := func(preset, name string) string {
		for _, o := range optionSamples[preset] {
			if optName(o[0]) == name {
				return o[0]
			}
		}
		t.Fatalf("%s: no sample of %s", preset, name)
		return ""
	}
	for _, c := range Conflicts {
		a, b := sample(c.Preset, c.A), sample(c.Preset, c.B)
		want := fmt.Sprintf("engine: options %s and %s do not go together: %s", c.A, c.B, c.Why)
		for _, text := range []string{a + "," + b, b + "," + a} {
			if _, err := NewRuleset(c.Preset, text); err == nil || err.Error() != want {
				t.Errorf("%s:%s: %v, want %q", c.Preset, text, err, want)
			}
		}
		for _, o := range []string{a, b} {
			if _, err := NewRuleset(c.Preset, o); err != nil {
				t.Errorf("%s:%s alone: %v", c.Preset, o, err)
			}
		}
	}
}

// TestEveryOtherPairAccepted: Conflicts is complete in the parser's eyes:
// every pair of distinct options of a preset that it does not list is
// accepted, and written canonically so that it reads back the same.
func TestEveryOtherPairAccepted(t *testing.T) {
	conflict := map[[3]string]bool{}
	for _, c := range Conflicts {
		conflict[[3]string{c.Preset, c.A, c.B}] = true
		conflict[[3]string{c.Preset, c.B, c.A}] = true
	}
	pairs := 0
	for preset, opts := range optionSamples {
		for i, x := range opts {
			for _, y := range opts[i+1:] {
				for _, a := range x {
					for _, b := range y {
						if a == "" || b == "" || conflict[[3]string{preset, optName(a), optName(b)}] {
							continue
						}
						pairs++
						r, err := NewRuleset(preset, a+","+b)
						if err != nil {
							t.Errorf("%s:%s,%s: %v", preset, a, b, err)
							continue
						}
						back, err := ParseRuleset(r.String())
						if err != nil || back != r {
							t.Errorf("%s:%s,%s: canonical %q does not read back (%v)", preset, a, b, r.String(), err)
						}
					}
				}
			}
		}
	}
	if pairs < 100 {
		t.Fatalf("only %d pairs tried", pairs)
	}
}

// TestSeatCountOptions: an option with no effect at a seat count is
// refused there (protocol.md 3.1), so that each game has one spelling.
func TestSeatCountOptions(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int
		ok   bool
	}{
		{"german", 2, true}, {"german", 3, true}, {"german", 4, true},
		{"german:no-partnerships", 2, false}, {"german:no-partnerships", 3, false}, {"german:no-partnerships", 4, true},
		{"classic:partnerships", 3, false}, {"classic:partnerships", 4, true},
		{"101:partnerships", 2, false}, {"101:partnerships", 4, true},
		{"german:no-partnerships,others-lose", 3, false}, {"german:others-lose", 3, true},
	} {
		r, err := ParseRuleset(c.text)
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		if err := r.CheckPlayers(c.n); (err == nil) != c.ok {
			t.Errorf("%s with %d seats: %v, want ok=%v", c.text, c.n, err, c.ok)
		}
	}
}
