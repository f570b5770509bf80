package engine

import (
	"strconv"
	"strings"
)

// RulesetRefusal says why a ruleset text, or a seat count for a ruleset, is
// refused (protocol.md 3.1).
type RulesetRefusal uint8

// The refusals of a ruleset text and of a seat count.
const (
	// RefuseUnknownPreset: Name is no preset; Have lists the presets.
	RefuseUnknownPreset RulesetRefusal = iota + 1
	// RefuseUnknownOption: Option is no option of any preset; Nearest is
	// Preset's option it most looks like ("" when none is near), Have lists
	// Preset's options.
	RefuseUnknownOption
	// RefuseOtherPreset: Option is another preset's; Have lists the presets
	// that have it.
	RefuseOtherPreset
	// RefuseNoValue: Option gives a value to Name, which takes none.
	RefuseNoValue
	// RefuseBadValue: Option's value is not one of Values, or not a number
	// Lo..Hi (Values nil); Seconds marks a number of seconds.
	RefuseBadValue
	// RefuseTwice: Name is given twice.
	RefuseTwice
	// RefuseConflict: Name and Other do not go together, because of Why
	// (one of Conflicts).
	RefuseConflict
	// RefusePlayers: Preset is for Lo to Hi players, not N.
	RefusePlayers
	// RefuseNeedsFour: the option Name needs 4 players, not N.
	RefuseNeedsFour
)

// RulesetError is a refused ruleset text or seat count with its parts kept
// apart, so that a front end says it in its own words (ui translates it);
// Message is the English sentence, Error the same with the package's
// prefix, the text okey always printed.
type RulesetError struct {
	Refusal RulesetRefusal
	Preset  string // the preset the text names
	Option  string // the option as written ("pionts=3")
	Name    string // the option's (or the unknown preset's) name
	Nearest string // RefuseUnknownOption: the near option, as OptionHelp writes it
	Have    []string
	Values  []string // RefuseBadValue: the values allowed, each written name=value
	Lo, Hi  int      // RefuseBadValue with no Values; RefusePlayers
	Seconds bool     // RefuseBadValue: the number is seconds
	Other   string   // RefuseConflict: the other option's name
	Why     string   // RefuseConflict: the reason (Conflicts)
	N       int      // RefusePlayers, RefuseNeedsFour: the seat count
}

// Error implements error.
func (e *RulesetError) Error() string { return "engine: " + e.Message() }

// Message is the refusal in English, without the package's prefix.
func (e *RulesetError) Message() string {
	switch e.Refusal {
	case RefuseUnknownPreset:
		return "unknown preset " + strconv.Quote(e.Name) + " (have " + strings.Join(e.Have, ", ") + ")"
	case RefuseUnknownOption:
		if e.Nearest != "" {
			return "unknown option " + strconv.Quote(e.Option) + " for " + e.Preset + ": did you mean " + e.Nearest + "?"
		}
		return "unknown option " + strconv.Quote(e.Option) + " for " + e.Preset + " (its options: " + strings.Join(e.Have, ", ") + ")"
	case RefuseOtherPreset:
		return "option " + strconv.Quote(e.Option) + " does not apply to preset " + e.Preset + " (an option of " + strings.Join(e.Have, ", ") + ")"
	case RefuseNoValue:
		return "option " + strconv.Quote(e.Option) + " takes no value: write " + e.Name
	case RefuseBadValue:
		return "option " + strconv.Quote(e.Option) + ": want " + e.Want(" or ", " (seconds)")
	case RefuseTwice:
		return "option " + strconv.Quote(e.Name) + " given twice"
	case RefuseConflict:
		return "options " + e.Name + " and " + e.Other + " do not go together: " + e.Why
	case RefusePlayers:
		return e.Preset + " is for " + strconv.Itoa(e.Lo) + " to " + strconv.Itoa(e.Hi) + " players, not " + strconv.Itoa(e.N)
	case RefuseNeedsFour:
		if e.Name == "partnerships" {
			return "partnerships need 4 players, not " + strconv.Itoa(e.N)
		}
		return e.Name + " needs 4 players, not " + strconv.Itoa(e.N)
	}
	return "bad ruleset"
}

// Want writes a RefuseBadValue's allowed values: the Values joined with
// ", " and, before the last, or; else name=Lo..Hi, followed by seconds for
// a number of seconds. or and seconds are the words of the caller's
// language (" or ", " (seconds)" in English).
func (e *RulesetError) Want(or, seconds string) string {
	if len(e.Values) > 0 {
		n := len(e.Values)
		if n == 1 {
			return e.Values[0]
		}
		return strings.Join(e.Values[:n-1], ", ") + or + e.Values[n-1]
	}
	s := e.Name + "=" + strconv.Itoa(e.Lo) + ".." + strconv.Itoa(e.Hi)
	if e.Seconds {
		s += seconds
	}
	return s
}

// badRange refuses opt, a numeric option name, whose value is not lo..hi.
func badRange(opt, name string, lo, hi int) error {
	return &RulesetError{Refusal: RefuseBadValue, Option: opt, Name: name, Lo: lo, Hi: hi, Seconds: name == "timer"}
}

// badChoice refuses opt, whose value is none of values (each name=value).
func badChoice(opt, name string, values ...string) error {
	return &RulesetError{Refusal: RefuseBadValue, Option: opt, Name: name, Values: values}
}

// presetOptions lists preset's options as OptionHelp (OptionHelp101) writes
// them ("points=N", "one-colour=any|red-black"), in its order.
func presetOptions(preset string) []string {
	var out []string
	if preset == Preset101 {
		for _, o := range OptionHelp101 {
			out = append(out, o.Name)
		}
		return out
	}
	for _, o := range OptionHelp {
		for _, p := range strings.Split(o.Presets, ", ") {
			if p == preset {
				out = append(out, o.Name)
			}
		}
	}
	return out
}

// optionName is an option's name without its value ("points" of "points=N").
func optionName(o string) string {
	n, _, _ := strings.Cut(o, "=")
	return n
}

// refuseOption is the refusal of opt (name, with a value or not), which the
// parser of preset did not take: a value given to an option that takes
// none, another preset's option, or an unknown one with the nearest option
// of preset (a typo, another spelling or casing: "pionts", "one-color",
// "Points").
func refuseOption(preset, opt, name string, hasVal bool) error {
	for _, o := range presetOptions(preset) {
		if optionName(o) == name && hasVal && !strings.Contains(o, "=") {
			return &RulesetError{Refusal: RefuseNoValue, Preset: preset, Option: opt, Name: name}
		}
	}
	var have []string
	for _, p := range append(append([]string(nil), Presets...), Preset101) {
		if p == preset {
			continue
		}
		for _, o := range presetOptions(p) {
			if optionName(o) == name {
				have = append(have, p)
				break
			}
		}
	}
	if len(have) > 0 {
		return &RulesetError{Refusal: RefuseOtherPreset, Preset: preset, Option: opt, Name: name, Have: have}
	}
	e := &RulesetError{Refusal: RefuseUnknownOption, Preset: preset, Option: opt, Name: name, Have: presetOptions(preset)}
	// A near option: its name in lower case at most 2 edits away, and at
	// most one edit per three letters (the first nearest, in Have's order).
	// A name far longer than any option's is near none (and a peer's long
	// text costs no quadratic work).
	low := strings.ToLower(name)
	if len(low) > maxOptionName {
		return e
	}
	bestD := min(2, max(1, len(low)/3)) + 1
	for _, o := range e.Have {
		if d := editDistance(low, optionName(o)); d < bestD {
			e.Nearest, bestD = o, d
		}
	}
	return e
}

// maxOptionName bounds the names refuseOption compares: the longest
// option's name (joker-finish-single-sums, 24 bytes) plus the 2 edits a
// near name may have, rounded up.
const maxOptionName = 32

// editDistance is the optimal string alignment distance of a and b (bytes):
// insertions, deletions, substitutions and swaps of two neighbours count 1
// ("pionts" is 1 from "points").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
