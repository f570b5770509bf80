package engine

import (
	"sort"
	"strconv"
	"strings"
)

// DealKind says how a hand's tiles are laid out from the shuffled deck.
type DealKind uint8

const (
	// DealStacks is the traditional deal: 21 stacks of five plus a spare placed
	// by a die roll, a second roll picking the face-up tile, stacks handed out
	// in the order okey-classic.txt describes.
	DealStacks DealKind = iota
	// DealGerman is okey-german.txt's stack deal: each player gets stacks k and
	// k+n, then four (first player) or three tiles from the following stacks.
	DealGerman
	// DealSimple is "shuffle, take 14 (first player 15), turn one up".
	DealSimple
	// DealDrawOrder is turkish-rummy.txt: each player draws a tile, the highest
	// plays first; then a simple deal with the upcard on top of the stock.
	DealDrawOrder
)

// ScoringKind says how a hand's result moves the scores.
type ScoringKind uint8

const (
	// CountDown means everyone starts at StartScore; the others lose points when a
	// player wins (classic).
	CountDown ScoringKind = iota
	// Penalty means everyone starts at 0; opponents of the winner gain penalty
	// points; lowest total wins (turkish-rummy).
	Penalty
	// WinnerCountDown means the winner's own account falls; first to 0 wins
	// (german).
	WinnerCountDown
	// Strokes means the winner gets strokes; most strokes after Rounds hands wins
	// (german quick variant).
	Strokes
)

// OneColour selects the one-colour doubling variation.
type OneColour uint8

// The one-colour variations.
const (
	OneColourOff      OneColour = iota
	OneColourAny                // any single colour doubles
	OneColourRedBlack           // only all-red or all-black hands double
)

// Ruleset is a preset plus its options: data, not code. Every peer at a table
// must hold the same Ruleset; its canonical string (String) goes into the
// table's identity.
type Ruleset struct {
	Preset     string
	MinPlayers int
	MaxPlayers int
	Deal       DealKind
	// HandSize is what every player holds between turns; the first player
	// starts with HandSize+1.
	HandSize int
	// PairsNoDiscard: a seven-pairs win is declared right after the draw with
	// 14 tiles and no discard (german).
	PairsNoDiscard bool
	// IndicatorLast: the face-up tile is drawn as the last tile of the stock.
	IndicatorLast bool

	Scoring    ScoringKind
	StartScore int
	// Points per opponent (CountDown, Penalty) or for the winner
	// (WinnerCountDown, Strokes).
	WinPoints       int
	PairsPoints     int
	OkeyDiscardMult int // multiplier for finishing with an okey discard (classic 2)
	OkeyDiscardFlat int // points for an okey discard when not a multiplier (penalty 40)
	GostermePoints  int // what showing the indicator's twin is worth (0: no gösterme)
	// StalemateShow: a gösterme scores in a hand that ends with no winner
	// (german; classic's option stalemate-show). Classic's text: a hand with
	// no winner gives no score, so by default its gösterme counts only when
	// someone wins.
	StalemateShow bool
	// UpcardPoints is turkish-rummy's upcard bonus: after the hand's audit,
	// the opponents of the seat dealt the indicator's twin each get these
	// penalty points (no show needed; Match.Settle applies it).
	UpcardPoints    int
	StalematePoints int // penalty to everyone when the stock runs out
	OneColour       OneColour
	Partnerships    bool
	LeaveAtZero     bool
	// Rounds ends the match after this many hands (0: play until a score
	// condition ends it).
	Rounds int
	// TurnSeconds is the table's turn timer (0: none). The engine keeps no
	// clock: each player's own program enforces it on its own moves (the
	// terminal UI moves for a player whose time is up), so it never decides
	// a step's validity.
	TurnSeconds int
	// Game101 holds the options of Okey 101 (preset 101; zero otherwise).
	// Preset 101 is played by Match101, not Match (game101.go).
	Game101 Options101
}

// Presets lists the preset names in a fixed order.
var Presets = []string{"classic", "turkish-rummy", "german"}

// OptionHelp lists the options each preset accepts, with their meaning,
// for usage texts.
var OptionHelp = []struct{ Name, Presets, Help string }{
	{"partnerships", "classic, german", "opposite players (4 players) share a score"},
	{"leave-at-zero", "classic, german", "a side at 0 or less leaves; the rest play on (german: for the places)"},
	{"stalemate-show", "classic", "a gösterme scores even when the hand ends with no winner"},
	{"no-gosterme", "classic", "no gösterme (okey-rules.txt's tournament scoring)"},
	{"others-lose", "german", "winners keep their points, the others lose them; most points wins; ends at 0"},
	{"one-colour=any|red-black", "classic", "a one-colour win scores double"},
	{"indicator-last", "classic", "the face-up tile is the last tile of the stock"},
	{"deal=stacks|simple", "classic", "the traditional stack deal or the simple deal"},
	{"rounds=N", "turkish-rummy, german", "a quick game of N hands (turkish-rummy: 1 or 3)"},
	{"timer=S", "classic, turkish-rummy, german", "a turn timer of S seconds (5-600): when it runs out the player's program moves for them"},
	{"points=N", "classic, german", "start from N points instead of 20 (a quicker game; not with strokes)"},
	{"strokes", "german", "the quick variant: winners get strokes, most strokes after rounds wins"},
	{"no-partnerships", "german", "four players play alone"},
}

// NewRuleset returns the preset with options applied. Options are
// comma-separated names or name=value pairs; see OptionHelp.
func NewRuleset(preset, options string) (Ruleset, error) {
	var r Ruleset
	switch preset {
	case "classic":
		r = Ruleset{Preset: preset, MinPlayers: 2, MaxPlayers: 4, Deal: DealStacks, HandSize: 14,
			Scoring: CountDown, StartScore: 20, WinPoints: 2, PairsPoints: 4, OkeyDiscardMult: 2,
			GostermePoints: 1}
	case "turkish-rummy":
		r = Ruleset{Preset: preset, MinPlayers: 2, MaxPlayers: 4, Deal: DealDrawOrder, HandSize: 14,
			Scoring: Penalty, WinPoints: 20, PairsPoints: 40, OkeyDiscardFlat: 40, UpcardPoints: 10,
			StalematePoints: 10, Rounds: 3}
	case "german":
		r = Ruleset{Preset: preset, MinPlayers: 2, MaxPlayers: 4, Deal: DealGerman, HandSize: 13,
			PairsNoDiscard: true, Scoring: WinnerCountDown, StartScore: 20, WinPoints: 2, PairsPoints: 4,
			OkeyDiscardFlat: 4, GostermePoints: 1, StalemateShow: true, Partnerships: true}
	case Preset101:
		return newRuleset101(options)
	default:
		return Ruleset{}, &RulesetError{Refusal: RefuseUnknownPreset, Name: preset, Have: append(append([]string(nil), Presets...), Preset101)}
	}
	points, othersLose := 0, false
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
		case name == "partnerships" && !hasVal && preset != "turkish-rummy":
			r.Partnerships = true
		case name == "no-partnerships" && !hasVal && preset == "german":
			r.Partnerships = false
		case name == "leave-at-zero" && !hasVal && (preset == "classic" || preset == "german"):
			r.LeaveAtZero = true
		case name == "stalemate-show" && !hasVal && preset == "classic":
			r.StalemateShow = true
		case name == "no-gosterme" && !hasVal && preset == "classic":
			r.GostermePoints = 0
		case name == "others-lose" && !hasVal && preset == "german":
			othersLose = true
		case name == "one-colour" && preset == "classic":
			switch val {
			case "any":
				r.OneColour = OneColourAny
			case "red-black":
				r.OneColour = OneColourRedBlack
			default:
				return Ruleset{}, badChoice(opt, name, "one-colour=any", "one-colour=red-black")
			}
		case name == "indicator-last" && !hasVal && preset == "classic":
			r.IndicatorLast = true
		case name == "deal" && preset == "classic":
			switch val {
			case "stacks":
				r.Deal = DealStacks
			case "simple":
				r.Deal = DealSimple
			default:
				return Ruleset{}, badChoice(opt, name, "deal=stacks", "deal=simple")
			}
		case name == "rounds" && (preset == "turkish-rummy" || preset == "german"):
			n, ok := canonicalInt(val, 1, 99)
			if preset == "turkish-rummy" && (!ok || n != 1 && n != 3) {
				return Ruleset{}, badChoice(opt, name, "rounds=1", "rounds=3")
			}
			if !ok {
				return Ruleset{}, badRange(opt, name, 1, 99)
			}
			r.Rounds = n
		case name == "points" && (preset == "classic" || preset == "german"):
			n, ok := canonicalInt(val, 1, 99)
			if !ok {
				return Ruleset{}, badRange(opt, name, 1, 99)
			}
			points = n
		case name == "timer":
			n, ok := canonicalInt(val, 5, 600)
			if !ok {
				return Ruleset{}, badRange(opt, name, 5, 600)
			}
			r.TurnSeconds = n
		case name == "strokes" && !hasVal && preset == "german":
			r.Scoring = Strokes
			r.StartScore = 0
			r.WinPoints, r.PairsPoints, r.OkeyDiscardFlat, r.GostermePoints = 1, 2, 2, 0
			if r.Rounds == 0 {
				r.Rounds = 5
			}
		default:
			return Ruleset{}, refuseOption(preset, opt, name, hasVal)
		}
	}
	if err := checkConflicts(preset, seen); err != nil {
		return Ruleset{}, err
	}
	if othersLose {
		r.Scoring = CountDown
	}
	if points != 0 {
		r.StartScore = points
	}
	return r, nil
}

// once records an option's name and refuses one given twice, the same way
// for every option of every preset (whatever its values: a repeated option
// would leave the text two readings, and the canonical form has one).
func once(seen map[string]bool, name string) error {
	if seen[name] {
		return &RulesetError{Refusal: RefuseTwice, Name: name}
	}
	seen[name] = true
	return nil
}

// Conflicts lists the pairs of options that are refused together, with the
// reason: one contradicts the other or means nothing beside it, so the pair
// would be a second spelling of a game (protocol.md 3.1, 3.6). The names of
// a pair are in bytewise order.
var Conflicts = []struct{ Preset, A, B, Why string }{
	{"classic", "no-gosterme", "stalemate-show", "stalemate-show scores a gösterme, and no-gosterme has none"},
	{"german", "leave-at-zero", "strokes", "strokes count up from 0: no account reaches 0"},
	{"german", "no-partnerships", "partnerships", "they contradict each other"},
	{"german", "others-lose", "strokes", "strokes score no points to lose"},
	{"german", "points", "strokes", "strokes count from 0, not from points"},
	{Preset101, "cancels", "no-cancel", "no-cancel cancels no round"},
	{Preset101, "no-joker-swap", "no-swap-penalty", "without swaps no discard could replace an okey"},
	{Preset101, "no-joker-swap", "swap-before-open", "they contradict each other"},
}

// checkConflicts refuses the first pair of Conflicts given together.
func checkConflicts(preset string, seen map[string]bool) error {
	for _, c := range Conflicts {
		if c.Preset == preset && seen[c.A] && seen[c.B] {
			return &RulesetError{Refusal: RefuseConflict, Preset: preset, Name: c.A, Other: c.B, Why: c.Why}
		}
	}
	return nil
}

// canonicalInt parses a decimal in [lo, hi] written without sign or
// leading zeros (one spelling per value, as the canonical form needs): the
// one parser of every numeric option (rounds, points, timer).
func canonicalInt(s string, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= lo && n <= hi && strconv.Itoa(n) == s
}

// MustRuleset is NewRuleset for tests and examples; it panics on error.
func MustRuleset(preset, options string) Ruleset {
	r, err := NewRuleset(preset, options)
	if err != nil {
		panic(err)
	}
	return r
}

// Options returns the canonical option string: the options that differ from
// the preset's defaults, sorted. NewRuleset(r.Preset, r.Options()) == r.
func (r Ruleset) Options() string {
	if r.Preset == Preset101 {
		return r.options101()
	}
	base := MustRuleset(r.Preset, "")
	var opts []string
	if r.Partnerships != base.Partnerships {
		if r.Partnerships {
			opts = append(opts, "partnerships")
		} else {
			opts = append(opts, "no-partnerships")
		}
	}
	if r.LeaveAtZero {
		opts = append(opts, "leave-at-zero")
	}
	if r.StalemateShow != base.StalemateShow {
		opts = append(opts, "stalemate-show")
	}
	if r.GostermePoints != base.GostermePoints && r.Scoring != Strokes {
		opts = append(opts, "no-gosterme")
	}
	if r.Scoring != base.Scoring && r.Scoring == CountDown {
		opts = append(opts, "others-lose")
	}
	switch r.OneColour {
	case OneColourAny:
		opts = append(opts, "one-colour=any")
	case OneColourRedBlack:
		opts = append(opts, "one-colour=red-black")
	}
	if r.IndicatorLast {
		opts = append(opts, "indicator-last")
	}
	if r.Deal != base.Deal && r.Deal == DealSimple {
		opts = append(opts, "deal=simple")
	}
	if r.Scoring == Strokes {
		opts = append(opts, "strokes")
	}
	if r.TurnSeconds != 0 {
		opts = append(opts, "timer="+strconv.Itoa(r.TurnSeconds))
	}
	if r.Scoring != Strokes && r.StartScore != base.StartScore {
		opts = append(opts, "points="+strconv.Itoa(r.StartScore))
	}
	if r.Rounds != base.Rounds && !(r.Scoring == Strokes && r.Rounds == 5) {
		opts = append(opts, "rounds="+strconv.Itoa(r.Rounds))
	}
	sort.Strings(opts)
	return strings.Join(opts, ",")
}

// String is preset[:options], canonical.
func (r Ruleset) String() string {
	if o := r.Options(); o != "" {
		return r.Preset + ":" + o
	}
	return r.Preset
}

// ParseRuleset parses the String form.
func ParseRuleset(s string) (Ruleset, error) {
	p, o, _ := strings.Cut(s, ":")
	return NewRuleset(p, o)
}

// CheckPlayers reports whether n players may play this ruleset.
func (r Ruleset) CheckPlayers(n int) error {
	if n < r.MinPlayers || n > r.MaxPlayers {
		return &RulesetError{Refusal: RefusePlayers, Preset: r.Preset, Lo: r.MinPlayers, Hi: r.MaxPlayers, N: n}
	}
	if r.Partnerships && n != 4 && r.Preset != "german" {
		return &RulesetError{Refusal: RefuseNeedsFour, Preset: r.Preset, Name: "partnerships", N: n}
	}
	if r.Preset == "german" && !r.Partnerships && n != 4 {
		// german's default partnerships take effect with four players only:
		// with fewer, no-partnerships would be a second spelling of the
		// same game (protocol.md 3.1).
		return &RulesetError{Refusal: RefuseNeedsFour, Preset: r.Preset, Name: "no-partnerships", N: n}
	}
	return nil
}

// Teams reports whether n players play in partnerships (seats i and i+2).
// The german preset's teams exist only with exactly four players.
func (r Ruleset) Teams(n int) bool { return r.Partnerships && n == 4 }
