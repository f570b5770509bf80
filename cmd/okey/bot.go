package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/p2p/relay"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "bot", summary: i18n.Mark("a headless player: finds or opens a table (LAN or invite code), plays"), run: runBot})
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// botArgs are okey bot's flags, parsed and checked.
type botArgs struct {
	netFlags
	name, join, codeFlag, strategy, level, out, summaryFile string
	create, lanOnly, serveRelay                             bool
	players, matches                                        int
	pace, withhold, moveWithhold, wait, settle              time.Duration
	preset                                                  *string
	relays                                                  stringList
	explicit                                                map[string]bool
	explicitStrategy                                        string // --strategy as given
	code                                                    *invite.Code
	rules                                                   engine.Ruleset
}

// parseBotArgs parses okey bot's flags; a status other than -1 ends the
// command.
func parseBotArgs(args []string, stderr io.Writer) (*botArgs, int) {
	b := &botArgs{explicit: map[string]bool{}}
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("bot")); printLevels(stderr); printDefaults(fs) }
	b.register(fs)
	fs.StringVar(&b.name, "name", "", i18n.T("display name (default: the profile's, else bot-<id>)"))
	fs.BoolVar(&b.create, "create", false, i18n.T("open a new table"))
	fs.IntVar(&b.players, "players", 4, i18n.T("seats at a table this bot opens (2-4)"))
	b.preset = fs.String("preset", "classic", i18n.T("ruleset of a table this bot opens: preset[:options]"))
	fs.StringVar(&b.join, "join", "", i18n.T("take a seat at the table with this id"))
	fs.StringVar(&b.codeFlag, "code", "", i18n.T("take a seat at the table of this invite code (- reads it from standard input)"))
	fs.BoolVar(&b.lanOnly, "lan", false, i18n.T("with --create: a LAN table that anyone on the LAN may join, no invite code"))
	fs.StringVar(&b.strategy, "strategy", "", i18n.T("move strategy by name: %s, instead of --level (Okey 101: %s only, which greedy and every level mean there)", strings.Join(bot.AllNames(), ", "), bot.Name101))
	fs.StringVar(&b.level, "level", "", i18n.T("how well the bot plays: %s (default %s)", strings.Join(bot.LevelNames(), ", "), bot.DefaultLevel))
	fs.IntVar(&b.matches, "matches", 1, i18n.T("matches to play before exiting"))
	fs.DurationVar(&b.pace, "pace", 0, i18n.T("time per move, always (0s: never wait); without it %v per move while the table has spectators", netplay.HumanPace))
	fs.StringVar(&b.out, "out", ".", i18n.T("directory for the transcripts"))
	fs.Var(&b.relays, "relay", i18n.T("multiaddr of a relay, ending in /p2p/<id> (repeatable; kept with the data; none clears)"))
	fs.BoolVar(&b.serveRelay, "serve-relay", false, i18n.T("serve as the relay of the tables this bot creates (a publicly reachable host)"))
	fs.DurationVar(&b.withhold, "withhold", 2*time.Minute, i18n.T("wait for a silent seat before ending the match unfinished (silence names no one)"))
	fs.DurationVar(&b.moveWithhold, "move-withhold", 0, i18n.T("the same while a player is to move, where a person may be thinking (default: the turn timer plus --withhold, or at least 10m without a timer)"))
	fs.DurationVar(&b.wait, "wait", 0, i18n.T("give up when no table has started after this long (0: wait for ever)"))
	fs.DurationVar(&b.settle, "settle", time.Second, i18n.T("listen this long for open tables before opening one"))
	fs.StringVar(&b.summaryFile, "summary", "", i18n.T("write a JSON summary of the matches and the process's cost to this file on exit"))
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "okey: bot: %s\n", i18n.T("takes no arguments, got %q", fs.Arg(0)))
		return nil, 2
	}
	fs.Visit(func(f *flag.Flag) { b.explicit[f.Name] = true })
	return b, -1
}

// check checks the flags that parsed, reading a code from stdin for
// --code -; it returns the usage message of the first bad one ("" when
// all are good). Errors in it are shown with ui.Plain (no "engine: " in a
// player's message).
func (b *botArgs) check(stdin io.Reader) string {
	switch {
	case b.create && b.join != "":
		return i18n.T("--create and --join exclude each other")
	case b.codeFlag != "" && (b.create || b.join != ""):
		return i18n.T("--code excludes --create and --join")
	case b.lanOnly && !b.create:
		return i18n.T("--lan goes with --create")
	}
	if b.codeFlag != "" {
		c, _, msg := parseCodeFlag(b.codeFlag, stdin)
		if msg != "" {
			return msg
		}
		b.code = &c
	}
	if b.join != "" {
		if err := p2p.ValidTableID(b.join); err != nil {
			return i18n.T("--join: %v", ui.Plain(err))
		}
	}
	rules, err := engine.ParseRuleset(*b.preset)
	if err != nil {
		return i18n.T("--preset: %v", ui.Plain(err))
	}
	b.rules = rules
	if err := rules.CheckPlayers(b.players); err != nil {
		return i18n.T("--players: %v", ui.Plain(err))
	}
	if msg := b.checkStrategy(); msg != "" {
		return msg
	}
	switch {
	case b.matches < 1:
		return i18n.T("--matches must be at least 1")
	case b.pace < 0:
		return i18n.T("--pace must be 0s or more")
	case b.withhold < time.Second:
		return i18n.T("--withhold must be at least 1s")
	case b.moveWithhold != 0 && b.moveWithhold < time.Second:
		return i18n.T("--move-withhold must be at least 1s")
	}
	if b.name != "" {
		if err := p2p.ValidateDisplayName(b.name); err != nil {
			return i18n.T("--name: %v", ui.Plain(err))
		}
	}
	return b.checkAddrs()
}

// checkStrategy resolves --level and --strategy into b.strategy. An
// explicit --strategy plays as okey sim's: at an Okey 101 table greedy
// means b101, b101 plays only there, any other is refused (at once when
// --create or --preset says the table is 101; else when the table found
// is). A level plays b101 at a 101 table.
func (b *botArgs) checkStrategy() string {
	b.explicitStrategy = b.strategy
	chosen, err := bot.Choose(b.level, b.strategy, b.create || b.explicit["preset"], b.rules.Preset == engine.Preset101)
	if err != nil {
		return i18n.T("--level/--strategy: %v", ui.Plain(err))
	}
	b.strategy = chosen
	return ""
}

// checkAddrs checks --listen, --peer and --relay.
func (b *botArgs) checkAddrs() string {
	if msg := b.netFlags.checkAddrs(); msg != "" {
		return msg
	}
	return checkRelays(b.relays)
}

// checkRelays checks --relay: relay lines, or none alone; the usage
// message of the first bad one.
func checkRelays(relays []string) string {
	for _, a := range relays {
		if a == netplay.NoRelay && len(relays) == 1 {
			continue
		}
		if _, _, err := relay.ParseLine(a); err != nil {
			return i18n.T("--relay: %v", ui.Plain(err))
		}
	}
	return ""
}

// mover is the mover of a seat at table a: the strategy chosen, the one
// 101 bot at a 101 table unless --strategy named one.
func (b *botArgs) mover(a lobby.Announcement) (table.Mover, error) {
	is101 := a.Preset == engine.Preset101
	name := b.strategy
	if is101 && b.explicitStrategy == "" {
		name = bot.Name101 // every level plays the one 101 bot
	}
	return bot.ForTable(name, uint64(time.Now().UnixNano()), is101)
}

func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	b, st := parseBotArgs(args, stderr)
	if st >= 0 {
		return st
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "okey: bot: %s\n", msg)
		return 2
	}
	if msg := b.check(stdin); msg != "" {
		return usageErr(msg)
	}
	if b.noMDNS && len(b.peers) == 0 && b.code == nil {
		fmt.Fprintln(stderr, i18n.T("okey: bot: warning: --no-mdns without --peer: only peers that dial this one will be found"))
	}
	if err := os.MkdirAll(b.out, 0o755); err != nil {
		return usageErr(i18n.T("--out: %v", ui.Plain(err)))
	}
	if msg := b.defaultData(); msg != "" {
		return usageErr(msg)
	}
	log, closeLog, err := b.openLog(stderr, b.logFile)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()
	if b.name == "" {
		b.name = netplay.BotName(b.data)
	}
	useRelays, err := netplay.ResolveRelays(b.data, b.relays)
	if err != nil {
		return usageErr(i18n.T("--relay: %v", ui.Plain(err)))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var nodeOpts []p2p.NodeOption
	if os.Getenv(noForwardEnv) == "1" {
		// A fault for the NAT lab only (docs/nat-lab.md): this bot stops
		// forwarding the other members' messages.
		nodeOpts = append(nodeOpts, p2p.WithoutForwarding())
		log.Warn("lab fault: not forwarding the other members' messages", "env", noForwardEnv)
	}
	started := time.Now()
	bw := metrics.NewBandwidthCounter()
	c, err := netplay.Open(ctx, netplay.Options{Data: b.data, Name: b.name, Listen: b.listen, NoMDNS: b.noMDNS, Peers: b.peers, Log: log,
		Reach: true, Relays: useRelays, ServeRelay: b.serveRelay, NodeOptions: nodeOpts, Bandwidth: bw})
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: bot: %s\n", ui.Plain(err)))
		return 1
	}
	defer c.Close()
	summary := &netplay.BotSummary{Version: 1, Peer: c.ID(), Name: c.Name()}
	log.Info("bot started", "name", c.Name(), "peer", c.ID(), "addrs", strings.Join(c.Addrs(), " "))
	status, err := c.RunBot(ctx, b.options(ctx, c, log, stdout, summary))
	if err != nil {
		status = botFailed(ctx, err, b, stderr, log)
	}
	if b.summaryFile == "" {
		return status
	}
	summary.Status = status
	if err := summary.Write(b.summaryFile, started, bw, c.Lobby()); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: bot: --summary: %s\n", ui.Plain(err)))
		return max(status, 1)
	}
	return status
}

// options is the bot's run: each match printed on stdout (and kept in the
// summary), a private table's invite code printed as soon as it is open.
func (b *botArgs) options(ctx context.Context, c *netplay.Client, log *slog.Logger, stdout io.Writer, summary *netplay.BotSummary) netplay.BotOptions {
	// The bot's pace (issue 37, 7): --pace always, else a person's time
	// while the table is watched; --pace 0s never waits.
	botPace := netplay.Pace{Watched: netplay.HumanPace}
	if b.explicit["pace"] {
		botPace = netplay.Pace{Every: b.pace}
	}
	return netplay.BotOptions{Matches: b.matches, Mover: b.mover, Join: b.join, Code: b.code, Wait: b.wait,
		Play: netplay.PlayOptions{Out: b.out, Withhold: b.withhold, MoveWithhold: b.moveWithhold, Pace: botPace},
		Seat: netplay.SeatOptions{Create: b.create, Private: b.create && !b.lanOnly, Ruleset: b.rules.String(), Players: b.players,
			Match: b.explicit["preset"] || b.explicit["players"], Settle: b.settle,
			OnCreate: func(a lobby.Announcement) {
				if !c.Lobby().Private(a.Table) {
					return
				}
				// The relays answer first: one that refuses the table is
				// said at once, and the code leaves it out.
				wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
				printRelayRefusals(stdout, c.Node().WaitRelayAnswers(wctx, a.Table))
				cancel()
				text, err := c.Invite(a.Table)
				if err != nil {
					log.Warn("no invite code", "table", a.Table, "err", err)
					return
				}
				// The code holds the table's secret: stdout only, never the log.
				fmt.Fprintln(stdout, invitePrefix+text)
			}},
		OnMatch: func(n int, a lobby.Announcement, o *netplay.Outcome) int {
			st := printMatch(stdout, n, a, o)
			summary.Matches = append(summary.Matches, netplay.NewMatchSummary(a, o, st))
			return st
		}}
}

// botFailed says why the bot stopped and returns its exit status.
func botFailed(ctx context.Context, err error, b *botArgs, stderr io.Writer, log *slog.Logger) int {
	switch {
	case errors.Is(err, netplay.ErrNoTableInTime):
		// No table to sit at is a table that could not form: never 1.
		fmt.Fprint(stderr, i18n.T("okey: bot: no table started within --wait %v\n", b.wait))
		return exitCannotForm
	case errors.Is(err, netplay.ErrCannotForm) && ctx.Err() == nil:
		log.Warn("the table cannot form", "err", err) // the details: stderr says it in one sentence
		fmt.Fprint(stderr, i18n.T("okey: bot: the table cannot form: %s\n", explainNet(err)))
		return exitCannotForm
	case ctx.Err() != nil:
		fmt.Fprint(stderr, i18n.T("okey: bot: interrupted; the match state is kept in %s: run again with --data %s to resume\n", b.data, b.data))
	default:
		fmt.Fprint(stderr, i18n.T("okey: bot: %s\n", ui.Plain(err)))
	}
	return 1
}

// printRelayRefusals says, one line each, which relays refused a table
// this peer created, and what to do.
func printRelayRefusals(w io.Writer, refused map[peer.ID]error) {
	ids := slices.Sorted(maps.Keys(refused))
	for _, id := range ids {
		fmt.Fprint(w, relayRefusalText(id, refused[id])+"\n")
	}
}

// relayRefusalText is what the creator is told of relay id refusing its
// table: the code does not go through it, and what to do.
func relayRefusalText(id peer.ID, err error) string {
	if errors.Is(err, relay.ErrNotAllowed) {
		return i18n.T("relay %s refused to register the table: the invite code does not go through it (friends behind a strict router cannot join). Ask the relay's operator for the line okey relay prints and start again with --relay LINE.", shortID(id))
	}
	return i18n.T("relay %s refused the table (%s): the invite code does not go through it.", shortID(id), ui.Plain(err))
}

// shortID is the last 8 characters of a peer id.
func shortID(id peer.ID) string {
	s := id.String()
	return s[max(0, len(s)-8):]
}

// printMatch prints the one-line summary of a match and returns its exit
// status: 0 honest, 1 a seat named, 2 a transcript that does not hold, 3
// unfinished (honest so far, no one named).
func printMatch(w io.Writer, n int, a lobby.Announcement, o *netplay.Outcome) int {
	rep := o.Report
	head := i18n.T("match %d: table %s, %s, %d players", n, a.Table, ui.RulesetName(o.Config.Ruleset), len(o.Config.Seats))
	if v := o.Result.Violation; v != nil {
		fmt.Fprint(w, i18n.T("%s: ended at message %d: seat %d (%s) broke %s: %v; transcript %s\n",
			head, v.Step, v.Seat, o.Config.Seats[v.Seat].Name, ui.RuleName(v.Rule), ui.Evidence(v.Err), o.Transcript))
		return int(table.StatusCheating)
	}
	if st := o.Result.Stalled; st != nil {
		fmt.Fprint(w, i18n.T("%s: unfinished, honest so far: at message %d seat %d (%s) stopped answering (no %v for %v); no one is named; transcript %s\n",
			head, st.Step, st.Seat, o.Config.Seats[st.Seat].Name, st.Kind, st.Waited.Round(time.Second), o.Transcript))
		return int(table.StatusUnfinished)
	}
	if f := o.Result.Failure; f != nil {
		fmt.Fprint(w, i18n.T("%s: unfinished, honest so far: the rules cannot go on (%s); no one is named; transcript %s\n", head, ui.Plain(f.Err), o.Transcript))
		return int(table.StatusUnfinished)
	}
	if !rep.Honest {
		fmt.Fprint(w, i18n.T("%s: %s; transcript %s\n", head, ui.Verdict(&rep), o.Transcript))
		return int(rep.Status())
	}
	var scores []int
	if len(rep.Hands) > 0 {
		scores = rep.Hands[len(rep.Hands)-1].Scores
	}
	var first []string
	for _, s := range rep.Ranking {
		if s.Place == 1 {
			first = append(first, o.Config.Seats[s.Seat].Name)
		}
	}
	resumed := ""
	if o.Resumed > 0 {
		resumed = " " + i18n.T("(resumed at message %d)", o.Resumed)
	}
	fmt.Fprint(w, i18n.T("%s: %d hands, %d messages in %v%s; first %s; scores %v; verified; transcript %s\n",
		head, len(rep.Hands), rep.Steps, o.Elapsed.Round(time.Millisecond), resumed, strings.Join(first, ", "), scores, o.Transcript))
	return int(table.StatusHonest)
}

// invitePrefix starts the line that gives a private table's invite code on
// stdout: the same in every language, for programs that read it.
const invitePrefix = "invite: "

// exitCannotForm is the exit status of a table that could not form (its
// creator unreachable, the code refused, the table full or gone): never 1,
// which names a seat on signed proof.
const exitCannotForm = 4

// noForwardEnv, set to 1, makes `okey bot` a member that stops forwarding
// the other members' messages (p2p.WithoutForwarding): a fault for the NAT
// lab (scripts/nat-lab-matrix.sh FAULT=no-forward), never for play.
const noForwardEnv = "OKEY_LAB_NO_FORWARD"

// parseCodeFlag parses the value of a --code flag: a code (as pasted: its
// white space dropped), or "-" for the code on stdin (invite.Read: wrapped
// over lines or not); the code and its text. On error it returns the
// usage message.
func parseCodeFlag(text string, stdin io.Reader) (invite.Code, string, string) {
	if text == "-" {
		var err error
		if text, err = invite.Read(stdin); err != nil {
			return invite.Code{}, "", i18n.T("--code -: %v", explainNet(err))
		}
	}
	c, err := invite.ParsePasted(text)
	if err != nil {
		return invite.Code{}, "", i18n.T("--code: %v", explainNet(err))
	}
	return c, invite.Compact(text), ""
}

// explainNet is an error of the network or of an invite code for a
// player, in the player's language: one sentence, with what to do next
// where there is something to do; the error's details (dial errors, table
// ids, the packages' words) are for the log.
func explainNet(err error) string {
	if s, ok := netplay.Explain(err); ok {
		return s
	}
	s := ui.Explain(err)
	if errors.Is(err, netplay.ErrCannotForm) {
		// The caller says that the table cannot form.
		s = strings.TrimPrefix(s, ui.Plain(netplay.ErrCannotForm)+": ")
	}
	return s
}
