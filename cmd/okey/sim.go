package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/table/sim"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "sim", summary: i18n.Mark("play whole matches in one process, full cryptography, every seat a peer"), run: runSim})
}

func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("sim")); printDefaults(fs) }
	players := fs.Int("players", 4, i18n.T("seats at the table (2-4)"))
	games := fs.Int("games", 1, i18n.T("matches to play"))
	preset := fs.String("preset", "classic", i18n.T("ruleset: preset[:options]"))
	bots := fs.String("bots", "greedy", i18n.T("strategies by seat, the list repeating over the seats (%s; Okey 101: %s, which greedy means there)", strings.Join(bot.Names(), ", "), bot.Name101))
	faults := fs.String("faults", "", i18n.T("network faults: drop=P,dup=P,reorder=P,delay=D"))
	out := fs.String("out", "", i18n.T("directory for the transcripts"))
	seed := fs.Uint64("seed", 0, i18n.T("seed for keys, bots and faults (0: random)"))
	keySeed := fs.Uint64("keys", 0, i18n.T("seed for the seats' keys, the same in every match (0: each match its own)"))
	cheat := fs.String("cheat", "", i18n.T("a cheat for one seat: %s", cheatNames()))
	cheater := fs.Int("cheater", 1, i18n.T("the cheating seat"))
	stall := fs.Duration("stall", 100*time.Millisecond, i18n.T("wait without progress before asking the others again (in memory, asking is cheap)"))
	withhold := fs.Duration("withhold", 30*time.Second, i18n.T("wait without progress before giving up on a silent seat (silence names no one)"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, i18n.T("okey: sim takes no arguments, got %q\n", fs.Arg(0)))
		return 2
	}
	if *games < 1 {
		fmt.Fprint(stderr, i18n.T("okey: --games %d: want 1 or more matches\n", *games))
		return 2
	}
	if *stall <= 0 {
		fmt.Fprint(stderr, i18n.T("okey: --stall %v: want a positive duration\n", *stall))
		return 2
	}
	rules, err := engine.ParseRuleset(*preset)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	if err := rules.CheckPlayers(*players); err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	f, err := sim.ParseFaults(*faults)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --faults: %s\n", ui.Plain(err)))
		return 2
	}
	names := strings.Split(*bots, ",")
	if len(names) > *players {
		fmt.Fprint(stderr, i18n.T("okey: --bots names %d strategies for %d seats\n", len(names), *players))
		return 2
	}
	is101 := rules.Preset == engine.Preset101
	for _, name := range names {
		if _, err := sim.Mover(name, 0, is101); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: --bots: %s\n", ui.Plain(err)))
			return 2
		}
	}
	var c table.Cheat
	if *cheat != "" {
		if c, err = table.ParseCheat(*cheat); err != nil {
			fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
			return 2
		}
		if c.Only101() && !is101 {
			fmt.Fprint(stderr, i18n.T("okey: --cheat %s is a cheat of Okey 101 (--preset 101)\n", c))
			return 2
		}
		if is101 && (c == table.CheatFalseWin || c == table.CheatPhantomDiscard) {
			fmt.Fprint(stderr, i18n.T("okey: --cheat %s is a classic move; Okey 101's moves have their own cheats (%s)\n", c, cheat101Names()))
			return 2
		}
		if *cheater < 0 || *cheater >= *players {
			fmt.Fprint(stderr, i18n.T("okey: --cheater must be a seat 0..%d\n", *players-1))
			return 2
		}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
			return 2
		}
	}
	cfg := sim.Config{Ruleset: rules, Players: *players, Bots: names, Faults: f, Seed: *seed, KeySeed: *keySeed, Cheat: c, Cheater: *cheater,
		Stall: *stall, Withhold: *withhold}
	return simMatches(cfg, *games, *out, stdout, stderr)
}

// simMatches plays the matches, writes their transcripts into out (when
// not ""), and says what each honest seat and verify found: the command's
// exit status.
func simMatches(cfg sim.Config, games int, out string, stdout, stderr io.Writer) int {
	var st sim.Stats
	caught := true
	for g := 0; g < games; g++ {
		m, err := sim.Play(context.Background(), cfg, g)
		var ee *sim.EarlierError
		switch {
		case errors.As(err, &ee):
			fmt.Fprint(stderr, i18n.T("okey: match %d: the earlier match: %v\n", g, ee.Err))
			return 1
		case err != nil:
			fmt.Fprint(stderr, i18n.T("okey: match %d: %v\n", g, err))
			return 1
		}
		if out != "" {
			path := filepath.Join(out, fmt.Sprintf("match-%03d.okey", g))
			if err := writeTranscriptFile(path, m.Transcript); err != nil {
				fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
				return 1
			}
			fmt.Fprint(stdout, i18n.T("match %d: transcript %s\n", g, path))
		}
		if cfg.Cheat != "" {
			caught = m.Caught(stdout, g, cfg) && caught
			continue
		}
		if !m.Report.Honest {
			fmt.Fprint(stderr, i18n.T("okey: match %d: an honest match failed verification: %v %v\n", g, m.Report.Violation, m.Report.Invalid))
			return 1
		}
		st.Add(m.Result)
	}
	if cfg.Cheat != "" {
		if !caught {
			return 1
		}
		return 0
	}
	st.WriteText(stdout, games)
	return 0
}

func cheatNames() string {
	var s []string
	for _, c := range table.Cheats {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ") + "; Okey 101 only: " + cheat101Names()
}

func cheat101Names() string {
	var s []string
	for _, c := range table.Cheats101 {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// writeTranscriptFile writes transcript t to a new file at path.
func writeTranscriptFile(path string, t *table.Transcript) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := table.WriteTranscript(f, t); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
