package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/verdict/folder"
)

func init() {
	register(command{name: "tournament", summary: i18n.Mark("create or join a Swiss tournament whose draws and standings anyone can check"), run: runTournament})
}

// tourArgs are okey tournament's flags, parsed and checked.
type tourArgs struct {
	sub                   string
	players, rounds, bots int
	netFlags
	preset, format, title, id, codeFlag, dir, name string
	level, strategy                                string
	openReg, botSeat, noMouse                      bool
	withhold, drawWait, moveWait, wait, linger     time.Duration
	strategyGiven                                  bool
	create                                         *participant.Create
	is101                                          bool // the ruleset's, when this command creates the tournament
	code                                           *invite.Code
	entry                                          netplay.TournamentEntry // the id, the code's invitation
}

// parseTourArgs parses okey tournament's flags; a status other than -1
// ends the command.
func parseTourArgs(args []string, stderr io.Writer) (*tourArgs, int) {
	t := &tourArgs{}
	if len(args) > 0 && (args[0] == "create" || args[0] == "join") {
		t.sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("tournament "+t.sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("tournament")); printLevels(stderr); printDefaults(fs) }
	fs.IntVar(&t.players, "players", 8, i18n.T("create: the number of players (3 to 64, not 5)"))
	fs.IntVar(&t.rounds, "rounds", 3, i18n.T("create: the number of Swiss rounds (1 to 15)"))
	fs.StringVar(&t.preset, "preset", "classic:points=2", i18n.T("create: the ruleset of every match: preset[:options] (a short match by default)"))
	fs.StringVar(&t.format, "format", "", i18n.T("create: the format, e.g. swiss:rounds=3,points=3-2-1-0 (instead of --rounds)"))
	fs.StringVar(&t.title, "title", "tournament", i18n.T("create: the tournament's name"))
	fs.IntVar(&t.bots, "bots", 0, i18n.T("bot players to add in this process"))
	fs.StringVar(&t.id, "id", "", i18n.T("join: the tournament id (64 hex digits; default: the first one heard)"))
	fs.StringVar(&t.codeFlag, "code", "", i18n.T("join: the tournament of this invite code (- reads it from standard input)"))
	fs.BoolVar(&t.openReg, "open", false, i18n.T("create: open registration, no invite code: the first players to register take the places (a LAN party)"))
	t.register(fs)
	fs.StringVar(&t.dir, "dir", "tournament", i18n.T("the tournament folder: records and transcripts"))
	fs.StringVar(&t.name, "name", "", i18n.T("display name (default: the profile's, else bot-<id>)"))
	fs.Func("player", i18n.T("deprecated: --name"), func(v string) error {
		fmt.Fprint(stderr, i18n.T("okey: tournament: --player is deprecated: use --name, as okey play and okey bot do\n"))
		t.name = v
		return nil
	})
	fs.StringVar(&t.level, "level", "", i18n.T("how well this command's bot seats play: %s (instead of --strategy; every level plays b101 at Okey 101)", strings.Join(bot.LevelNames(), ", ")))
	fs.StringVar(&t.strategy, "strategy", "greedy", i18n.T("move strategy of this command's bot seats: %s (Okey 101: %s only, which greedy means there)", strings.Join(bot.AllNames(), ", "), bot.Name101))
	fs.BoolVar(&t.botSeat, "bot", false, i18n.T("play this command's own seat with the bot strategy (--strategy), not at the terminal"))
	fs.BoolVar(&t.noMouse, "no-mouse", false, i18n.T("no mouse input at the table screen"))
	fs.DurationVar(&t.withhold, "withhold", 2*time.Minute, i18n.T("wait for a silent seat before ending the match unfinished (silence names no one)"))
	fs.DurationVar(&t.drawWait, "draw-wait", 2*time.Minute, i18n.T("create: wait this long for a draw's commitments and reveals, then draw again without the players that did not answer"))
	fs.DurationVar(&t.moveWait, "move-wait", 10*time.Minute, i18n.T("wait this long for a player's move (a person may be thinking) before ending the match unfinished"))
	fs.DurationVar(&t.wait, "wait", 0, i18n.T("give up when the tournament has not ended after this long (0: wait for ever)"))
	fs.DurationVar(&t.linger, "linger", 30*time.Second, i18n.T("stay this long after the end to serve records and transcripts to the others"))
	if t.sub == "" {
		fs.Usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return nil, 0
		}
		return nil, 2
	}
	if err := fs.Parse(args); err != nil {
		return nil, 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "okey: %s\n", i18n.T("tournament: takes no arguments, got %q", fs.Arg(0)))
		return nil, 2
	}
	fs.Visit(func(f *flag.Flag) { t.strategyGiven = t.strategyGiven || f.Name == "strategy" })
	return t, -1
}

// check checks the flags that parsed (reading a code from stdin for --code
// -) and returns the usage message of the first bad one ("" when all are
// good).
func (t *tourArgs) check(stdin io.Reader) string {
	if t.sub == "create" {
		if msg := t.checkCreate(); msg != "" {
			return msg
		}
	}
	if t.name != "" {
		if err := tournament.CheckName(t.name); err != nil {
			return i18n.T("--name: %v", ui.Plain(err))
		}
	}
	switch {
	case t.sub == "create" && t.codeFlag != "":
		return i18n.T("--code is join's: create prints the tournament's code")
	case t.sub == "join" && t.openReg:
		return i18n.T("--open is create's: the creator decides who registers")
	case t.codeFlag != "" && t.id != "":
		return i18n.T("--code excludes --id: the code names the tournament")
	}
	if t.codeFlag != "" {
		c, _, msg := parseCodeFlag(t.codeFlag, stdin)
		if msg != "" {
			return msg
		}
		iv, err := participant.InvitationFromCode(c)
		if err != nil {
			return i18n.T("--code: %v", ui.Plain(err))
		}
		t.code, t.entry.Invitation = &c, &iv
		t.id = hex.EncodeToString(iv.Tournament[:])
	}
	if t.id != "" {
		b, err := hex.DecodeString(t.id)
		if err != nil || len(b) != 32 {
			return i18n.T("--id: want 64 hexadecimal digits")
		}
		copy(t.entry.ID[:], b)
	}
	if t.bots < 0 || t.bots > tournament.MaxPlayers {
		return i18n.T("--bots: want 0 to %d", tournament.MaxPlayers)
	}
	if err := t.checkStrategy(); err != nil {
		return i18n.T("--strategy: %v", ui.Plain(err))
	}
	return t.defaultData()
}

// checkCreate checks create's tournament: its format, ruleset, size and
// name.
func (t *tourArgs) checkCreate() string {
	ftext := t.format
	if ftext == "" {
		ftext = fmt.Sprintf("swiss:rounds=%d", t.rounds)
	}
	f, err := tournament.ParseFormat(ftext)
	if err != nil {
		return i18n.T("--format: %v", ui.Plain(err))
	}
	rs, err := engine.ParseRuleset(t.preset)
	if err != nil {
		return i18n.T("--preset: %v", ui.Plain(err))
	}
	if _, err := tournament.CheckSetup(f.String(), rs.String(), t.players); err != nil {
		return i18n.T("tournament: %v", ui.Plain(err))
	}
	if err := tournament.CheckName(t.title); err != nil {
		return i18n.T("--title: %v", ui.Plain(err))
	}
	t.create = &participant.Create{Name: t.title, Format: f.String(), Ruleset: rs.String(), Players: t.players}
	t.is101 = rs.Preset == engine.Preset101
	return ""
}

// checkStrategy checks the strategy of the bot seats (--bot, --bots):
// refused at once when it cannot play the ruleset created; a joiner learns
// the ruleset from the announcement and stops there, before it registers.
func (t *tourArgs) checkStrategy() error {
	if t.level == "" {
		err := bot.KnownStrategy(t.strategy)
		if err == nil && t.create != nil && (t.botSeat || t.bots > 0) {
			err = bot.CheckStrategy(t.strategy, t.is101)
		}
		return err
	}
	// A level plays its strategy, and b101 at Okey 101.
	if t.strategyGiven {
		return fmt.Errorf("give a level or a strategy, not both")
	}
	s, err := bot.StrategyFor(t.level)
	if err != nil {
		return err
	}
	t.strategy = s
	if t.is101 {
		t.strategy = "greedy" // which means b101 there
	}
	return nil
}

func runTournament(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	t, st := parseTourArgs(args, stderr)
	if st >= 0 {
		return st
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "okey: %s\n", msg)
		return 2
	}
	if msg := t.check(stdin); msg != "" {
		return usageErr(msg)
	}
	if !t.botSeat && t.logFile == "" {
		// The table screen owns the terminal: the log goes to the data
		// directory.
		if err := os.MkdirAll(t.data, 0o700); err != nil {
			return usageErr(i18n.T("--data: %v", ui.Plain(err)))
		}
		t.logFile = filepath.Join(t.data, "tournament.log")
	}
	log, closeLog, err := t.openLog(stderr, t.logFile)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, leave := context.WithCancel(ctx)
	defer leave()
	if t.wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.wait)
		defer cancel()
	}
	failed := func(err error) int {
		var ce *netplay.CodeError
		if errors.As(err, &ce) {
			fmt.Fprint(stderr, i18n.T("okey: tournament: no invite code: %s\n", ui.Plain(ce.Err)))
			return 2
		}
		fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
		return 2
	}
	seats, err := t.openSeats(ctx, log, stdout)
	defer func() {
		for _, s := range seats {
			s.Close()
		}
	}()
	if err != nil {
		return failed(err)
	}
	var person *tournamentPerson
	if !t.botSeat {
		person = &tournamentPerson{screens: ui.NewScreens(stdout), opts: ui.Options{NoMouse: t.noMouse}, dir: t.dir, screen: tournamentScreen}
	}
	var ps []*participant.Participant
	for i, s := range seats {
		p, err := t.participant(ctx, i, s, person, stdout)
		if err != nil {
			return failed(err)
		}
		ps = append(ps, p)
	}
	run := netplay.RunParticipants(ctx, ps, func(i int, err error) bool {
		var se *participant.StrategyError
		// The player left, or a bot cannot play: every seat of this process stops.
		return (i == 0 && errors.Is(err, participant.ErrLeft)) || errors.As(err, &se)
	}, leave)
	if person != nil && !person.run(ctx, run.Over(), stderr) {
		leave()
		run.Wait()
		return 2
	}
	reps, errs := run.Wait()
	return t.ended(seats, reps, errs, stdout, stderr)
}

// openSeats opens this command's own seat and its bots' (the seat's
// admission first, when it creates the tournament: its code printed).
func (t *tourArgs) openSeats(ctx context.Context, log *slog.Logger, stdout io.Writer) ([]*netplay.TournamentSeat, error) {
	t.entry.Create, t.entry.Open, t.entry.Log = t.create, t.openReg, log
	t.entry.Withhold, t.entry.MoveWithhold, t.entry.DrawWait, t.entry.Linger = t.withhold, t.moveWait, t.drawWait, t.linger
	o := netplay.Options{Data: t.data, Name: t.name, Listen: t.listen, NoMDNS: t.noMDNS, Peers: t.peers, Log: log}
	me, err := netplay.OpenTournamentSeat(ctx, tournamentOpen, o, t.dir)
	if err != nil {
		return nil, err
	}
	seats := []*netplay.TournamentSeat{me}
	if t.create != nil {
		code, err := t.entry.Admit(me)
		switch {
		case err != nil:
			return seats, err
		case code == "":
			fmt.Fprintln(stdout, i18n.T("open registration: the first players on the LAN to register take the places"))
		default:
			// The code holds the tournament's secret: stdout only, never the log.
			fmt.Fprintln(stdout, invitePrefix+code)
			fmt.Fprintln(stdout, i18n.T("only players with this code get a place: okey tournament join --code - (paste the code)"))
		}
	}
	if t.code != nil {
		if err := me.Client.ReachCreator(ctx, *t.code); err != nil {
			log.Warn("the code's creator is not reachable at its addresses: waiting for discovery", "err", err)
		}
	}
	return netplay.OpenTournamentBots(ctx, tournamentOpen, o, t.dir, t.bots, seats)
}

// participant is seat i's participant: the person's at the terminal, or
// a bot's.
func (t *tourArgs) participant(ctx context.Context, i int, s *netplay.TournamentSeat, person *tournamentPerson, stdout io.Writer) (*participant.Participant, error) {
	c, err := t.entry.Config(ctx, i, s)
	if err != nil {
		return nil, err
	}
	if i > 0 || person == nil {
		if t.level != "" {
			participant.LevelSeat(&c, t.strategy)
		} else {
			participant.StrategySeat(&c, t.strategy)
		}
	}
	if i == 0 {
		c.OnRound = func(rep *tournament.Report, round int) {
			if person != nil {
				person.screens.Print(func(w io.Writer) { folder.PrintRound(w, rep, round) })
				return
			}
			folder.PrintRound(stdout, rep, round)
		}
		if person != nil {
			person.chat = clientTourChat(ctx, s.Client)
			c.Sit = person.sit
		}
	}
	p, err := participant.New(c)
	if err != nil {
		return nil, err
	}
	switch {
	case i == 0 && p.Resumed():
		fmt.Fprint(stdout, i18n.T("tournament resumed from %s\n", s.Dir))
	case i == 0 && t.create != nil:
		fmt.Fprint(stdout, i18n.T("tournament %q announced: %d players, %s, %s\n", t.create.Name, t.create.Players, t.create.Format, t.create.Ruleset))
	}
	return p, nil
}

// ended says how the tournament ended for this process and returns the
// command's exit status: verify's on the folder when it ended.
func (t *tourArgs) ended(seats []*netplay.TournamentSeat, reps []*tournament.Report, errs []error, stdout, stderr io.Writer) int {
	for _, err := range errs {
		var se *participant.StrategyError
		if errors.As(err, &se) {
			fmt.Fprintf(stderr, "okey: %s\n", i18n.T("--strategy: %v", ui.Plain(se)))
			return 2
		}
	}
	if errors.Is(errs[0], participant.ErrLeft) {
		fmt.Fprintln(stderr, i18n.T("okey: left the tournament: run the same command again (the same --dir and --data) to resume"))
		return 3
	}
	for i, err := range errs {
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s: %s\n", seats[i].Name, ui.Plain(err)))
		}
	}
	if errs[0] != nil || reps[0] == nil {
		return 3
	}
	// The final word is the folder's, checked from the files as okey verify
	// does.
	fmt.Fprintln(stdout)
	return folder.Verify(seats[0].Dir, false, stdout)
}

// tournamentOpen opens each seat's LAN client (a test's hook).
var tournamentOpen = netplay.Open

// tournamentScreen, when set (tests), gives each table screen of the
// person's seat its screen instead of the terminal.
var tournamentScreen func() tcell.Screen

// tournamentPerson seats the person at the terminal: each round's match
// gets a table screen, shown on the command's main goroutine
// (ui.Screens); what the command prints between rounds waits while a
// screen is up.
type tournamentPerson struct {
	screens *ui.Screens
	opts    ui.Options
	screen  func() tcell.Screen
	dir     string
	chat    tourChat // the tables' chat (nil: none)
}

// sit is the participant's Config.Sit: a table screen for the seat, handed
// to the main goroutine, which shows it.
func (tp *tournamentPerson) sit(ref tournament.Ref, cfg table.Config, seat int) participant.Sitting {
	opts := tp.opts
	if tp.screen != nil {
		opts.Screen = tp.screen()
	}
	g := ui.NewGame(seat, opts)
	g.SetLeaveNote(i18n.Mark("okey tournament resumes it when run again with the same --dir and --data."))
	g.SetContext(i18n.T("tournament round %d, table %d", ref.Round, ref.Table+1))
	g.Say(i18n.T("tournament round %d, table %d: the match begins", ref.Round, ref.Table+1))
	path := filepath.Join(tp.dir, participant.TranscriptName(ref))
	tp.screens.Show(g)
	return participant.Sitting{Mover: g, OnStep: g.OnStep, Left: g.Done(), Chat: sittingChat(tp.chat, tp.dir, ref, g),
		Done: func(t *table.Transcript, err error) {
			if t == nil {
				return
			}
			g.Finish(ui.EndOf(path, table.Verify(t), nil))
		}}
}

// run shows each table screen in turn until the participants are over; false
// when there is no terminal to show one on.
func (tp *tournamentPerson) run(ctx context.Context, over <-chan struct{}, stderr io.Writer) bool {
	if err := tp.screens.Run(ctx, over); err != nil {
		fmt.Fprint(stderr, i18n.T("okey: no terminal to play at: %s (--bot plays this seat with a bot)\n", ui.Plain(err)))
		return false
	}
	return true
}
