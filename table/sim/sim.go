// Package sim plays whole matches in one process (okey sim): every seat a
// peer of its own with its own keys, full cryptography, over an in-memory
// network with faults, each seat's moves chosen by a bot strategy; one
// seat may cheat, and the others must name it (or, for silence, say it
// stopped answering).
package sim

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Config is the matches to play.
type Config struct {
	Ruleset engine.Ruleset
	Players int
	// Bots are the strategies by seat, the list repeating over the seats.
	Bots   []string
	Faults table.Faults
	// Seed seeds the keys, bots and faults (0: random); KeySeed the
	// seats' keys, the same in every match (0: each match its own).
	Seed, KeySeed uint64
	// Cheat, when not "", is the cheat of seat Cheater.
	Cheat   table.Cheat
	Cheater int
	// Stall and Withhold are table.LocalOptions'.
	Stall, Withhold time.Duration
}

// Match is one match played.
type Match struct {
	Result     *table.LocalResult
	Transcript *table.Transcript
	Report     *table.Report
	// Replayed is the number of an earlier match's messages the cheater
	// replayed (table.CheatReplay).
	Replayed int
}

// EarlierError is the failure of the earlier match that a replay cheat
// replays messages of.
type EarlierError struct{ Err error }

func (e *EarlierError) Error() string { return "the earlier match: " + e.Err.Error() }
func (e *EarlierError) Unwrap() error { return e.Err }

// Mover returns the strategy called name for a seat; at an Okey 101 table
// the one 101 bot (b101; greedy, the default, means it there).
func Mover(name string, seed uint64, is101 bool) (table.Mover, error) {
	if is101 {
		if name != bot.Name101 && name != "greedy" {
			return nil, fmt.Errorf("bot: Okey 101 is played by %s only, not %q", bot.Name101, name)
		}
		return bot.NewB101(), nil
	}
	return bot.New(name, seed)
}

// movers are match g's movers, one a seat.
func (c Config) movers(g int) ([]table.Mover, error) {
	is101 := c.Ruleset.Preset == engine.Preset101
	var ms []table.Mover
	for i := 0; i < c.Players; i++ {
		s, err := Mover(c.Bots[i%len(c.Bots)], c.Seed+uint64(g*8+i), is101)
		if err != nil {
			return nil, err
		}
		ms = append(ms, s)
	}
	return ms, nil
}

// Play plays match g (from 0) and verifies its transcript. A replay cheat
// first plays an earlier match of the same table (same id and roster: the
// same seed), whose honest seat's messages the cheater replays.
func Play(ctx context.Context, c Config, g int) (*Match, error) {
	ms, err := c.movers(g)
	if err != nil {
		return nil, err
	}
	gseed := uint64(0)
	if c.Seed != 0 {
		gseed = c.Seed + uint64(g)
	}
	var replay [][]byte
	if c.Cheat == table.CheatReplay {
		if gseed == 0 {
			gseed = 1 + uint64(g)
		}
		earlier, err := table.RunLocal(ctx, table.LocalOptions{Ruleset: c.Ruleset.String(), Movers: ms,
			Seed: gseed, KeySeed: c.KeySeed, Stall: c.Stall, Withhold: c.Withhold})
		if err != nil {
			return nil, &EarlierError{err}
		}
		victim := (c.Cheater + 1) % c.Players
		for _, raw := range earlier.Peers[victim].Chain() {
			if env, err := table.DecodeEnvelope(raw); err == nil && int(env.Seat) == victim {
				replay = append(replay, raw)
			}
		}
		if ms, err = c.movers(g); err != nil {
			return nil, err
		}
	}
	res, err := table.RunLocal(ctx, table.LocalOptions{Ruleset: c.Ruleset.String(), Movers: ms,
		Faults: c.Faults, Seed: gseed, KeySeed: c.KeySeed, Cheat: c.Cheat, Cheater: c.Cheater, Stall: c.Stall, Withhold: c.Withhold, Replay: replay})
	if err != nil {
		return nil, err
	}
	cheaterSeat := -1
	if c.Cheat != "" {
		cheaterSeat = c.Cheater
	}
	tr := res.Transcript(cheaterSeat)
	return &Match{Result: res, Transcript: tr, Report: table.Verify(tr), Replayed: len(replay)}, nil
}

// ParseFaults parses network faults: drop=P,dup=P,reorder=P,delay=D, each
// probability at most 0.5, the delay at most 1s.
func ParseFaults(s string) (table.Faults, error) {
	var f table.Faults
	if s == "" {
		return f, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return f, fmt.Errorf("%q is not name=value", kv)
		}
		if k == "delay" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > time.Second {
				return f, fmt.Errorf("bad delay %q", v)
			}
			f.Delay = d
			continue
		}
		p, err := strconv.ParseFloat(v, 64)
		if err != nil || p < 0 || p > 0.5 {
			return f, fmt.Errorf("bad probability %q (0..0.5)", kv)
		}
		switch k {
		case "drop":
			f.Drop = p
		case "dup":
			f.Dup = p
		case "reorder":
			f.Reorder = p
		default:
			return f, fmt.Errorf("unknown fault %q (drop, dup, reorder, delay)", k)
		}
	}
	return f, nil
}

// Stats sums honest matches: their hands by how they ended, their time
// and the share of it in cryptography.
type Stats struct {
	Hands, Stalemates int
	// Kinds counts the hands by kind: classic "groups", "seven pairs",
	// "okey discard"; Okey 101 "finish", "okey finish", "cancelled", and
	// "penalties" (the penalties given).
	Kinds   map[string]int
	Elapsed time.Duration
	Crypto  time.Duration // a peer's, on average
	Is101   bool
}

// Add counts a match.
func (s *Stats) Add(res *table.LocalResult) {
	if s.Kinds == nil {
		s.Kinds = map[string]int{}
	}
	s.Elapsed += res.Elapsed
	for _, p := range res.Peers {
		s.Crypto += p.CryptoTime() / time.Duration(len(res.Peers))
	}
	for _, h := range res.Results[0].Machine.Hands() {
		s.Hands++
		if r := h.Result101; r != nil {
			switch {
			case r.End == engine.EndCancelled:
				s.Kinds["cancelled"]++
			case r.End == engine.EndExhausted:
				s.Stalemates++
			case r.JokerFinish:
				s.Kinds["okey finish"]++
			default:
				s.Kinds["finish"]++
			}
			s.Kinds["penalties"] += len(r.Penalties)
			s.Is101 = true
			continue
		}
		r := h.Result
		switch {
		case r.Winner < 0:
			s.Stalemates++
		case r.Kind == engine.Pairs:
			s.Kinds["seven pairs"]++
		case r.OkeyDiscard:
			s.Kinds["okey discard"]++
		default:
			s.Kinds["groups"]++
		}
	}
}
