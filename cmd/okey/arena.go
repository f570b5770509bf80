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
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "arena", summary: i18n.Mark("measure strategies against each other: whole hands, the engine only"), run: runArena})
}

func runArena(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, helpText("arena"))
		fmt.Fprint(stderr, "\n"+i18n.T("Strategies: %s.\n", strings.Join(bot.Names(), ", ")))
		printDefaults(fs)
	}
	bots := fs.String("bots", "", i18n.T("strategies by seat, comma-separated (2-4 seats)"))
	hands := fs.Int("hands", 2000, i18n.T("hands to play"))
	preset := fs.String("preset", "classic", i18n.T("ruleset: preset[:options]"))
	seed := fs.Uint64("seed", 1, i18n.T("seed for the shuffles and the strategies"))
	asJSON := fs.Bool("json", false, i18n.T("print the result as JSON"))
	workers := fs.Int("workers", 0, i18n.T("goroutines (0: one per core)"))
	vs := fs.String("vs", "", i18n.T("a second line-up played on the same deals, compared with the first"))
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
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	names := strings.Split(*bots, ",")
	if err := rules.CheckPlayers(len(names)); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --bots names %d seats: %v\n", len(names), ui.Plain(err)))
		return 2
	}
	check := func(name string) error { _, err := bot.New(name, 0); return err }
	if rules.Preset == engine.Preset101 {
		check = func(name string) error { _, err := bot.New101(name); return err }
	}
	for _, n := range names {
		if err := check(n); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: --bots: %v\n", err))
			return 2
		}
	}
	var vsNames []string
	if *vs != "" {
		vsNames = strings.Split(*vs, ",")
		if len(vsNames) != len(names) {
			fmt.Fprint(stderr, i18n.T("okey: --vs names %d seats, --bots %d: a pairing needs the same seats\n", len(vsNames), len(names)))
			return 2
		}
		for _, n := range vsNames {
			if err := check(n); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: --vs: %v\n", err))
				return 2
			}
		}
	}
	res, err := bot.Arena(bot.ArenaConfig{Rules: rules, Bots: names, Hands: *hands, Seed: *seed, Workers: *workers})
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: arena: %v\n", err))
		return 2
	}
	var other bot.ArenaResult
	var paired bot.Paired
	if vsNames != nil {
		if other, err = bot.Arena(bot.ArenaConfig{Rules: rules, Bots: vsNames, Hands: *hands, Seed: *seed, Workers: *workers}); err == nil {
			paired, err = bot.Compare(res, other)
		}
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: arena: %v\n", err))
			return 2
		}
	}
	if *asJSON {
		var vs *bot.ArenaVs
		if vsNames != nil {
			vs = &bot.ArenaVs{Bots: vsNames, Result: other, Paired: paired}
		}
		out := bot.ArenaJSON(res, names, *seed, vs)
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
	fmt.Fprint(stdout, res.FormatDeals())
	if vsNames != nil {
		fmt.Fprint(stdout, i18n.T("%s, %d hands, seed %d, seats %s\n", other.Rules, other.Hands, *seed, strings.Join(vsNames, ",")))
		fmt.Fprint(stdout, other.Format())
		fmt.Fprint(stdout, other.FormatDeals())
		fmt.Fprint(stdout, paired.Format())
	}
	return 0
}
