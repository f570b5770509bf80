// Package tournament is the verifiable core of okey's Swiss tournaments
// (protocol.md 9, docs/rules.md "Tournaments"): the format option string,
// the signed records (announcement, registration, roster, each round's
// commit-reveal seat draw), the draw, the Swiss pairing into 4- and 3-seat
// tables, placement points from each match's verified result, and the
// standings with their tie-breaks.
//
// It is pure: no I/O, no clocks, no goroutines, no map iteration deciding
// order, no floats. Every machine holding the same records and match
// results computes the same standings.
package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrFormat is wrapped by every format error.
var ErrFormat = errors.New("tournament: bad format")

// Limits of the format.
const (
	MinRounds = 1
	MaxRounds = 15
	MaxPoints = 99
)

// Format is a tournament format: Swiss rounds and placement points.
type Format struct {
	Rounds int
	// Points are the placement points for first to fourth place at a
	// table, non-increasing; a 3-seat table gives the first three.
	Points [4]int
}

// DefaultFormat is `swiss`: 3 rounds, points 3-2-1-0.
var DefaultFormat = Format{Rounds: 3, Points: [4]int{3, 2, 1, 0}}

func canonicalInt(s string, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || strconv.Itoa(n) != s || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// ParseFormat reads a format text: `swiss`, then optionally `:` and
// comma-separated options `rounds=N` (1..15) and `points=A-B-C-D` (each
// 0..99, non-increasing). An unknown system or option, a repeated option,
// an empty item or a bad value is refused. Options may come in any order
// and may equal the defaults; String gives the canonical text.
func ParseFormat(s string) (Format, error) {
	sys, opts, has := strings.Cut(s, ":")
	if sys != "swiss" {
		return Format{}, fmt.Errorf("%w: unknown system %q (want swiss)", ErrFormat, sys)
	}
	f := DefaultFormat
	if !has {
		return f, nil
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(opts, ",") {
		name, val, _ := strings.Cut(item, "=")
		if seen[name] {
			return Format{}, fmt.Errorf("%w: option %q given twice", ErrFormat, name)
		}
		seen[name] = true
		switch name {
		case "rounds":
			n, ok := canonicalInt(val, MinRounds, MaxRounds)
			if !ok {
				return Format{}, fmt.Errorf("%w: rounds=%q: want %d to %d", ErrFormat, val, MinRounds, MaxRounds)
			}
			f.Rounds = n
		case "points":
			parts := strings.Split(val, "-")
			if len(parts) != 4 {
				return Format{}, fmt.Errorf("%w: points=%q: want four numbers A-B-C-D", ErrFormat, val)
			}
			for i, p := range parts {
				n, ok := canonicalInt(p, 0, MaxPoints)
				if !ok {
					return Format{}, fmt.Errorf("%w: points=%q: %q is not 0 to %d", ErrFormat, val, p, MaxPoints)
				}
				if i > 0 && n > f.Points[i-1] {
					return Format{}, fmt.Errorf("%w: points=%q: a lower place gets more points", ErrFormat, val)
				}
				f.Points[i] = n
			}
		case "":
			return Format{}, fmt.Errorf("%w: an empty option", ErrFormat)
		default:
			return Format{}, fmt.Errorf("%w: unknown option %q", ErrFormat, name)
		}
	}
	return f, nil
}

// String is the canonical text: `swiss`, then `:` and the options that
// differ from the defaults, sorted bytewise, joined with `,`.
func (f Format) String() string {
	var opts []string
	if f.Points != DefaultFormat.Points {
		opts = append(opts, fmt.Sprintf("points=%d-%d-%d-%d", f.Points[0], f.Points[1], f.Points[2], f.Points[3]))
	}
	if f.Rounds != DefaultFormat.Rounds {
		opts = append(opts, "rounds="+strconv.Itoa(f.Rounds))
	}
	slices.Sort(opts)
	if len(opts) == 0 {
		return "swiss"
	}
	return "swiss:" + strings.Join(opts, ",")
}

// ParseCanonicalFormat reads a format text that must be canonical (as a
// record holds it).
func ParseCanonicalFormat(s string) (Format, error) {
	f, err := ParseFormat(s)
	if err != nil {
		return f, err
	}
	if f.String() != s {
		return Format{}, fmt.Errorf("%w: %q is not canonical (%q)", ErrFormat, s, f.String())
	}
	return f, nil
}

// Limits on the number of players.
const (
	MinPlayers = 3
	MaxPlayers = 64
	// MaxTables is the most tables a round has (64 players at 4 a table).
	MaxTables = (MaxPlayers + 3) / 4
)

// TableSizes returns the sizes of a round's tables for n players:
// t = ceil(n/4) tables, the last 4t-n of them with 3 seats, the others
// with 4. It refuses n outside 3..64 and n = 5 (which 4- and 3-seat
// tables cannot seat).
func TableSizes(n int) ([]int, error) {
	if n < MinPlayers || n > MaxPlayers {
		return nil, fmt.Errorf("%w: %d players (want %d to %d)", ErrFormat, n, MinPlayers, MaxPlayers)
	}
	t := (n + 3) / 4
	three := 4*t - n
	if three > t {
		return nil, fmt.Errorf("%w: %d players cannot sit at tables of 4 and 3", ErrFormat, n)
	}
	out := make([]int, t)
	for i := range out {
		out[i] = 4
		if i >= t-three {
			out[i] = 3
		}
	}
	return out, nil
}
