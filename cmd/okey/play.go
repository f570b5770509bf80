package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "play", summary: "play at the terminal table: against bots (--bots K) or on the LAN", run: runPlay})
}

const playUsage = `usage: okey play [--bots K] [--preset P[:options]] [--players N] [--name NAME]
                 [--data DIR] [--no-mdns] [--peer MULTIADDR]

With --bots K you play at once against K bots in this process (each a full
peer with its own keys; no network). Without it, the lobby shows the tables
on the LAN. Needs a terminal of at least 80x24. The transcript of each match
is saved under DIR/matches and verified at the end; logs go to DIR/okey.log.
Press ? at the table for the keys.

`

func runPlay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, playUsage); fs.PrintDefaults() }
	bots := fs.Int("bots", -1, "play against this many bots (1-3), no network")
	preset := fs.String("preset", "classic", "ruleset: preset[:options] ("+strings.Join(engine.Presets, ", ")+")")
	players := fs.Int("players", 0, "seats at the table (default: bots+1)")
	name := fs.String("name", defaultName(), "your name at the table")
	data := fs.String("data", "", "data directory (default: the user's config dir/okey)")
	strategy := fs.String("strategy", "greedy", "the bots' strategy ("+strings.Join(bot.Names(), ", ")+")")
	pace := fs.Duration("pace", 400*time.Millisecond, "how long a bot waits before it moves")
	noMouse := fs.Bool("no-mouse", false, "no mouse input")
	fs.Bool("no-mdns", false, "LAN: no mDNS discovery (use --peer)")
	var peers multiFlag
	fs.Var(&peers, "peer", "LAN: a peer's multiaddr to connect to (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "okey: play takes no arguments, got %q\n", fs.Arg(0))
		return 2
	}
	rules, err := engine.ParseRuleset(*preset)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return 2
	}
	if err := table.CheckName(*name); err != nil {
		fmt.Fprintf(stderr, "okey: --name: %v\n", err)
		return 2
	}
	if *bots < 0 {
		fmt.Fprintln(stderr, "okey: the LAN lobby is not available in this build yet: play against bots with --bots K")
		return 2
	}
	if *bots < 1 || *bots > 3 {
		fmt.Fprintln(stderr, "okey: --bots must be 1, 2 or 3")
		return 2
	}
	n := *bots + 1
	if *players != 0 && *players != n {
		fmt.Fprintf(stderr, "okey: --players %d does not match --bots %d: the table is you and %d bots\n", *players, *bots, *bots)
		return 2
	}
	if err := rules.CheckPlayers(n); err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return 2
	}
	var movers []table.Mover
	var names []string
	for i := 1; i < n; i++ {
		s, err := bot.New(*strategy, uint64(time.Now().UnixNano())+uint64(i))
		if err != nil {
			fmt.Fprintf(stderr, "okey: %v\n", err)
			return 2
		}
		movers = append(movers, s)
		names = append(names, fmt.Sprintf("bot%d", i))
	}
	for i, nm := range names {
		if nm == *name {
			names[i] = nm + "'"
		}
	}
	dir, logf, code := openData(*data, stderr)
	if code != 0 {
		return code
	}
	defer logf.Close()
	logger := slog.New(slog.NewTextHandler(logf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	log.SetOutput(logf)

	g := ui.NewGame(0, ui.Options{NoMouse: *noMouse})
	done := make(chan *ui.LocalOutcome, 1)
	go func() {
		out, err := ui.PlayLocal(context.Background(), g, ui.LocalOptions{Ruleset: rules.String(), Name: *name,
			Bots: movers, BotName: names, Data: dir, Pace: *pace, Log: logger})
		if err != nil {
			logger.Error("play", "err", err)
			g.Finish(&ui.MatchEnd{Err: err})
		}
		done <- out
	}()
	if err := g.Run(); err != nil {
		fmt.Fprintf(stderr, "okey: the terminal: %v\n", err)
		return 1
	}
	var out *ui.LocalOutcome
	select {
	case out = <-done:
	case <-time.After(5 * time.Second):
	}
	switch {
	case out == nil:
		fmt.Fprintln(stdout, "okey: left the table")
		return 0
	case out.Report != nil:
		fmt.Fprintf(stdout, "okey: %s\n", ui.Verdict(out.Report))
		if out.Transcript != "" {
			fmt.Fprintf(stdout, "okey: transcript %s (okey verify, okey replay)\n", out.Transcript)
		}
		if !out.Report.Honest {
			return 1
		}
	case out.Err != nil:
		fmt.Fprintf(stdout, "okey: %v\n", out.Err)
		if out.Transcript != "" {
			fmt.Fprintf(stdout, "okey: the match so far is in %s\n", out.Transcript)
		}
	}
	return 0
}

// openData makes the data directory and opens its log file.
func openData(dir string, stderr io.Writer) (string, *os.File, int) {
	if dir == "" {
		d, err := ui.DefaultDataDir()
		if err != nil {
			fmt.Fprintf(stderr, "okey: no data directory (use --data): %v\n", err)
			return "", nil, 2
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return "", nil, 2
	}
	f, err := os.OpenFile(filepath.Join(dir, "okey.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %v\n", err)
		return "", nil, 2
	}
	return dir, f, 0
}

func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" && table.CheckName(u.Username) == nil {
		return u.Username
	}
	return "player"
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
