package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
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

const tournamentUsage = `usage: okey tournament create --players N [--rounds R] [--preset P] [--format F]
                               [--title T] [--name NAME] [--bots K] [--open] [flags]
       okey tournament join --code CODE|- [flags]
       okey tournament join [--id ID] [flags]

A Swiss tournament (docs/rules.md "Tournaments", protocol.md 9). create
announces it on the LAN's tournament topic and prints its invite code
("invite: okey1..."): only players with the code get a place (the bots of
--bots are given it). --open makes a LAN party instead: the first players to
register take the places, whoever they are, and no code is printed. join
--code registers with this peer's persistent identity in the code's
tournament (--code - reads the code from standard input: on the command line
a code is visible to the other users of the machine); join without a code
registers in the first tournament heard, or --id, and only an open
tournament puts such a player on its roster. A code tournament does not
reach beyond the LAN: the code's addresses are dialled (so that it works
where multicast is blocked), but there is no relay.

When the players are in, each round's seats are drawn by commit-reveal among
the players, the tables form by themselves and play, and the standings after
each round are printed. At the end every participant fetches the transcripts
it lacks, checks everything as okey verify does, and prints the final
standings. The folder (--dir) then holds the records and every transcript:
okey verify FOLDER prints the same. Run the command again with the same
--dir and --data to resume after a crash or a kill: the records and
transcripts come from the folder, this peer's draw openings (secret until
revealed) and table state from its data directory.

This command's own seat is played at the terminal: each round's match opens
the table screen, and the standings show between rounds (leaving a table
stops this participant; run the same command again to resume). --bot plays
it with a bot strategy (--strategy) instead; --bots K adds K bot players in
this process, each with its own identity under DIR/bots, listening on the
interfaces of --listen at random ports of their own (a fixed --listen port
is this command's own seat's: a --peer naming it reaches that seat). At Okey
101 the bots play b101 (greedy, the default, means it there; --strategy b101
too); another strategy cannot play 101: create refuses it at once, join as
soon as it hears the announcement, before it registers (exit status 2).

--name is this peer's display name on the roster, as in okey play and okey
bot (--player, its old name, still works and says it is deprecated); --title
is the tournament's name, given by create.

Exit status: as okey verify on the folder (0 honest and complete, 1 a seat
named on signed proof, 2 damaged, 3 unfinished or a match missing); 2 for bad
usage.
`

func runTournament(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sub := ""
	if len(args) > 0 && (args[0] == "create" || args[0] == "join") {
		sub, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("tournament "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, i18n.T(tournamentUsage)); printLevels(stderr); printDefaults(fs) }
	players := fs.Int("players", 8, i18n.T("create: the number of players (3 to 64, not 5)"))
	rounds := fs.Int("rounds", 3, i18n.T("create: the number of Swiss rounds (1 to 15)"))
	preset := fs.String("preset", "classic:points=2", i18n.T("create: the ruleset of every match: preset[:options] (a short match by default)"))
	format := fs.String("format", "", i18n.T("create: the format, e.g. swiss:rounds=3,points=3-2-1-0 (instead of --rounds)"))
	tname := fs.String("title", "tournament", i18n.T("create: the tournament's name"))
	bots := fs.Int("bots", 0, i18n.T("bot players to add in this process"))
	id := fs.String("id", "", i18n.T("join: the tournament id (64 hex digits; default: the first one heard)"))
	codeFlag := fs.String("code", "", i18n.T("join: the tournament of this invite code (- reads it from standard input)"))
	openReg := fs.Bool("open", false, i18n.T("create: open registration, no invite code: the first players to register take the places (a LAN party)"))
	dir := fs.String("dir", "tournament", i18n.T("the tournament folder: records and transcripts"))
	data := fs.String("data", "", i18n.T("data directory: identity, profile, match state (default: the user's config directory)"))
	pname := fs.String("name", "", i18n.T("display name (default: the profile's, else bot-<id>)"))
	fs.Func("player", i18n.T("deprecated: --name"), func(v string) error {
		fmt.Fprint(stderr, i18n.T("okey: tournament: --player is deprecated: use --name, as okey play and okey bot do\n"))
		*pname = v
		return nil
	})
	level := fs.String("level", "", i18n.T("how well this command's bot seats play: %s (instead of --strategy; every level plays b101 at Okey 101)", strings.Join(bot.LevelNames(), ", ")))
	strategy := fs.String("strategy", "greedy", i18n.T("move strategy of this command's bot seats: %s (Okey 101: %s only, which greedy means there)", strategyNames(), bot.Name101))
	botSeat := fs.Bool("bot", false, i18n.T("play this command's own seat with the bot strategy (--strategy), not at the terminal"))
	noMouse := fs.Bool("no-mouse", false, i18n.T("no mouse input at the table screen"))
	var listen, peers stringList
	fs.Var(&listen, "listen", i18n.T("multiaddr to listen on (repeatable; default every interface, TCP and QUIC, random ports)"))
	fs.Var(&peers, "peer", i18n.T("multiaddr of a peer to dial, ending in /p2p/<id> (repeatable)"))
	noMDNS := fs.Bool("no-mdns", false, i18n.T("no mDNS discovery (use --peer)"))
	withhold := fs.Duration("withhold", 2*time.Minute, i18n.T("wait for a silent seat before ending the match unfinished (silence names no one)"))
	drawWait := fs.Duration("draw-wait", 2*time.Minute, i18n.T("create: wait this long for a draw's commitments and reveals, then draw again without the players that did not answer"))
	moveWait := fs.Duration("move-wait", 10*time.Minute, i18n.T("wait this long for a player's move (a person may be thinking) before ending the match unfinished"))
	wait := fs.Duration("wait", 0, i18n.T("give up when the tournament has not ended after this long (0: wait for ever)"))
	linger := fs.Duration("linger", 30*time.Second, i18n.T("stay this long after the end to serve records and transcripts to the others"))
	verbose := fs.Bool("v", false, i18n.T("log protocol detail"))
	logFile := fs.String("log", "", i18n.T("write logs to this file instead of stderr"))
	if sub == "" {
		fs.Usage()
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return 0
		}
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprintf(stderr, "okey: %s\n", msg)
		return 2
	}
	if fs.NArg() > 0 {
		return usageErr(i18n.T("tournament: takes no arguments, got %q", fs.Arg(0)))
	}
	var create *participant.Create
	is101 := false // the ruleset's, when this command creates the tournament
	if sub == "create" {
		ftext := *format
		if ftext == "" {
			ftext = fmt.Sprintf("swiss:rounds=%d", *rounds)
		}
		f, err := tournament.ParseFormat(ftext)
		if err != nil {
			return usageErr(i18n.T("--format: %v", ui.Plain(err)))
		}
		rs, err := engine.ParseRuleset(*preset)
		if err != nil {
			return usageErr(i18n.T("--preset: %v", ui.Plain(err)))
		}
		if _, err := tournament.CheckSetup(f.String(), rs.String(), *players); err != nil {
			return usageErr(i18n.T("tournament: %v", ui.Plain(err)))
		}
		if err := tournament.CheckName(*tname); err != nil {
			return usageErr(i18n.T("--title: %v", ui.Plain(err)))
		}
		create = &participant.Create{Name: *tname, Format: f.String(), Ruleset: rs.String(), Players: *players}
		is101 = rs.Preset == engine.Preset101
	}
	if *pname != "" {
		if err := tournament.CheckName(*pname); err != nil {
			return usageErr(i18n.T("--name: %v", ui.Plain(err)))
		}
	}
	switch {
	case sub == "create" && *codeFlag != "":
		return usageErr(i18n.T("--code is join's: create prints the tournament's code"))
	case sub == "join" && *openReg:
		return usageErr(i18n.T("--open is create's: the creator decides who registers"))
	case *codeFlag != "" && *id != "":
		return usageErr(i18n.T("--code excludes --id: the code names the tournament"))
	}
	var code *invite.Code
	var joinCode *participant.Invitation
	if *codeFlag != "" {
		c, msg := parseCodeFlag(*codeFlag, stdin)
		if msg != "" {
			return usageErr(msg)
		}
		iv, err := participant.InvitationFromCode(c)
		if err != nil {
			return usageErr(i18n.T("--code: %v", ui.Plain(err)))
		}
		code, joinCode = &c, &iv
		*id = hex.EncodeToString(iv.Tournament[:])
	}
	var tid [32]byte
	if *id != "" {
		b, err := hex.DecodeString(*id)
		if err != nil || len(b) != 32 {
			return usageErr(i18n.T("--id: want 64 hexadecimal digits"))
		}
		copy(tid[:], b)
	}
	if *bots < 0 || *bots > tournament.MaxPlayers {
		return usageErr(i18n.T("--bots: want 0 to %d", tournament.MaxPlayers))
	}
	// The strategy plays the bot seats (--bot, --bots): refused at once
	// when it cannot play the ruleset created; a joiner learns the ruleset
	// from the announcement and stops there, before it registers.
	var strategyErr error
	if *level != "" {
		// A level plays its strategy, and b101 at Okey 101.
		strategyGiven := false
		fs.Visit(func(f *flag.Flag) { strategyGiven = strategyGiven || f.Name == "strategy" })
		if strategyGiven {
			strategyErr = fmt.Errorf("give a level or a strategy, not both")
		} else if *strategy, strategyErr = bot.StrategyFor(*level); strategyErr == nil && is101 {
			*strategy = "greedy" // which means b101 there
		}
	} else if strategyErr = knownStrategy(*strategy); strategyErr == nil && create != nil && (*botSeat || *bots > 0) {
		strategyErr = checkStrategy(*strategy, is101)
	}
	if strategyErr != nil {
		return usageErr(i18n.T("--strategy: %v", ui.Plain(strategyErr)))
	}
	if *data == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil {
			return usageErr(i18n.T("%v (use --data)", ui.Plain(err)))
		}
		*data = d
	}
	if !*botSeat && *logFile == "" {
		// The table screen owns the terminal: the log goes to the data
		// directory.
		if err := os.MkdirAll(*data, 0o700); err != nil {
			return usageErr(i18n.T("--data: %v", ui.Plain(err)))
		}
		*logFile = filepath.Join(*data, "tournament.log")
	}
	h, closeLog, err := netplay.CommandLog(stderr, *logFile, *verbose)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()
	log := netplay.NetworkLog(h, *verbose)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, leave := context.WithCancel(ctx)
	defer leave()
	var person *tournamentPerson
	if !*botSeat {
		person = &tournamentPerson{games: make(chan *ui.Game), opts: ui.Options{NoMouse: *noMouse}, dir: *dir, stdout: stdout}
		if tournamentScreen != nil {
			person.screen = tournamentScreen
		}
	}
	if *wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *wait)
		defer cancel()
	}
	type seat struct {
		c    *netplay.Client
		tn   *p2p.TournamentNet
		dir  string
		data string
		name string
	}
	open := func(data, name, dir string, listen, extra []string) (*seat, error) {
		c, err := tournamentOpen(ctx, netplay.Options{Data: data, Name: name, Listen: listen, NoMDNS: *noMDNS, Peers: append(append([]string(nil), peers...), extra...), Log: log})
		if err != nil {
			return nil, err
		}
		tn, err := c.Node().JoinTournaments()
		if err != nil {
			c.Close()
			return nil, err
		}
		return &seat{c: c, tn: tn, dir: dir, data: data, name: name}, nil
	}
	var seats []*seat
	defer func() {
		for _, s := range seats {
			s.tn.Close()
			s.c.Close()
		}
	}()
	me, err := open(*data, *pname, *dir, listen, nil)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
		return 2
	}
	seats = append(seats, me)
	meKey, err := me.c.SigningKey()
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
		return 2
	}
	meNet := netplay.TournamentNet(me.tn)
	var admission *participant.Admission
	if create != nil {
		// The tournament's id before it is announced: the code names it,
		// and the bots of this process join it, not the first one heard.
		state := filepath.Join(*data, "tournaments")
		ftid, resumed := folderTournament(*dir)
		if !resumed {
			if _, err := rand.Read(create.Nonce[:]); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
				return 2
			}
			if ftid, err = participant.AnnouncementID(meKey, *create); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
				return 2
			}
		}
		tid = ftid
		admission, joinCode, err = creatorAdmission(state, ftid, resumed, *openReg, meKey, meNet)
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
			return 2
		}
		if admission != nil {
			text, err := tournamentCode(me.c.Node(), ftid, joinCode.Secret)
			if err != nil {
				fmt.Fprint(stderr, i18n.T("okey: tournament: no invite code: %s\n", ui.Plain(err)))
				return 2
			}
			// The code holds the tournament's secret: stdout only, never the log.
			fmt.Fprintln(stdout, invitePrefix+text)
			fmt.Fprintln(stdout, i18n.T("only players with this code get a place: okey tournament join --code - (paste the code)"))
		} else {
			fmt.Fprintln(stdout, i18n.T("open registration: the first players on the LAN to register take the places"))
		}
	}
	if code != nil {
		if err := reachCreator(ctx, me.c.Node(), *code); err != nil {
			log.Warn("the code's creator is not reachable at its addresses: waiting for discovery", "err", err)
		}
	}
	for i := 0; i < *bots; i++ {
		name := fmt.Sprintf("%s-bot%d", cutTo(me.c.Name(), 20), i+1)
		// The bots in this process dial the seats opened before them (as
		// --peer), so that they meet without discovery too.
		var known []string
		for _, o := range seats {
			known = append(known, o.c.Addrs()...)
		}
		// They listen where --listen says at ports of their own: a fixed
		// port is this command's own seat's (libp2p reuses ports, so the
		// bots would all take it too, and a --peer dial naming this seat
		// would reach one of them: "peer id mismatch").
		s, err := open(filepath.Join(*dir, "bots", fmt.Sprint(i+1), "data"), name, filepath.Join(*dir, "bots", fmt.Sprint(i+1)), netplay.BotListen(listen), known)
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
			return 2
		}
		seats = append(seats, s)
	}
	var (
		wg    sync.WaitGroup
		reps  = make([]*tournament.Report, len(seats))
		errs  = make([]error, len(seats))
		outMu sync.Mutex
	)
	for i, s := range seats {
		key, err := s.c.SigningKey()
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
			return 2
		}
		n := netplay.TournamentNet(s.tn)
		if i == 0 {
			n = meNet
		}
		if joinCode != nil && (i > 0 || create == nil) {
			// A code tournament's joiner, or the creator's bots: their
			// registrations go out with the code's proof.
			if n, err = participant.WithCode(n, *joinCode); err != nil {
				fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
				return 2
			}
		}
		c := participant.Config{Dir: s.dir, State: filepath.Join(s.data, "tournaments"), Key: key, Name: cutTo(s.c.Name(), 32), PeerID: s.c.ID(),
			Net: n, Tournament: tid, Withhold: *withhold, MoveWithhold: max(*moveWait, *withhold), DrawWait: *drawWait, Linger: *linger, Log: log.With("participant", s.name),
			TableNet: func(_ tournament.Ref, cfg table.Config) (table.Transport, error) {
				return s.c.TournamentTable(ctx, cfg, 30*time.Second)
			}}
		if i > 0 || person == nil {
			if *level != "" {
				tournamentLevelBot(&c, *strategy)
			} else {
				tournamentBot(&c, *strategy)
			}
		}
		if i == 0 {
			c.Create, c.Admission = create, admission
			c.OnRound = func(rep *tournament.Report, round int) {
				outMu.Lock()
				defer outMu.Unlock()
				if person != nil {
					person.print(func(w io.Writer) { printRound(w, rep, round) })
					return
				}
				printRound(stdout, rep, round)
			}
			if person != nil {
				person.chat = clientTourChat(ctx, s.c)
				c.Sit = person.sit
			}
		}
		p, err := participant.New(c)
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s\n", ui.Plain(err)))
			return 2
		}
		switch {
		case i == 0 && p.Resumed():
			fmt.Fprint(stdout, i18n.T("tournament resumed from %s\n", s.dir))
		case i == 0 && create != nil:
			fmt.Fprint(stdout, i18n.T("tournament %q announced: %d players, %s, %s\n", create.Name, create.Players, create.Format, create.Ruleset))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reps[i], errs[i] = p.Run(ctx)
			var se *strategyError
			if (i == 0 && errors.Is(errs[i], participant.ErrLeft)) || errors.As(errs[i], &se) {
				leave() // the player left, or a bot cannot play: every seat of this process stops
			}
		}()
	}
	if person != nil {
		over := make(chan struct{})
		go func() { wg.Wait(); close(over) }()
		if !person.run(ctx, over, stderr) {
			leave()
			wg.Wait()
			return 2
		}
	}
	wg.Wait()
	for _, err := range errs {
		var se *strategyError
		if errors.As(err, &se) {
			return usageErr(i18n.T("--strategy: %v", ui.Plain(se)))
		}
	}
	if errors.Is(errs[0], participant.ErrLeft) {
		fmt.Fprintln(stderr, i18n.T("okey: left the tournament: run the same command again (the same --dir and --data) to resume"))
		return 3
	}
	for i, err := range errs {
		if err != nil {
			fmt.Fprint(stderr, i18n.T("okey: tournament: %s: %s\n", seats[i].name, ui.Plain(err)))
		}
	}
	if errs[0] != nil || reps[0] == nil {
		return 3
	}
	// The final word is the folder's, checked from the files as okey verify
	// does.
	fmt.Fprintln(stdout)
	return folder.Verify(seats[0].dir, false, stdout)
}

// tournamentOpen opens each seat's LAN client (a test's hook).
var tournamentOpen = netplay.Open

// printRound prints a round's tables and the standings after it.
func printRound(w io.Writer, rep *tournament.Report, round int) {
	one := *rep
	one.Rounds = rep.Rounds[round-1 : round]
	one.Final, one.Problems = nil, nil
	name := func(p int) string { return rep.Players[p].Name }
	rd := one.Rounds[0]
	fmt.Fprint(w, i18n.T("round %d of %d done:\n", round, rep.Format.Rounds))
	for _, tb := range rd.Tables {
		fmt.Fprint(w, i18n.T("  table %d (%x): %s\n", tb.Table+1, tb.ID[:4], folder.TableState(tb.State)))
	}
	folder.PrintStandings(w, rd.Standings, name)
}

// cutTo shortens s to at most n bytes, at a character boundary.
func cutTo(s string, n int) string {
	for len(s) > n || !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// tournamentScreen, when set (tests), gives each table screen of the
// person's seat its screen instead of the terminal.
var tournamentScreen func() tcell.Screen

// tournamentPerson seats the person at the terminal: each round's match
// gets a table screen, run on the command's main goroutine; what the
// command prints between rounds waits while a screen is up.
type tournamentPerson struct {
	games  chan *ui.Game
	opts   ui.Options
	screen func() tcell.Screen
	dir    string
	stdout io.Writer
	chat   tourChat // the tables' chat (nil: none)

	mu      sync.Mutex
	showing bool
	pending bytes.Buffer
	current *ui.Game // the last screen handed over
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
	tp.mu.Lock()
	if tp.current != nil {
		// The last round's screen is still up: its match is over (this
		// round was drawn from its standings); close it for this one.
		tp.current.Quit()
	}
	tp.current = g
	tp.mu.Unlock()
	tp.games <- g
	return participant.Sitting{Mover: g, OnStep: g.OnStep, Left: g.Done(), Chat: sittingChat(tp.chat, tp.dir, ref, g),
		Done: func(t *table.Transcript, err error) {
			if t == nil {
				return
			}
			rep := table.Verify(t)
			g.Finish(&ui.MatchEnd{Transcript: path, Verified: rep.Honest, Verdict: ui.Verdict(rep),
				Unfinished: rep.Status() == table.StatusUnfinished, Ranking: rep.Ranking})
		}}
}

// print writes what f writes to the command's output, at once when no table
// screen is up, else once it closes.
func (tp *tournamentPerson) print(f func(io.Writer)) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if tp.showing {
		f(&tp.pending)
		return
	}
	f(tp.stdout)
}

// run shows each table screen in turn until the participants are over; false
// when there is no terminal to show one on.
func (tp *tournamentPerson) run(ctx context.Context, over <-chan struct{}, stderr io.Writer) bool {
	for {
		select {
		case <-over:
			return true
		case <-ctx.Done():
			// Drain a screen handed over meanwhile, so its seat does not wait.
			select {
			case g := <-tp.games:
				g.Quit()
			case <-over:
				return true
			}
		case g := <-tp.games:
			tp.mu.Lock()
			tp.showing = true
			tp.mu.Unlock()
			go func() {
				// The participant stopped (a signal, --wait): close the screen.
				select {
				case <-ctx.Done():
					g.Quit()
				case <-g.Done():
				}
			}()
			err := g.Run()
			tp.mu.Lock()
			tp.showing = false
			tp.stdout.Write(tp.pending.Bytes())
			tp.pending.Reset()
			tp.mu.Unlock()
			if err != nil {
				fmt.Fprint(stderr, i18n.T("okey: no terminal to play at: %s (--bot plays this seat with a bot)\n", ui.Plain(err)))
				return false
			}
		}
	}
}
