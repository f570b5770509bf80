package engine

import (
	"sort"
	"strconv"
	"strings"
)

// Preset101 is the name of the Okey 101 preset (okey-classic.txt, "Okey
// 101"): melds laid on the table, an opening of 101 points or five doubles,
// penalty points, lowest total after a fixed number of rounds wins.
const Preset101 = "101"

// Rounds101 lists the numbers of rounds a 101 match may have; the default is
// Default101Rounds.
var Rounds101 = []int{3, 5, 7, 9, 11}

// Default101Rounds is the number of rounds when the ruleset names none.
const Default101Rounds = 5

// Options101 are the choices of Okey 101 where okey-classic.txt is silent or
// where common practice differs. The zero value is the default reading
// (protocol.md 3.6): each field is another reading, named as an option.
type Options101 struct {
	// NoJokerDoubles (no-joker-doubles): a double is two tiles playing as
	// their own face; an okey may not stand for another face in a double.
	NoJokerDoubles bool
	// NoJokerSwap (no-joker-swap): an okey laid on the table stays there.
	NoJokerSwap bool
	// NoSwapPenalty (no-swap-penalty): a discard that could replace an okey
	// on the table costs nothing (only one that could be added to a set or
	// run is an addable discard).
	NoSwapPenalty bool
	// SwapBeforeOpen (swap-before-open): a player who has not opened may
	// take an okey off the table by laying the tile it stands for.
	SwapBeforeOpen bool
	// FinishJokerPenalty (finish-joker-penalty): an okey as the finishing
	// discard costs the 101 of a discarded okey too.
	FinishJokerPenalty bool
	// JokerFinishSingleSums (joker-finish-single-sums): a finish with an
	// okey doubles the finisher's points and the unopened players' 202, but
	// not the opened players' sums.
	JokerFinishSingleSums bool
	// UnopenedJokerPenalty (unopened-joker-penalty): an okey left in an
	// unopened hand costs 101 on top of the 202.
	UnopenedJokerPenalty bool
	// NoCancel (no-cancel): a round where every player opened with doubles
	// is played on, not cancelled.
	NoCancel bool
	// OkeyFaceValue (okey-face-value): an okey left in an opened rack counts
	// its own number in the rack's sum (by default it counts 0); it still
	// costs its 101 okey-in-hand penalty.
	OkeyFaceValue bool
	// DoublesFinisherSingle (doubles-finisher-single): a doubles opener who
	// finishes scores -101, not -202; the others' points are still doubled.
	DoublesFinisherSingle bool
	// Cancels (cancels=N) is the most rounds cancelled in a row (the hand
	// dealt after that many is played on); 0 stands for the default,
	// DefaultCancels101, so that the zero value stays the default reading.
	Cancels int
}

// DefaultCancels101 is the most all-doubles rounds cancelled in a row when
// the ruleset does not say (cancels=N changes it, no-cancel cancels none).
const DefaultCancels101 = 3

// MaxCancels returns the most rounds cancelled in a row: 0 with no-cancel,
// else cancels=N or DefaultCancels101.
func (o Options101) MaxCancels() int {
	switch {
	case o.NoCancel:
		return 0
	case o.Cancels != 0:
		return o.Cancels
	}
	return DefaultCancels101
}

// OptionHelp101 lists the options of preset 101, for usage texts.
var OptionHelp101 = []struct{ Name, Help string }{
	{"rounds=N", "the match has N rounds: 3, 5, 7, 9 or 11 (default 5)"},
	{"partnerships", "opposite players (4 players) add their totals as a team"},
	{"timer=S", "a turn timer of S seconds (5-600)"},
	{"no-joker-doubles", "an okey may not stand for another tile in a double"},
	{"no-joker-swap", "an okey laid on the table may not be replaced by the tile it stands for"},
	{"no-swap-penalty", "discarding a tile that could replace an okey on the table costs nothing"},
	{"swap-before-open", "a player who has not opened may replace an okey on the table"},
	{"finish-joker-penalty", "an okey as the finishing discard also costs 101"},
	{"joker-finish-single-sums", "an okey finish doubles 101 and 202, not the opened players' sums"},
	{"unopened-joker-penalty", "an okey left in an unopened hand costs 101 on top of 202"},
	{"no-cancel", "a round where everyone opened with doubles is played on, not cancelled"},
	{"cancels=N", "at most N rounds in a row (1-9, default 3) are cancelled for all doubles"},
	{"okey-face-value", "an okey left in an opened rack counts its number in the sum (besides its 101)"},
	{"doubles-finisher-single", "a doubles opener who finishes scores -101, not -202"},
}

// flags101 maps the boolean option names to their fields, in name order.
func flags101(o *Options101) []struct {
	name string
	p    *bool
} {
	return []struct {
		name string
		p    *bool
	}{
		{"doubles-finisher-single", &o.DoublesFinisherSingle},
		{"finish-joker-penalty", &o.FinishJokerPenalty},
		{"joker-finish-single-sums", &o.JokerFinishSingleSums},
		{"no-cancel", &o.NoCancel},
		{"no-joker-doubles", &o.NoJokerDoubles},
		{"no-joker-swap", &o.NoJokerSwap},
		{"no-swap-penalty", &o.NoSwapPenalty},
		{"okey-face-value", &o.OkeyFaceValue},
		{"swap-before-open", &o.SwapBeforeOpen},
		{"unopened-joker-penalty", &o.UnopenedJokerPenalty},
	}
}

// newRuleset101 builds preset 101 with options (NewRuleset's case).
func newRuleset101(options string) (Ruleset, error) {
	r := Ruleset{Preset: Preset101, MinPlayers: 2, MaxPlayers: 4, Deal: DealSimple, HandSize: 21,
		Scoring: Penalty, WinPoints: 101, Rounds: Default101Rounds}
	seen := map[string]bool{}
	for _, opt := range strings.Split(options, ",") {
		opt = strings.TrimSpace(opt)
		if opt == "" {
			continue
		}
		name, val, hasVal := strings.Cut(opt, "=")
		if err := once(seen, name); err != nil {
			return Ruleset{}, err
		}
		switch {
		case name == "rounds":
			n, ok := canonicalInt(val, 3, 11)
			if !ok || n%2 == 0 {
				return Ruleset{}, badChoice(opt, name, "rounds=3", "rounds=5", "rounds=7", "rounds=9", "rounds=11")
			}
			r.Rounds = n
		case name == "cancels":
			n, ok := canonicalInt(val, 1, 9)
			if !ok {
				return Ruleset{}, badRange(opt, name, 1, 9)
			}
			if n != DefaultCancels101 {
				r.Game101.Cancels = n
			}
		case name == "timer":
			n, ok := canonicalInt(val, 5, 600)
			if !ok {
				return Ruleset{}, badRange(opt, name, 5, 600)
			}
			r.TurnSeconds = n
		case name == "partnerships" && !hasVal:
			r.Partnerships = true
		default:
			found := false
			for _, f := range flags101(&r.Game101) {
				if f.name == name && !hasVal {
					*f.p, found = true, true
				}
			}
			if !found {
				return Ruleset{}, refuseOption(Preset101, opt, name, hasVal)
			}
		}
	}
	if err := checkConflicts(Preset101, seen); err != nil {
		return Ruleset{}, err
	}
	return r, nil
}

// options101 is Options for preset 101: the options that differ from the
// defaults, sorted bytewise.
func (r Ruleset) options101() string {
	var opts []string
	if r.Rounds != Default101Rounds {
		opts = append(opts, "rounds="+strconv.Itoa(r.Rounds))
	}
	if r.TurnSeconds != 0 {
		opts = append(opts, "timer="+strconv.Itoa(r.TurnSeconds))
	}
	if r.Partnerships {
		opts = append(opts, "partnerships")
	}
	if r.Game101.Cancels != 0 {
		opts = append(opts, "cancels="+strconv.Itoa(r.Game101.Cancels))
	}
	o := r.Game101
	for _, f := range flags101(&o) {
		if *f.p {
			opts = append(opts, f.name)
		}
	}
	sort.Strings(opts)
	return strings.Join(opts, ",")
}
