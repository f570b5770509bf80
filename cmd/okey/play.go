package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

func init() {
	register(command{name: "play", summary: i18n.Mark("play at the terminal table: against bots, on the LAN or by invite code"), run: runPlay})
}

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("play")); printLevels(stderr); printDefaults(fs) }
	bots := fs.Int("bots", -1, i18n.T("play against this many bots (1-3), no network"))
	preset := fs.String("preset", "classic", i18n.T("ruleset: preset[:options] (%s)", strings.Join(allPresets(), ", ")))
	players := fs.Int("players", 0, i18n.T("seats at the table (default: bots+1)"))
	name := fs.String("name", defaultName(), i18n.T("your name at the table"))
	data := fs.String("data", "", i18n.T("data directory: identity, matches, log (default: the user's config directory)"))
	level := fs.String("level", "", i18n.T("how well the bots play: %s (default %s)", strings.Join(bot.LevelNames(), ", "), bot.DefaultLevel))
	strategy := fs.String("strategy", "", i18n.T("the bots' strategy by name (%s), instead of --level (Okey 101: %s only, which greedy and every level mean there)", strings.Join(bot.AllNames(), ", "), bot.Name101))
	pace := fs.Duration("pace", 400*time.Millisecond, i18n.T("how long a bot waits before it moves"))
	noMouse := fs.Bool("no-mouse", false, i18n.T("no mouse input"))
	noMDNS := fs.Bool("no-mdns", false, i18n.T("LAN: no mDNS discovery (use --peer)"))
	resume := fs.Bool("resume", false, i18n.T("continue the last unfinished match against bots"))
	timer := fs.Int("timer", 0, i18n.T("turn timer in seconds (5-600; 0: none): the ruleset option timer=S"))
	var peers, listen multiFlag
	fs.Var(&peers, "peer", i18n.T("LAN: a peer's multiaddr to connect to, ending in /p2p/<id> (repeatable)"))
	fs.Var(&listen, "listen", i18n.T("LAN: a multiaddr to listen on (repeatable; default every interface)"))
	var relays multiFlag
	fs.Var(&relays, "relay", i18n.T("multiaddr of a relay, ending in /p2p/<id> (repeatable; kept with the data; none clears)"))
	serveRelay := fs.Bool("serve-relay", false, i18n.T("serve as the relay of the tables you create (a publicly reachable host)"))
	webFlag := fs.Bool("web", false, i18n.T("play in your web browser, served by this process at http://127.0.0.1: the lobby (with --bots, the table), every preset"))
	noOpen := fs.Bool("no-open", false, i18n.T("with --web: print the table's address, do not open the browser"))
	codeFlag := fs.String("code", "", i18n.T("take a seat at the table of this invite code (- reads it from standard input)"))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, i18n.T("okey: play takes no arguments, got %q\n", fs.Arg(0)))
		return 2
	}
	spec := *preset
	if *timer != 0 {
		if *timer < 5 || *timer > 600 {
			fmt.Fprint(stderr, i18n.T("okey: --timer %d: want 5 to 600 seconds (0: no timer)\n", *timer))
			return 2
		}
		if r, err := engine.ParseRuleset(spec); err == nil && r.TurnSeconds != 0 {
			fmt.Fprint(stderr, i18n.T("okey: --timer %d and timer=%d in --preset: set the turn timer once\n", *timer, r.TurnSeconds))
			return 2
		}
		sep := ":"
		if strings.Contains(spec, ":") {
			sep = ","
		}
		spec += sep + "timer=" + strconv.Itoa(*timer)
	}
	rules, err := engine.ParseRuleset(spec)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	if err := table.CheckName(*name); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --name: %s\n", ui.Plain(err)))
		return 2
	}
	chosen, err := bot.Choose(*level, *strategy, *bots >= 0 && !*resume, rules.Preset == engine.Preset101)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: --level/--strategy: %s\n", ui.Plain(err)))
		return 2
	}
	*strategy = chosen
	if *resume {
		return playBots(botFlags{name: *name, data: *data, strategy: *strategy, pace: *pace, noMouse: *noMouse, resume: true,
			web: *webFlag, noOpen: *noOpen}, stdout, stderr)
	}
	if *bots < 0 {
		code, msg := checkLANFlags(*name, peers, relays, *codeFlag, stdin)
		if msg != "" {
			fmt.Fprintf(stderr, "okey: %s\n", msg)
			return 2
		}
		return playLAN(lanFlags{name: *name, data: *data, noMDNS: *noMDNS, peers: peers, listen: listen, relays: relays, serveRelay: *serveRelay, code: code,
			strategy: *strategy, noMouse: *noMouse, timer: *timer, pace: *pace, web: *webFlag, noOpen: *noOpen}, stdout, stderr)
	}
	if *bots < 1 || *bots > 3 {
		fmt.Fprintln(stderr, i18n.T("okey: --bots must be 1, 2 or 3"))
		return 2
	}
	n := *bots + 1
	if *players != 0 && *players != n {
		fmt.Fprint(stderr, i18n.T("okey: --players %d does not match --bots %d: the table is you and %d bots\n", *players, *bots, *bots))
		return 2
	}
	if err := rules.CheckPlayers(n); err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return 2
	}
	return playBots(botFlags{name: *name, data: *data, strategy: *strategy, pace: *pace, noMouse: *noMouse,
		ruleset: rules.String(), bots: *bots, web: *webFlag, noOpen: *noOpen}, stdout, stderr)
}

// checkLANFlags checks the flags of a LAN game and reads --code (from
// stdin for -): the code, or the usage message of the first bad flag.
func checkLANFlags(name string, peers, relays []string, codeFlag string, stdin io.Reader) (code, msg string) {
	if err := p2p.ValidateDisplayName(name); err != nil {
		return "", i18n.T("--name: %v", ui.Plain(err))
	}
	n := netFlags{peers: peers}
	if msg := n.checkAddrs(); msg != "" {
		return "", msg
	}
	if msg := checkRelays(relays); msg != "" || codeFlag == "" {
		return "", msg
	}
	_, code, msg = parseCodeFlag(codeFlag, stdin)
	return code, msg
}

type botFlags struct {
	name, data, strategy, ruleset string
	bots                          int
	pace                          time.Duration
	noMouse, resume               bool
	// web plays at a table in the browser (playBotsWeb); noOpen prints its
	// address without opening the browser.
	web, noOpen bool
	// For tests: the screen (nil: the terminal), a mover for the person's
	// seat (nil: the person), and what to do once the match has ended.
	screen tcell.Screen
	player table.Mover
	ended  func(*ui.Game)
	// served is told the web table's server once it listens (tests).
	served func(*web.Server)
}

// makeBots returns the bots of a match against bots (netplay.LocalBots).
var makeBots = netplay.LocalBots

// localLeaveNote is what the quit question says about a match against bots.
var localLeaveNote = i18n.Mark("okey play --resume continues it later.")

// playBots plays against bots in this process: a new match, or the last
// unfinished one (offered first, or at once with --resume).
func playBots(f botFlags, stdout, stderr io.Writer) int {
	if f.web {
		return playBotsWeb(f, stdout, stderr)
	}
	d, code := openData(f.data, stderr)
	if code != 0 {
		return code
	}
	defer d.file.Close()
	dir, logger := d.dir, d.log
	unfinished, err := ui.UnfinishedLocal(dir)
	if err != nil {
		logger.Warn("unfinished matches", "err", err)
	}
	if f.resume && len(unfinished) == 0 {
		fmt.Fprint(stderr, i18n.T("okey: --resume: no unfinished match against bots in %s\n", filepath.Join(dir, "matches")))
		return 2
	}

	base := localOptions(dir, f.pace, logger)
	base.Strategy, base.Player = f.strategy, f.player
	fresh := base
	if !f.resume && !newLocalMatch(&fresh, f, stderr) {
		return 2
	}
	g := ui.NewGame(0, ui.Options{NoMouse: f.noMouse, Screen: f.screen})
	g.SetLeaveNote(localLeaveNote)
	done := make(chan *ui.LocalOutcome, 1)
	var started atomic.Bool
	play := func(o ui.LocalOptions) {
		started.Store(true)
		out, err := ui.PlayLocal(context.Background(), g, o)
		if err != nil {
			logger.Error("play", "err", err)
			g.Finish(&ui.MatchEnd{Err: err})
		}
		done <- out
		if f.ended != nil {
			f.ended(g)
		}
	}
	startNew := func() { play(fresh) }
	resume := func(m ui.LocalMatch) {
		o := base
		resumeLocal(&o, m)
		play(o)
	}
	// The match starts once the screen runs (g.Start): a terminal that
	// cannot open leaves no empty match behind to resume.
	switch {
	case f.resume:
		g.Start(func() { resume(unfinished[0]) })
	case len(unfinished) > 0:
		g.AskResume(dir, unfinished, newMatchRow(f.bots, ui.RulesetName(f.ruleset)),
			func(m ui.LocalMatch) { g.ShowTable(); resume(m) },
			func() { g.ShowTable(); startNew() },
			g.Quit)
	default:
		g.Start(startNew)
	}
	if err := g.Run(); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: no terminal to play at: %s\n", ui.Plain(err)))
		return 2
	}
	var out *ui.LocalOutcome
	if started.Load() {
		select {
		case out = <-done:
		case <-time.After(5 * time.Second):
		}
	}
	return localOutcome(out, stdout)
}

// localOutcome says how a match against bots ended and returns the exit
// status (verify's of the match played, 0 when the player left).
func localOutcome(out *ui.LocalOutcome, stdout io.Writer) int {
	switch {
	case out == nil:
		fmt.Fprintln(stdout, i18n.T("okey: left the table"))
		return 0
	case out.Report != nil:
		fmt.Fprintf(stdout, "okey: %s\n", ui.Verdict(out.Report))
		if out.Transcript != "" {
			fmt.Fprint(stdout, i18n.T("okey: transcript %s (okey verify, okey replay)\n", out.Transcript))
		}
		return int(out.Report.Status()) // verify's exit status
	case errors.Is(out.Err, ui.ErrQuit):
		fmt.Fprintln(stdout, i18n.T("okey: left the table; the match is saved: okey play --resume continues it"))
	case out.Err != nil:
		fmt.Fprintf(stdout, "okey: %s\n", ui.Explain(out.Err))
		if out.Transcript != "" {
			fmt.Fprint(stdout, i18n.T("okey: the match so far is in %s\n", out.Transcript))
		}
	}
	return 0
}

// dataLog is okey play's data directory with its log file open.
type dataLog struct {
	dir  string
	file *os.File
	h    slog.Handler
	log  *slog.Logger
}

// openData makes the data directory (dir, else the user's config
// directory) and opens its log file, where the standard logger writes
// too.
func openData(dir string, stderr io.Writer) (*dataLog, int) {
	if dir == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: no data directory (use --data): %s\n", ui.Plain(err)))
			return nil, 2
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return nil, 2
	}
	f, err := os.OpenFile(filepath.Join(dir, "okey.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "okey: %s\n", ui.Plain(err))
		return nil, 2
	}
	h := slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})
	log.SetOutput(f)
	return &dataLog{dir: dir, file: f, h: h, log: slog.New(h)}, 0
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

type lanFlags struct {
	name, data, strategy string
	noMDNS, noMouse      bool
	serveRelay           bool
	peers, listen        []string
	relays               []string
	code                 string // --code: join this table at once
	timer                int
	pace                 time.Duration
	// web serves the lobby and its tables to the browser (playLANWeb);
	// noOpen prints its address without opening the browser.
	web, noOpen bool
	// For tests: the screen (nil: the terminal), a mover for the person's
	// seat at a LAN table (nil: the person), the context the network and
	// the web lobby run in (nil: until Ctrl-C), and hooks told the client
	// once open and the web server once it listens.
	screen tcell.Screen
	player table.Mover
	ctx    context.Context
	opened func(*netplay.Client)
	served func(*web.Server)
	game   func(*ui.Game) // told the terminal's Game
}

// playLAN runs the lobby: the tables on the LAN, then the table the player
// sits at, played over the network with package lan.
func playLAN(f lanFlags, stdout, stderr io.Writer) int {
	n, code := openLAN(f, stderr)
	if code != 0 {
		return code
	}
	defer n.close()
	if f.web {
		return playLANWeb(f, n, stdout, stderr)
	}
	dir, logger, useRelays, c := n.dir, n.log, n.relays, n.c
	ctx, cancel := context.WithCancel(n.ctx)
	defer cancel()
	g := ui.NewGame(0, ui.Options{NoMouse: f.noMouse, Screen: f.screen})
	if f.game != nil {
		f.game(g)
	}
	lb := newLanLobby(ctx, c, logger, f.strategy, f.listen, true, useRelays)
	// w in the lobby watches a started table (watch_lobby.go); the
	// tournaments on the LAN are listed too (lobby_tournament.go).
	var lobby ui.Lobby = &watchLobby{lanLobby: lb, g: g}
	front := &termTours{g: g}
	tours, closeTours := openTours(ctx, c, front, logger)
	defer closeTours()
	if tours != nil {
		lobby = tourLobby{lobby.(*watchLobby), tours}
	}
	// The match's end panel goes back to the lobby (issue 37 item 4):
	// q there quits okey.
	var lv *ui.LobbyView
	back := func() {
		g.ShowLobbyAgain(lv)
		lv.Say(i18n.T("back in the lobby after the match: q quits okey"))
	}
	ls := &lanSitting{ctx: ctx, c: c, g: g, lb: lb, f: f, dir: dir, logger: logger}
	lv = g.ShowLobby(lobby, ls.sit)
	ls.back = back
	front.lv = lv
	if f.timer > 0 {
		lv.SetDefaultTimer(f.timer)
	}
	if f.code != "" {
		lv.JoinCode(f.code)
	}
	if err := g.Run(); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: no terminal to play at: %s\n", ui.Plain(err)))
		return 2
	}
	stop := func() { cancel(); lb.bots.Wait(5 * time.Second) }
	if tours != nil {
		tours.stop(stop, stdout) // says which tournaments were left
	} else {
		stop()
	}
	return lobbyExit(stdout, ls.played.Load(), ls.leftLine())
}

// lanSitting plays the table the player sits at from the lobby: a match
// against bots saved on this computer, or a table of the LAN (or of a
// code).
type lanSitting struct {
	ctx    context.Context
	c      *netplay.Client
	g      *ui.Game
	lb     *lanLobby
	f      lanFlags
	dir    string
	logger *slog.Logger
	back   func() // the match's end panel goes back to the lobby
	played atomic.Pointer[netplay.Outcome]
	left   atomic.Pointer[string] // the line for a match left unfinished (saved, to resume)
}

// sit is the lobby's sit: it plays table t.
func (s *lanSitting) sit(t ui.LobbyTable) {
	if t.Local {
		s.playLocal(t)
		return
	}
	s.playTable(t)
}

func (s *lanSitting) leave(line string) { s.left.Store(&line) }

func (s *lanSitting) leftLine() string {
	if l := s.left.Load(); l != nil {
		return *l
	}
	return ""
}

// playLocal resumes a match against bots on this computer, left
// unfinished.
func (s *lanSitting) playLocal(t ui.LobbyTable) {
	// A match against bots on this computer, left unfinished.
	m, ok := s.lb.localMatch(t.ID)
	if !ok {
		s.g.Say(i18n.T("that match is no longer saved"))
		return
	}
	s.g.FreshTable(0, s.back)
	s.g.SetLeaveNote(i18n.Mark("okey play offers to resume it later."))
	s.g.ShowTable()
	o := localOptions(s.dir, s.f.pace, s.logger)
	o.Resume, o.Strategy, o.Bots = m.Dir, m.Strategy, makeBots(m.Ruleset, m.Strategy, s.f.strategy, m.Bots())
	out, err := ui.PlayLocal(s.ctx, s.g, o)
	if err != nil {
		s.g.Finish(&ui.MatchEnd{Err: err})
	}
	if out != nil && errors.Is(out.Err, ui.ErrQuit) {
		s.leave(i18n.T("okey: left the table; the match is saved: okey play --resume continues it"))
	}
}

// playTable plays a table of the lobby, resumed or started.
func (s *lanSitting) playTable(t ui.LobbyTable) {
	a, resumed := s.lb.unfinishedLAN(t.ID)
	if resumed {
		// The bots this computer seated at that table resume too.
		s.lb.bots.Resume(t.ID)
		s.g.Say(i18n.T("resuming table %s: waiting for the other players to come back", t.ID))
	} else {
		var err error
		if a, err = s.c.Lobby().WaitStarted(s.ctx, t.ID); err != nil {
			s.g.Say(i18n.T("the table did not start: %s", ui.Explain(err)))
			return
		}
	}
	seat := s.c.Seat(a)
	if seat < 0 {
		return
	}
	s.g.FreshTable(seat, s.back)
	s.g.SetLeaveNote(i18n.Mark("okey play offers to resume it when you come back."))
	s.g.SetRackFile(filepath.Join(s.dir, netplay.MatchesDir, a.Table, ui.RackFile))
	s.g.ShowTable()
	var mover table.Mover = s.g
	if s.f.player != nil {
		mover = s.f.player
	}
	o, err := s.lb.PlaySeat(s.ctx, a, mover, s.g, netplay.PlayOptions{Withhold: 15 * time.Minute,
		OnChatReady: func(send netplay.ChatSend) { s.g.SetChat(chatMembers(a, s.c.ID()), ui.ChatSendFunc(send)) },
		OnChat:      func(l netplay.ChatLine) { s.g.Chat(ui.ChatLine(l)) }})
	if err != nil {
		if errors.Is(err, ui.ErrQuit) {
			s.leave(i18n.T("okey: left the table; the match is saved: okey play offers it in the lobby to resume"))
		} else if s.ctx.Err() == nil {
			s.g.Finish(&ui.MatchEnd{Err: err})
		}
		return
	}
	s.played.Store(o)
	s.g.Finish(ui.EndOf(o.Transcript, &o.Report, &o.Result))
}

// lobbyExit prints what okey play says when the lobby closes: the verdict
// and transcript of the last match played to its end, then, when a match
// was left before its end, that it is saved (as after a match against
// bots); it returns the exit status (verify's of the match played, 0 for a
// match left: leaving is no verdict).
func lobbyExit(stdout io.Writer, played *netplay.Outcome, left string) int {
	status := 0
	if played != nil {
		fmt.Fprint(stdout, i18n.T("okey: %s\nokey: transcript %s\n", ui.Verdict(&played.Report), played.Transcript))
		status = int(played.Report.Status()) // verify's exit status
	}
	if left != "" {
		fmt.Fprintln(stdout, left)
	}
	return status
}

// lanLobby is netplay's LobbyService (the lobby the terminal and the web
// page share) as the lobby screen takes it, with the client and the
// context the screen's watch and tournaments use.
type lanLobby struct {
	*netplay.LobbyService
	c    *netplay.Client
	ctx  context.Context
	bots *netplay.HouseBots
}

// newLanLobby is the lobby of the player whose client is c; its bots play
// strategy (when the table's creator names no level) until ctx ends, on
// the interfaces of listen ("": every interface), with reach and relays.
func newLanLobby(ctx context.Context, c *netplay.Client, log *slog.Logger, strategy string, listen []string, reach bool, relays []string) *lanLobby {
	s := netplay.NewLobbyService(ctx, c, netplay.LobbyOptions{Strategy: strategy, Mover: netplay.HouseMover, Level: bot.LevelOf,
		Listen: listen, Reach: reach, Relays: relays, Log: log, Explain: explainNet})
	return &lanLobby{LobbyService: s, c: c, ctx: ctx, bots: s.Bots()}
}

func (l *lanLobby) unfinishedLAN(id string) (lobby.Announcement, bool) { return l.UnfinishedLAN(id) }
func (l *lanLobby) localMatch(dir string) (ui.LocalMatch, bool)        { return l.LocalMatch(dir) }
func (l *lanLobby) botRelays() []string                                { return l.BotRelays() }

// newMatchRow is the chooser's row that starts a new match against bots
// ("vs 1 bot", "vs 3 bots").
func newMatchRow(bots int, ruleset string) string {
	if bots == 1 {
		return i18n.T("start a new match vs 1 bot (%s)", ruleset)
	}
	return i18n.T("start a new match vs %d bots (%s)", bots, ruleset)
}

// chatMembers are a table's members as its chat names them (roster order).
func chatMembers(a lobby.Announcement, self string) []ui.ChatMember {
	out := make([]ui.ChatMember, len(a.Members))
	for i, m := range a.Members {
		out[i] = ui.ChatMember{ID: m.ID, Name: m.Name, Self: m.ID == self}
	}
	return out
}
