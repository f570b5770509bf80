package engine

import (
	"errors"
	"fmt"
	"slices"
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

// TestRefusalWords: each refusal says what is wrong with the text: a typo
// or another casing is unknown and names the nearest option of the preset
// (not "another preset's"), a value given to an option that takes none is
// refused as such, every bad value gives the values allowed (rounds of
// turkish-rummy and german included), another preset's option names the
// presets that have it.
func TestRefusalWords(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"classic:pionts=3", `unknown option "pionts=3" for classic: did you mean points=N?`},
		{"classic:Points=3", `unknown option "Points=3" for classic: did you mean points=N?`},
		{"classic:one-color=any", `unknown option "one-color=any" for classic: did you mean one-colour=any|red-black?`},
		{"german:stroke", `unknown option "stroke" for german: did you mean strokes?`},
		{"101:no-cancels", `unknown option "no-cancels" for 101: did you mean no-cancel?`},
		{"101:Cancels=2", `unknown option "Cancels=2" for 101: did you mean cancels=N?`},
		{"turkish-rummy:bogus", `unknown option "bogus" for turkish-rummy (its options: rounds=N, timer=S)`},
		{"classic:partnerships=yes", `option "partnerships=yes" takes no value: write partnerships`},
		{"101:partnerships=yes", `option "partnerships=yes" takes no value: write partnerships`},
		{"german:strokes=1", `option "strokes=1" takes no value: write strokes`},
		{"101:no-cancel=1", `option "no-cancel=1" takes no value: write no-cancel`},
		{"turkish-rummy:rounds=2", `option "rounds=2": want rounds=1 or rounds=3`},
		{"turkish-rummy:rounds=x", `option "rounds=x": want rounds=1 or rounds=3`},
		{"german:rounds=0", `option "rounds=0": want rounds=1..99`},
		{"german:rounds=100", `option "rounds=100": want rounds=1..99`},
		{"101:rounds=4", `option "rounds=4": want rounds=3, rounds=5, rounds=7, rounds=9 or rounds=11`},
		{"101:cancels=0", `option "cancels=0": want cancels=1..9`},
		{"classic:timer=4", `option "timer=4": want timer=5..600 (seconds)`},
		{"classic:points=0", `option "points=0": want points=1..99`},
		{"classic:one-colour=green", `option "one-colour=green": want one-colour=any or one-colour=red-black`},
		{"classic:deal=random", `option "deal=random": want deal=stacks or deal=simple`},
		{"turkish-rummy:partnerships", `option "partnerships" does not apply to preset turkish-rummy (an option of classic, german, 101)`},
		{"classic:strokes", `option "strokes" does not apply to preset classic (an option of german)`},
		{"101:one-colour=any", `option "one-colour=any" does not apply to preset 101 (an option of classic)`},
		{"poker", `unknown preset "poker" (have classic, turkish-rummy, german, 101)`},
		{"german:points=3,strokes", `options points and strokes do not go together: strokes count from 0, not from points`},
		{"101:cancels=2,no-cancel", `options cancels and no-cancel do not go together: no-cancel cancels no round`},
	} {
		_, err := ParseRuleset(c.text)
		var re *RulesetError
		if !errors.As(err, &re) || re.Message() != c.want || err.Error() != "engine: "+c.want {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
	for _, c := range []struct {
		text string
		n    int
		want string
	}{
		{"classic", 5, "classic is for 2 to 4 players, not 5"},
		{"classic:partnerships", 3, "partnerships need 4 players, not 3"},
		{"german:no-partnerships", 2, "no-partnerships needs 4 players, not 2"},
	} {
		r, _ := ParseRuleset(c.text)
		err := r.CheckPlayers(c.n)
		var re *RulesetError
		if !errors.As(err, &re) || re.Message() != c.want {
			t.Errorf("%s with %d: %v, want %q", c.text, c.n, err, c.want)
		}
	}
}

// TestOptionHelpIsTheParser: the options OptionHelp and OptionHelp101 list
// for a preset (what a refusal names as the nearest or the preset's
// options) are exactly the options its parser takes.
func TestOptionHelpIsTheParser(t *testing.T) {
	for preset, opts := range optionSamples {
		var want []string
		for _, o := range opts {
			want = append(want, optName(o[0]))
		}
		var got []string
		for _, o := range presetOptions(preset) {
			got = append(got, optionName(o))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: help lists %v, the parser takes %v", preset, got, want)
		}
	}
}

// TestLongUnknownOption: a name longer than any option's is unknown with no
// nearest option, and is refused at once whatever its length.
func TestLongUnknownOption(t *testing.T) {
	for _, p := range append(append([]string(nil), Presets...), Preset101) {
		for _, n := range presetOptions(p) {
			if len(optionName(n))+2 > maxOptionName {
				t.Fatalf("%s: maxOptionName %d is too short", n, maxOptionName)
			}
		}
	}
	_, err := NewRuleset("classic", strings.Repeat("p", 1<<20))
	var re *RulesetError
	if !errors.As(err, &re) || re.Refusal != RefuseUnknownOption || re.Nearest != "" {
		t.Fatalf("%v", err)
	}
}
