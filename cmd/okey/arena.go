package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

func init() {
	register(command{name: "arena", summary: i18n.Mark("measure strategies against each other: whole hands, the engine only"), run: runArena})
}

const arenaUsage = `usage: okey arena --bots S1,S2[,S3,S4] [--hands N] [--preset P[:options]] [--seed S] [--json]

Plays N hands with the rules engine alone (no cryptography, no network) on
every core, one strategy per seat. Hand i plays deal i/seats with the
strategies rotated by i%%seats, so each strategy plays every seat equally (a
multiple of the seat count plays every deal in every rotation). The same seed
gives the same figures.

One line per strategy: hands won by its seats over all hands (stalemates
included) with a 95%% confidence interval (Wilson), the average score change
per seat and hand (count-down presets: negative is points lost; penalty
presets: the penalty taken), and its wins by kind (okey: final discard an
okey, also counted in groups or pairs). A strategy holding several seats
also gets its share per seat.

Strategies: %s.
`

func runArena(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(arenaUsage, strings.Join(bot.Names(), ", "))); printDefaults(fs) }
	bots := fs.String("bots", "", i18n.T("strategies by seat, comma-separated (2-4 seats)"))
	hands := fs.Int("hands", 2000, i18n.T("hands to play"))
	preset := fs.String("preset", "classic", i18n.T("ruleset: preset[:options]"))
	seed := fs.Uint64("seed", 1, i18n.T("seed for the shuffles and the strategies"))
	asJSON := fs.Bool("json", false, i18n.T("print the result as JSON"))
	workers := fs.Int("workers", 0, i18n.T("goroutines (0: one per core)"))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, i18n.T("okey: arena takes no arguments, got %q\n", fs.Arg(0)))
		return 2
	}
	if *bots == "" {
		fmt.Fprintln(stderr, i18n.T("okey: arena needs --bots (for example --bots expert,greedy,greedy,greedy)"))
		return 2
	}
	if *hands < 1 {
		fmt.Fprint(stderr, i18n.T("okey: --hands %d: want at least 1\n", *hands))
		return 2
	}
	if *workers < 0 {
		fmt.Fprint(stderr, i18n.T("okey: --workers %d: want 0 or more\n", *workers))
		return 2
	}
	rules, err := engine.ParseRuleset(*preset)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return 2
	}
	names := strings.Split(*bots, ",")
	if err := rules.CheckPlayers(len(names)); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --bots names %d seats: %v\n", len(names), err))
		return 2
	}
	for _, n := range names {
		if _, err := bot.New(n, 0); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: --bots: %v\n", err))
			return 2
		}
	}
	res, err := bot.Arena(bot.ArenaConfig{Rules: rules, Bots: names, Hands: *hands, Seed: *seed, Workers: *workers})
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: arena: %v\n", err))
		return 2
	}
	if *asJSON {
		type line struct {
			Strategy  string  `json:"strategy"`
			Seats     int     `json:"seats"`
			Wins      int     `json:"wins"`
			Share     float64 `json:"share"`
			CILow     float64 `json:"ci95_low"`
			CIHigh    float64 `json:"ci95_high"`
			AvgScore  float64 `json:"avg_score"`
			Groups    int     `json:"groups"`
			Pairs     int     `json:"pairs"`
			Okey      int     `json:"okey"`
			SeatHands int     `json:"seat_hands"`
		}
		out := struct {
			Rules      string   `json:"rules"`
			Bots       []string `json:"bots"`
			Seed       uint64   `json:"seed"`
			Hands      int      `json:"hands"`
			Stalemates int      `json:"stalemates"`
			Strategies []line   `json:"strategies"`
		}{Rules: res.Rules, Bots: names, Seed: *seed, Hands: res.Hands, Stalemates: res.Stalemates}
		for _, s := range res.Stats {
			p, lo, hi := res.Share(s)
			out.Strategies = append(out.Strategies, line{Strategy: s.Name, Seats: s.Seats, Wins: s.Wins, Share: p,
				CILow: lo, CIHigh: hi, AvgScore: s.Avg(), Groups: s.Groups, Pairs: s.Pairs, Okey: s.Okey, SeatHands: s.SeatHands})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "okey: %v\n", err)
			return 2
		}
		return 0
	}
	fmt.Fprint(stdout, i18n.T("%s, %d hands, seed %d, seats %s\n", res.Rules, res.Hands, *seed, strings.Join(names, ",")))
	fmt.Fprint(stdout, res.Format())
	return 0
}
