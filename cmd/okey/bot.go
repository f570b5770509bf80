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
	"sync"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

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

const botUsage = `usage: okey bot [--name N] [--create [--lan] --players N --preset P | --join TABLE | --code CODE|-]
                [--level L | --strategy S] [--matches M] [--out DIR] [--data DIR]
                [--listen MULTIADDR]... [--no-mdns] [--peer MULTIADDR]...
                [--relay MULTIADDR]... [--serve-relay]
                [--withhold D] [--move-withhold D] [-v] [--log FILE]
                [--summary FILE]

A headless player. It finds other okey peers on the LAN (mDNS, or --peer),
takes a seat, plays each match with a bot strategy, saves the transcript into
DIR and prints one line per match on stdout. Logs go to stderr (or --log),
one line per event; -v adds protocol detail.

Seating: --create opens a table for players beyond the LAN and waits until
it is full: it prints "invite: CODE" on a line of its own as soon as the
table is open, and only a player with that code gets a seat (--lan opens a
LAN table instead, which anyone on the LAN may join, and prints no code).
--code takes a seat at the table of an invite code (--code - reads it from
standard input: on the command line a code is visible to the other users of
this computer in the process list, so prefer -). --join takes a seat at the
LAN table with that id. With none of them it joins an open LAN table (only
one of --players seats and ruleset --preset, when either is given), or opens
one when it finds none; bots started together meet at one table (the open
table with the smallest id wins; tables opened with --create come first).
Every match after the first is seated the automatic way (or with --create).

State: the identity key, the display name and every match's progress live in
the data directory. A bot killed in the middle of a match and started again
with the same --data resumes it. A seat silent for --withhold (--move-withhold
while it is to move) ends the match unfinished: the bot says which seat
stopped answering, and names no one (silence is never proof of cheating).

Beyond the LAN: the bot tries direct links (UPnP/NAT-PMP port mapping, hole
punching) and, with --relay, a relay (okey relay) for the seats it cannot
reach directly. The --relay list given is kept in the data directory and used
when none is given; --relay none clears it. --serve-relay makes this bot the
relay for the tables it creates (its host must be reachable from the
internet).

Measurements: --summary writes, when the bot exits, a JSON file with its
matches (hands, time per hand, steps, the time each step was applied) and
what the process cost: bytes sent and received by libp2p, peak RSS, CPU time.

Exit status: 0 every match finished honestly; 1 a match ended with a seat
named on proof signed by that seat, or the bot failed or was interrupted (run
it again with the same --data to resume); 2 bad usage (a mistyped code
included); 3 a match ended unfinished (a seat stopped answering, or the rules
could not go on); 4 the table could not form (its creator cannot be reached,
the code was refused or revoked, or the table is full, started or closed).
Over several matches (--matches), the status that matters most: 1, then 2,
then 3, then 0.
`

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

var routeLibraryLogsOnce sync.Once

func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(botUsage)); printLevels(stderr); printDefaults(fs) }
	name := fs.String("name", "", i18n.T("display name (default: the profile's, else bot-<id>)"))
	create := fs.Bool("create", false, i18n.T("open a new table"))
	players := fs.Int("players", 4, i18n.T("seats at a table this bot opens (2-4)"))
	preset := fs.String("preset", "classic", i18n.T("ruleset of a table this bot opens: preset[:options]"))
	join := fs.String("join", "", i18n.T("take a seat at the table with this id"))
	codeFlag := fs.String("code", "", i18n.T("take a seat at the table of this invite code (- reads it from standard input)"))
	lanOnly := fs.Bool("lan", false, i18n.T("with --create: a LAN table that anyone on the LAN may join, no invite code"))
	strategy := fs.String("strategy", "", i18n.T("move strategy by name: %s, instead of --level (Okey 101: %s only, which greedy and every level mean there)", strategyNames(), bot.Name101))
	botLevel := fs.String("level", "", i18n.T("how well the bot plays: %s (default %s)", strings.Join(bot.LevelNames(), ", "), bot.DefaultLevel))
	matches := fs.Int("matches", 1, i18n.T("matches to play before exiting"))
	pace := fs.Duration("pace", 0, i18n.T("time per move, always (0s: never wait); without it %v per move while the table has spectators", netplay.HumanPace))
	out := fs.String("out", ".", i18n.T("directory for the transcripts"))
	data := fs.String("data", "", i18n.T("data directory: identity, profile, match state (default: the user's config directory)"))
	var listen, peers stringList
	fs.Var(&listen, "listen", i18n.T("multiaddr to listen on (repeatable; default every interface, TCP and QUIC, random ports)"))
	fs.Var(&peers, "peer", i18n.T("multiaddr of a peer to dial, ending in /p2p/<id> (repeatable)"))
	noMDNS := fs.Bool("no-mdns", false, i18n.T("no mDNS discovery (use --peer)"))
	var relays stringList
	fs.Var(&relays, "relay", i18n.T("multiaddr of a relay, ending in /p2p/<id> (repeatable; kept with the data; none clears)"))
	serveRelay := fs.Bool("serve-relay", false, i18n.T("serve as the relay of the tables this bot creates (a publicly reachable host)"))
	withhold := fs.Duration("withhold", 2*time.Minute, i18n.T("wait for a silent seat before ending the match unfinished (silence names no one)"))
	moveWithhold := fs.Duration("move-withhold", 0, i18n.T("the same while a player is to move, where a person may be thinking (default: the turn timer plus --withhold, or at least 10m without a timer)"))
	wait := fs.Duration("wait", 0, i18n.T("give up when no table has started after this long (0: wait for ever)"))
	settle := fs.Duration("settle", time.Second, i18n.T("listen this long for open tables before opening one"))
	verbose := fs.Bool("v", false, i18n.T("log protocol detail"))
	logFile := fs.String("log", "", i18n.T("write logs to this file instead of stderr"))
	summaryFile := fs.String("summary", "", i18n.T("write a JSON summary of the matches and the process's cost to this file on exit"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// usageErr reports bad usage: msg is already translated, and errors in
	// it are shown with ui.Plain (no "engine: " in a player's message).
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "okey: bot: %s\n", msg)
		return 2
	}
	if fs.NArg() > 0 {
		return usageErr(i18n.T("takes no arguments, got %q", fs.Arg(0)))
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if *create && *join != "" {
		return usageErr(i18n.T("--create and --join exclude each other"))
	}
	if *codeFlag != "" && (*create || *join != "") {
		return usageErr(i18n.T("--code excludes --create and --join"))
	}
	if *lanOnly && !*create {
		return usageErr(i18n.T("--lan goes with --create"))
	}
	var code *invite.Code
	if *codeFlag != "" {
		c, msg := parseCodeFlag(*codeFlag, stdin)
		if msg != "" {
			return usageErr(msg)
		}
		code = &c
	}
	if *join != "" {
		if err := p2p.ValidTableID(*join); err != nil {
			return usageErr(i18n.T("--join: %v", ui.Plain(err)))
		}
	}
	rules, err := engine.ParseRuleset(*preset)
	if err != nil {
		return usageErr(i18n.T("--preset: %v", ui.Plain(err)))
	}
	if err := rules.CheckPlayers(*players); err != nil {
		return usageErr(i18n.T("--players: %v", ui.Plain(err)))
	}
	// An explicit --strategy plays as okey sim's: at an Okey 101 table
	// greedy means b101, b101 plays only there, any other is refused (at
	// once when --create or --preset says the table is 101; else when the
	// table found is). A level plays b101 at a 101 table.
	explicitStrategy := *strategy
	named := *strategy
	if named == bot.Name101 {
		named = "" // not one of bot.New's: checked below
	}
	def, _ := bot.StrategyFor(bot.DefaultLevel) // as okey play (issue 37, 9)
	chosen, err := bot.ChooseStrategy(*botLevel, named, def)
	if err == nil && *strategy == bot.Name101 {
		chosen = bot.Name101
		if *botLevel != "" {
			err = fmt.Errorf("give a level or a strategy, not both")
		}
	}
	if err == nil && explicitStrategy != "" && (*create || explicit["preset"]) {
		err = checkStrategy(explicitStrategy, rules.Preset == engine.Preset101)
	}
	if err != nil {
		return usageErr(i18n.T("--level/--strategy: %v", ui.Plain(err)))
	}
	*strategy = chosen
	if *matches < 1 {
		return usageErr(i18n.T("--matches must be at least 1"))
	}
	if *pace < 0 {
		return usageErr(i18n.T("--pace must be 0s or more"))
	}
	if *withhold < time.Second {
		return usageErr(i18n.T("--withhold must be at least 1s"))
	}
	if *moveWithhold != 0 && *moveWithhold < time.Second {
		return usageErr(i18n.T("--move-withhold must be at least 1s"))
	}
	if *name != "" {
		if err := p2p.ValidateDisplayName(*name); err != nil {
			return usageErr(i18n.T("--name: %v", ui.Plain(err)))
		}
	}
	for _, a := range listen {
		if _, err := ma.NewMultiaddr(a); err != nil {
			return usageErr(i18n.T("--listen %q: %v", a, ui.Plain(err)))
		}
	}
	for _, a := range peers {
		if _, err := p2p.ParsePeerAddr(a); err != nil {
			return usageErr(i18n.T("--peer: %v", ui.Plain(err)))
		}
	}
	for _, a := range relays {
		if a == netplay.NoRelay && len(relays) == 1 {
			continue
		}
		if _, _, err := relay.ParseLine(a); err != nil {
			return usageErr(i18n.T("--relay: %v", ui.Plain(err)))
		}
	}
	if *noMDNS && len(peers) == 0 && code == nil {
		fmt.Fprintln(stderr, i18n.T("okey: bot: warning: --no-mdns without --peer: only peers that dial this one will be found"))
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return usageErr(i18n.T("--out: %v", ui.Plain(err)))
	}
	if *data == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil {
			return usageErr(i18n.T("%v (use --data)", ui.Plain(err)))
		}
		*data = d
	}

	h, closeLog, err := commandLog(stderr, *logFile, *verbose)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()
	log := networkLog(h, *verbose)

	if *name == "" {
		if _, err := p2p.LoadProfile(*data); err != nil {
			if k, err := p2p.LoadOrCreateIdentity(*data); err == nil {
				if id, err := peer.IDFromPrivateKey(k); err == nil {
					s := id.String()
					*name = "bot-" + s[len(s)-6:]
				}
			}
		}
	}

	useRelays, err := netplay.ResolveRelays(*data, relays)
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
	c, err := netplay.Open(ctx, netplay.Options{Data: *data, Name: *name, Listen: listen, NoMDNS: *noMDNS, Peers: peers, Log: log,
		Reach: true, Relays: useRelays, ServeRelay: *serveRelay, NodeOptions: nodeOpts, Bandwidth: bw})
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: bot: %s\n", ui.Plain(err)))
		return 1
	}
	defer c.Close()
	summary := &botSummary{Version: 1, Peer: c.ID(), Name: c.Name()}
	// exit writes the summary (--summary) and returns the exit status.
	exit := func(code int) int {
		if *summaryFile == "" {
			return code
		}
		summary.Status = code
		if err := summary.write(*summaryFile, started, bw, c.Lobby()); err != nil {
			fmt.Fprint(stderr, i18n.T("okey: bot: --summary: %s\n", ui.Plain(err)))
			return max(code, 1)
		}
		return code
	}
	log.Info("bot started", "name", c.Name(), "peer", c.ID(), "addrs", strings.Join(c.Addrs(), " "))

	failed := func(err error) int {
		if errors.Is(err, netplay.ErrCannotForm) && ctx.Err() == nil {
			log.Warn("the table cannot form", "err", err) // the details: stderr says it in one sentence
			fmt.Fprint(stderr, i18n.T("okey: bot: the table cannot form: %s\n", explainNet(err)))
			return exit(exitCannotForm)
		}
		if ctx.Err() != nil {
			fmt.Fprint(stderr, i18n.T("okey: bot: interrupted; the match state is kept in %s: run again with --data %s to resume\n", *data, *data))
		} else {
			fmt.Fprint(stderr, i18n.T("okey: bot: %s\n", ui.Plain(err)))
		}
		return exit(1)
	}
	// The bot's pace (issue 37, 7): --pace always, else a person's time
	// while the table is watched; --pace 0s never waits.
	botPace := netplay.Pace{Watched: netplay.HumanPace}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "pace" {
			botPace = netplay.Pace{Every: *pace}
		}
	})
	status := 0
	played := 0
	playOne := func(a lobby.Announcement) error {
		is101 := a.Preset == engine.Preset101
		name := *strategy
		if is101 && explicitStrategy == "" {
			name = bot.Name101 // every level plays the one 101 bot
		}
		mover, err := strategyMover(name, uint64(time.Now().UnixNano()), is101)
		if err != nil {
			return fmt.Errorf("table %s (%s): --strategy: %w", a.Table, a.Preset, err)
		}
		stopLinks := make(chan struct{})
		linksDone := make(chan struct{})
		go func() { // how this seat reaches the others, while it plays
			defer close(linksDone)
			t := time.NewTicker(5 * time.Second)
			defer t.Stop()
			for {
				select {
				case <-stopLinks:
					return
				case <-t.C:
					logLinks(log, c.Node(), a)
				}
			}
		}()
		o, err := c.Play(ctx, a, mover, netplay.PlayOptions{Out: *out, Withhold: *withhold, MoveWithhold: *moveWithhold, Pace: botPace})
		close(stopLinks)
		<-linksDone
		if err != nil {
			return err
		}
		c.Done(a)
		played++
		logTiming(log, a.Table, o.Timing)
		st := printMatch(stdout, played, a, o)
		summary.Matches = append(summary.Matches, newMatchSummary(a, o, st))
		status = worstStatus(status, st)
		return nil
	}
	unfinished, err := c.Unfinished()
	if err != nil {
		return failed(err)
	}
	for _, a := range unfinished {
		if played >= *matches {
			break
		}
		log.Info("resuming an unfinished match", "table", a.Table)
		if err := playOne(a); err != nil {
			return failed(err)
		}
	}
	for played < *matches {
		so := netplay.SeatOptions{Create: *create, Private: *create && !*lanOnly, Ruleset: rules.String(), Players: *players,
			Match: explicit["preset"] || explicit["players"], Settle: *settle,
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
			}}
		if played == 0 && len(unfinished) == 0 {
			so.Join, so.Code = *join, code
		}
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if *wait > 0 {
			fctx, cancel = context.WithTimeout(ctx, *wait)
		}
		a, err := c.FindSeat(fctx, so)
		cancel()
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, netplay.ErrCannotForm) {
				// No table to sit at is a table that could not form: never 1.
				fmt.Fprint(stderr, i18n.T("okey: bot: no table started within --wait %v\n", *wait))
				return exit(exitCannotForm)
			}
			return failed(err)
		}
		if err := playOne(a); err != nil {
			return failed(err)
		}
	}
	return exit(status)
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

// logLinks logs how this seat reaches each other member (direct, relayed,
// via-member, none) and the round-trip time.
func logLinks(log *slog.Logger, n *p2p.Node, a lobby.Announcement) {
	var parts []string
	for _, l := range n.Links(a.Roster()) {
		if l.Peer == n.ID() {
			continue
		}
		s := l.Peer.String()
		parts = append(parts, s[len(s)-6:]+"="+l.Kind.String()+"/"+l.RTT.Round(100*time.Microsecond).String())
	}
	log.Info("links", "table", a.Table, "members", strings.Join(parts, " "))
}

// logTiming logs this seat's deal and draw latencies.
func logTiming(log *slog.Logger, table string, t netplay.Timing) {
	q := func(ds []time.Duration, p int) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, (len(s)*p+99)/100-1)].Round(100 * time.Microsecond)
	}
	log.Info("timing", "table", table, "deal_max", slices.Max(append([]time.Duration{0}, t.Deals...)).Round(time.Millisecond),
		"draws", len(t.Draws), "draw_p50", q(t.Draws, 50), "draw_p99", q(t.Draws, 99))
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

// quietComponent keeps pubsub's logs below a level out.
type quietComponent struct {
	slog.Handler
	pubsub slog.Level
}

func (h *quietComponent) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" && a.Value.String() == "pubsub" {
			return minLevel{h.Handler.WithAttrs(as), h.pubsub}
		}
	}
	return &quietComponent{h.Handler.WithAttrs(as), h.pubsub}
}

func (h *quietComponent) WithGroup(name string) slog.Handler {
	return &quietComponent{h.Handler.WithGroup(name), h.pubsub}
}

// minLevel drops records below a level.
// networkLog is the logger of a command that runs a libp2p node over the
// handler h: pubsub's own warnings (a direct peer's GRAFT, ...) are noise
// unless verbose, its debug chatter (every RPC) always is; the libraries'
// logs go to h from warnings up.
func networkLog(h slog.Handler, verbose bool) *slog.Logger {
	pubsubFloor := slog.LevelError
	if verbose {
		pubsubFloor = slog.LevelInfo
	}
	routeLibraryLogsOnce.Do(func() { p2p.RouteLibraryLogs(minLevel{h, slog.LevelWarn}) })
	return slog.New(&quietComponent{h, pubsubFloor})
}

// commandLog is the log of a long-running command (okey bot, okey relay):
// text lines to stderr, or appended to the file path (0600) when one is
// given, at debug level with verbose. closeLog closes that file.
func commandLog(stderr io.Writer, path string, verbose bool) (h slog.Handler, closeLog func(), err error) {
	w, closeLog := stderr, func() {}
	if path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, err
		}
		w, closeLog = f, func() { f.Close() }
	}
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}), closeLog, nil
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}
func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
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
// over lines or not). On error it returns the usage message.
func parseCodeFlag(text string, stdin io.Reader) (invite.Code, string) {
	if text == "-" {
		var err error
		if text, err = invite.Read(stdin); err != nil {
			return invite.Code{}, i18n.T("--code -: %v", explainNet(err))
		}
	}
	c, err := invite.ParsePasted(text)
	if err != nil {
		return invite.Code{}, i18n.T("--code: %v", explainNet(err))
	}
	return c, ""
}

// explainNet is an error of the network or of an invite code for a
// player, in the player's language: one sentence, with what to do next
// where there is something to do; the error's details (dial errors, table
// ids, the packages' words) are for the log.
func explainNet(err error) string {
	for _, e := range []struct {
		err error
		key string
	}{
		{invite.ErrTypo, i18n.Mark("the invite code's check does not match: a character is mistyped, missing or swapped; copy it again, whole")},
		{invite.ErrNotACode, i18n.Mark("that is not an okey invite code (it starts with okey1)")},
		{invite.ErrVersion, i18n.Mark("the invite code is of another okey version")},
		{invite.ErrTooLong, i18n.Mark("the invite code is too long")},
		{invite.ErrNoCode, i18n.Mark("standard input holds no code")},
		{lobby.ErrDenied, i18n.Mark("the invite code does not admit to this table: it was revoked or forged; ask its creator for the current code")},
		{lobby.ErrInviteOnly, i18n.Mark("this table admits by invite code only")},
		{lobby.ErrRateLimited, i18n.Mark("too many failed attempts to join: try again later")},
		{lobby.ErrTableFull, i18n.Mark("the table is full")},
		{lobby.ErrTableStarted, i18n.Mark("the table has started: its invite code admits no one any more")},
		{lobby.ErrTableClosed, i18n.Mark("the table is closed or its match is over")},
		{p2p.ErrUnreachable, i18n.Mark("the table's creator cannot be reached at any address of the code: check that its okey still runs, or play through a relay (--relay)")},
		{context.DeadlineExceeded, i18n.Mark("the table did not start in time")},
	} {
		if errors.Is(err, e.err) {
			return i18n.TKey(e.key)
		}
	}
	s := ui.Explain(err)
	if errors.Is(err, netplay.ErrCannotForm) {
		// The caller says that the table cannot form.
		s = strings.TrimPrefix(s, ui.Plain(netplay.ErrCannotForm)+": ")
	}
	return s
}
