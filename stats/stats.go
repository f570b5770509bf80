// Package stats turns verified matches into each player's record: matches,
// wins with a confidence interval, scores, hands won by kind, Okey 101
// openings, and a rating over time (package rating), with the series
// drawn as sparklines for a terminal.
//
// It is pure: callers verify the transcripts (table.Verify) and give each
// match's summary here; nothing in this package reads a file, and the
// figures it computes are shown to people, never part of a verdict.
package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/okey-game/okey/rating"
)

// Status is what verification said of a file, as far as a record cares.
type Status string

// The statuses. Only Honest matches enter records; Unfinished ones are
// counted per player as unfinished, never as a loss.
const (
	Honest     Status = "honest"
	Unfinished Status = "unfinished"
	Cheating   Status = "cheating"   // a seat named on proof signed by that seat
	Invalid    Status = "invalid"    // damaged or altered so that no one can be named
	Unreadable Status = "unreadable" // not a transcript, or not readable at all
)

// Match is what a record needs of one verified transcript.
type Match struct {
	// Config is the hex SHA-256 of the table's config: one match, whatever
	// file holds it (two copies of a match count once).
	Config  string `json:"config"`
	Ruleset string `json:"ruleset"`
	Seats   []Seat `json:"seats"`
	Hands   []Hand `json:"hands"`
}

// Seat is one seat of a match.
type Seat struct {
	Key  string `json:"key"` // hex of the seat's Ed25519 identity key
	Name string `json:"name"`
	// Team: partners share a team (seats i and i+2 in partnerships);
	// otherwise each seat is its own.
	Team  int `json:"team"`
	Score int `json:"score"` // the seat's own final score
	// Place is the seat's place in the match's ranking, 1 the best, equal
	// places for ties and partners; 0 when the match did not finish.
	Place int `json:"place"`
}

// Hand is one finished hand (an Okey 101 round).
type Hand struct {
	Winner      int  `json:"winner"` // the seat that won or finished, -1 for none
	Pairs       bool `json:"pairs,omitempty"`
	OkeyDiscard bool `json:"okey_discard,omitempty"` // the winning discard was an okey
	// Opened, in Okey 101, is how each seat had opened when the round ended.
	Opened []Opening `json:"opened,omitempty"`
}

// Opening is how a seat opened in an Okey 101 round.
type Opening uint8

// The openings.
const (
	NotOpened Opening = iota
	OpenedSets
	OpenedDoubles
)

// Played is a match as found in a file, with its status.
type Played struct {
	File   string
	When   time.Time // when the file was last written: the order of the record
	Status Status
	Match  *Match // nil unless Honest or Unfinished
}

// Player is one identity's record.
type Player struct {
	Key   string `json:"key"`
	Name  string `json:"name"` // the name of the latest match
	Short string `json:"short"`

	Matches    int     `json:"matches"` // finished, verified honest
	Wins       int     `json:"wins"`    // first places (a team's for both partners)
	WinShare   float64 `json:"win_share"`
	WinLow     float64 `json:"win_low"`  // the 95% Wilson score interval
	WinHigh    float64 `json:"win_high"` // of WinShare
	Unfinished int     `json:"unfinished"`

	Rating  rating.Rating `json:"rating"`
	Ordinal float64       `json:"ordinal"` // Mu - 3 Sigma, the sort key

	Scores []PresetScore `json:"scores"`

	// The classic family's hands in finished matches.
	Hands       int `json:"hands"`        // played
	HandsWon    int `json:"hands_won"`    // won
	Groups      int `json:"groups"`       // won with sets and runs
	SevenPairs  int `json:"seven_pairs"`  // won with seven pairs
	OkeyDiscard int `json:"okey_discard"` // won with an okey as the last discard
	// Okey 101's rounds in finished matches.
	Rounds101   int `json:"rounds_101"`     // played
	Finished101 int `json:"finished_101"`   // finished (the round's winner)
	OkeyFinish  int `json:"okey_finish"`    // finished with an okey as the last discard
	OpenedSets  int `json:"opened_sets"`    // opened with sets and runs
	OpenedPairs int `json:"opened_doubles"` // opened with doubles

	Series []Point `json:"series"`
}

// PresetScore is a player's mean final score in one preset (scores of
// different presets do not add up: some count down, some count penalties).
type PresetScore struct {
	Preset  string  `json:"preset"`
	Matches int     `json:"matches"`
	Mean    float64 `json:"mean"`
}

// Point is a player's rating and score after one of their finished matches.
type Point struct {
	Match int     `json:"match"` // the match's index in the record, from 0
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	Score int     `json:"score"`
	Place int     `json:"place"`
	// Preset is the match's preset: scores of different presets do not
	// compare.
	Preset string `json:"preset"`
}

// Record is every player's record over the finished, honest matches.
type Record struct {
	Matches int      `json:"matches"` // finished honest matches, each counted once
	Players []Player `json:"players"` // the best ordinal first
}

// Build computes the record of the played matches in time order (ties by
// file name): ratings with model m from each honest finished match, and
// each player's count of unfinished matches. A match already seen (the
// same config in another file) counts once, the first honest copy if
// any. Other statuses are ignored.
func Build(played []Played, m rating.Model) Record {
	played = slices.Clone(played)
	slices.SortStableFunc(played, func(a, b Played) int {
		if c := a.When.Compare(b.When); c != 0 {
			return c
		}
		return strings.Compare(a.File, b.File)
	})
	players := map[string]*Player{}
	get := func(s Seat) *Player {
		p := players[s.Key]
		if p == nil {
			p = &Player{Key: s.Key, Short: Short(s.Key), Rating: m.New()}
			players[s.Key] = p
		}
		p.Name = s.Name
		return p
	}
	type sums struct{ n, total int }
	scores := map[string]map[string]*sums{}
	honest := map[string]bool{}
	for _, pl := range played {
		if pl.Match != nil && pl.Status == Honest {
			honest[pl.Match.Config] = true
		}
	}
	seen := map[string]bool{}
	var rec Record
	for _, pl := range played {
		mt := pl.Match
		if mt == nil || seen[mt.Config] {
			continue
		}
		switch pl.Status {
		case Unfinished:
			if honest[mt.Config] {
				continue // a finished copy counts instead
			}
			seen[mt.Config] = true
			for _, s := range mt.Seats {
				get(s).Unfinished++
			}
			continue
		case Honest:
		default:
			continue
		}
		seen[mt.Config] = true
		idx := rec.Matches
		rec.Matches++
		// The teams in seat order of their first seat, each ranked by its
		// best place.
		var teamIDs []int
		teamOf := map[int]int{}
		for _, s := range mt.Seats {
			if _, ok := teamOf[s.Team]; !ok {
				teamOf[s.Team] = len(teamIDs)
				teamIDs = append(teamIDs, s.Team)
			}
		}
		teams := make([][]rating.Rating, len(teamIDs))
		members := make([][]*Player, len(teamIDs))
		ranks := make([]int, len(teamIDs))
		for _, s := range mt.Seats {
			t := teamOf[s.Team]
			p := get(s)
			teams[t] = append(teams[t], p.Rating)
			members[t] = append(members[t], p)
			if ranks[t] == 0 || s.Place < ranks[t] {
				ranks[t] = s.Place
			}
		}
		if rated, err := m.Rate(teams, ranks); err == nil {
			for t := range rated {
				for j, r := range rated[t] {
					members[t][j].Rating = r
				}
			}
		}
		preset, _, _ := strings.Cut(mt.Ruleset, ":")
		for i, s := range mt.Seats {
			p := get(s)
			p.Matches++
			if s.Place == 1 {
				p.Wins++
			}
			if scores[p.Key] == nil {
				scores[p.Key] = map[string]*sums{}
			}
			if scores[p.Key][preset] == nil {
				scores[p.Key][preset] = &sums{}
			}
			scores[p.Key][preset].n++
			scores[p.Key][preset].total += s.Score
			for _, h := range mt.Hands {
				if h.Opened != nil {
					p.Rounds101++
					if h.Winner == i {
						p.Finished101++
						if h.OkeyDiscard {
							p.OkeyFinish++
						}
					}
					if i < len(h.Opened) {
						switch h.Opened[i] {
						case OpenedSets:
							p.OpenedSets++
						case OpenedDoubles:
							p.OpenedPairs++
						}
					}
					continue
				}
				p.Hands++
				if h.Winner == i {
					p.HandsWon++
					if h.Pairs {
						p.SevenPairs++
					} else {
						p.Groups++
					}
					if h.OkeyDiscard {
						p.OkeyDiscard++
					}
				}
			}
			p.Series = append(p.Series, Point{Match: idx, Mu: p.Rating.Mu, Sigma: p.Rating.Sigma, Score: s.Score, Place: s.Place, Preset: preset})
		}
	}
	for _, p := range players {
		if p.Matches > 0 {
			p.WinShare = float64(p.Wins) / float64(p.Matches)
			p.WinLow, p.WinHigh = Wilson(p.Wins, p.Matches, Z95)
		}
		p.Ordinal = p.Rating.Ordinal()
		for preset, s := range scores[p.Key] {
			p.Scores = append(p.Scores, PresetScore{Preset: preset, Matches: s.n, Mean: float64(s.total) / float64(s.n)})
		}
		slices.SortFunc(p.Scores, func(a, b PresetScore) int { return strings.Compare(a.Preset, b.Preset) })
		rec.Players = append(rec.Players, *p)
	}
	slices.SortFunc(rec.Players, func(a, b Player) int {
		if c := cmp.Compare(b.Matches, a.Matches); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Ordinal, a.Ordinal); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	return rec
}

// Short is the short form of a hex identity key shown beside a name: its
// first 8 hex digits.
func Short(key string) string {
	if len(key) > 8 {
		return key[:8]
	}
	return key
}

// Z95 is the standard normal quantile for a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for k successes in n trials at
// the normal quantile z (E. B. Wilson, 1927): the interval of proportions p
// for which |k/n - p| <= z sqrt(p(1-p)/n). Unlike the Wald interval it
// stays inside [0, 1] and is not empty at k = 0 or k = n. n <= 0 gives
// [0, 1].
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	k = min(max(k, 0), n)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, centre-half), min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

var openingNames = []string{"none", "sets", "doubles"}

// MarshalText names the opening: none, sets or doubles.
func (o Opening) MarshalText() ([]byte, error) {
	if int(o) >= len(openingNames) {
		return nil, fmt.Errorf("record: opening %d", o)
	}
	return []byte(openingNames[o]), nil
}

// UnmarshalText reads none, sets or doubles.
func (o *Opening) UnmarshalText(b []byte) error {
	for i, n := range openingNames {
		if string(b) == n {
			*o = Opening(i)
			return nil
		}
	}
	return fmt.Errorf("record: opening %q", b)
}
