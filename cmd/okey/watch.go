package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/netplay"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

func init() {
	register(command{name: "watch", summary: i18n.Mark("watch a table (LAN or invite code) live, keep its transcript"), run: runWatch})
}

func runWatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, helpText("watch")); printDefaults(fs) }
	codeFlag := fs.String("code", "", i18n.T("watch the private table of this invite code (- reads it from standard input)"))
	noUI := fs.Bool("no-ui", false, i18n.T("no screen: follow the table and print its result (for scripts)"))
	webFlag := fs.Bool("web", false, i18n.T("watch in your web browser, served by this process at http://127.0.0.1"))
	noOpen := fs.Bool("no-open", false, i18n.T("with --web: print the table's address, do not open the browser"))
	out := fs.String("out", "", i18n.T("directory for the transcript (default: the match's folder in the data directory)"))
	wait := fs.Duration("wait", time.Minute, i18n.T("give up when the table is not seen started after this long"))
	withhold := fs.Duration("withhold", 10*time.Minute, i18n.T("stop when the table makes no progress for this long (silence names no one)"))
	var n netFlags
	n.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usageErr := func(msg string) int {
		fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", msg))
		return 2
	}
	if fs.NArg() > 1 {
		return usageErr(i18n.T("takes at most one table, got %q", fs.Arg(1)))
	}
	id := fs.Arg(0)
	if id != "" {
		if err := p2p.ValidTableID(id); err != nil {
			return usageErr(ui.Plain(err))
		}
	}
	var code *invite.Code
	if *codeFlag != "" {
		c, _, msg := parseCodeFlag(*codeFlag, stdin)
		if msg != "" {
			return usageErr(msg)
		}
		if id != "" && id != c.Table {
			return usageErr(i18n.T("the code is for table %s, not %s", c.Table, id))
		}
		code, id = &c, c.Table
	}
	if msg := checkWatchFlags(*wait, *withhold, &n, *out); msg != "" {
		return usageErr(msg)
	}
	logPath := n.logFile
	if !*noUI && logPath == "" {
		logPath = os.DevNull // the screen owns the terminal
	}
	log, closeLog, err := n.openLog(stderr, logPath)
	if err != nil {
		return usageErr(i18n.T("--log: %v", ui.Plain(err)))
	}
	defer closeLog()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := netplay.Open(ctx, netplay.Options{Data: n.data, NoMDNS: n.noMDNS, Peers: n.peers, Listen: n.listen, Log: log, Reach: true})
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", ui.Plain(err)))
		return 2
	}
	defer c.Close()
	if code != nil {
		// Beyond the LAN: reach the creator from the code, for its lobby's
		// announcement of the started table.
		dctx, cancel := context.WithTimeout(ctx, *wait)
		if _, err := c.Node().DialCode(dctx, *code); err != nil {
			log.Info("creator not reached yet", "err", err)
		}
		cancel()
	}
	if held, err := c.Watched(id); err != nil || held != nil {
		// Watched to its end before (the table may have left the lobby
		// since): the transcript held gives the status.
		return watchedBefore(stdout, stderr, held, err)
	}
	a, err := c.FindWatchTable(ctx, id, *wait)
	if err != nil {
		if ctx.Err() != nil {
			return int(table.StatusUnfinished)
		}
		fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", noWatchTable(err)))
		return exitCannotForm
	}
	if id == "" {
		// A bare okey watch says which table it took, and how to pick
		// another (issue 37, 8).
		fmt.Fprint(stderr, i18n.T("okey: watch: watching table %s (%s: %s); okey watch TABLE picks another\n",
			a.Table, ui.RulesetName(watchRuleset(a)), strings.Join(memberNames(a), ", ")))
	}
	opt := netplay.WatchOptions{Out: *out, Withhold: *withhold, Code: code}
	if *noUI {
		o, err := c.Watch(ctx, a, opt)
		return watchEnded(stdout, stderr, a, o, err, n.data)
	}
	for {
		at := watchAt
		if *webFlag {
			at = webWatchAt(*noOpen, stdout, stderr)
		}
		next, status := watchScreen(ctx, stdout, stderr, c, a, opt, n.data, at)
		if next == "" {
			return status
		}
		// w at the screen chose another table (issue 37, 8): the one left
		// stays resumable in --data; the code, if any, was this table's.
		b, ok := c.Lobby().Table(next)
		if !ok || b.State != lobby.StateStarted {
			fmt.Fprint(stderr, i18n.T("okey: watch: table %s is no longer announced\n", next))
			return status
		}
		a, opt.Code = b, nil
		fmt.Fprint(stderr, i18n.T("okey: watch: watching table %s (%s: %s)\n", a.Table, ui.RulesetName(watchRuleset(a)), strings.Join(memberNames(a), ", ")))
	}
}

// checkWatchFlags checks okey watch's flags, making the --out directory
// and filling in the default data directory; the usage message of the
// first bad one ("" when all are good).
func checkWatchFlags(wait, withhold time.Duration, n *netFlags, out string) string {
	if wait <= 0 {
		return i18n.T("--wait must be positive")
	}
	if withhold < time.Second {
		return i18n.T("--withhold must be at least 1s")
	}
	if msg := n.checkAddrs(); msg != "" {
		return msg
	}
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return i18n.T("--out: %v", ui.Plain(err))
		}
	}
	return n.defaultData()
}

// memberNames is the names of a table's members, in seat order.
func memberNames(a lobby.Announcement) []string {
	names := make([]string, len(a.Members))
	for i, m := range a.Members {
		names[i] = m.Name
	}
	return names
}

// watchRuleset is a table's ruleset string (its preset when it does not
// parse).
func watchRuleset(a lobby.Announcement) string {
	if r, err := netplay.Ruleset(a); err == nil {
		return r.String()
	}
	return a.Preset
}

// watchScreen watches table a on the spectator's screen until the player
// leaves it (its status) or chooses another table with w (its id, the left
// table's status printed).
func watchScreen(ctx context.Context, stdout, stderr io.Writer, c *netplay.Client, a lobby.Announcement, opt netplay.WatchOptions, data string, at watchFront) (next string, status int) {
	cfg, err := netplay.TableConfig(a)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", ui.Plain(err)))
		return "", 2
	}
	updates := make(chan ui.WatchUpdate, 1024)
	ended := make(chan ui.WatchEnd, 1)
	var feed ui.WatchFeed
	opt.OnStep = func(m *table.Machine) {
		u := feed.Step(m)
		select {
		case updates <- u:
		case <-ctx.Done():
		}
	}
	opt.OnChat = func(l netplay.ChatLine) {
		cl := ui.ChatLine(l)
		select {
		case updates <- ui.WatchUpdate{Chat: &cl}:
		case <-ctx.Done():
		}
	}
	wctx, leave := context.WithCancel(ctx)
	defer leave()
	res := c.StartWatch(wctx, a, opt, func(o *netplay.Outcome, err error) {
		if e, ok := watchEnd(o, err, wctx.Err() != nil); ok {
			ended <- e
		}
	})
	next, err = at(memberNames(a), cfg.Ruleset, ui.Options{}, updates, ended, func() []ui.WatchTable { return watchTables(c, a.Table) })
	if err != nil {
		leave()
		<-res
		fmt.Fprint(stderr, i18n.T("okey: no terminal to watch at: %s\n", ui.Plain(err)))
		return "", 2
	}
	leave() // q or w: the spectator leaves (its folder resumes it)
	r := <-res
	return next, watchEnded(stdout, stderr, a, r.Outcome, r.Err, data)
}

// watchEnd is how a watch ended, for the spectator's screen: why it
// stopped, or the transcript's verdict; false when the spectator left
// (nothing to show).
func watchEnd(o *netplay.Outcome, err error, left bool) (ui.WatchEnd, bool) {
	switch {
	case err != nil && !left:
		return ui.WatchEnd{Why: i18n.T("the watch stopped: %s", ui.Explain(err))}, true
	case err == nil && o.Result.Stalled != nil:
		st := o.Result.Stalled
		return ui.WatchEnd{Why: i18n.T("unfinished, honest so far: seat %d (%s) stopped answering; no one is named", st.Seat, o.Config.Seats[st.Seat].Name)}, true
	case err == nil:
		return ui.WatchEnd{Report: &o.Report}, true
	}
	return ui.WatchEnd{}, false
}

// watchTables is the list w shows at the spectator's screen: the public
// started tables of the lobby this peer does not sit at, but cur.
func watchTables(c *netplay.Client, cur string) []ui.WatchTable {
	var ts []ui.WatchTable
	for _, a := range c.WatchableTables(cur) {
		ts = append(ts, ui.WatchTable{ID: a.Table, Label: watchLabel(a)})
	}
	return ts
}

// watchLabel is a table's line in the w list: its id, ruleset and players.
func watchLabel(a lobby.Announcement) string {
	return fmt.Sprintf("%s · %s · %s", a.Table, ui.RulesetName(watchRuleset(a)), strings.Join(memberNames(a), ", "))
}

// watchAt runs the spectator's screen (tests replace it).
var watchAt = ui.RunWatch

// watchEnded prints how a watch ended and returns the exit status.
func watchEnded(stdout, stderr io.Writer, a lobby.Announcement, o *netplay.Outcome, err error, data string) int {
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprint(stderr, i18n.T("okey: watch: left table %s; run again with --data %s to resume\n", a.Table, data))
		} else {
			fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", ui.Plain(err)))
		}
		return int(table.StatusUnfinished)
	}
	return printMatch(stdout, 1, a, o)
}

// watchedBefore prints the verdict of a watch kept to its end before and
// returns its status.
func watchedBefore(stdout, stderr io.Writer, h *netplay.HeldWatch, err error) int {
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: watch: %s\n", ui.Plain(err)))
		return int(table.StatusInvalid)
	}
	rep := table.Verify(h.Transcript)
	a := h.Announcement
	head := i18n.T("match %d: table %s, %s, %d players", 1, a.Table, ui.RulesetName(h.Config.Ruleset), len(h.Config.Seats))
	fmt.Fprint(stdout, i18n.T("%s: watched to its end before: %s; transcript %s\n", head, ui.Verdict(rep), h.Path))
	return int(rep.Status())
}

// noWatchTable is FindWatchTable's error for a person.
func noWatchTable(err error) string {
	var e *netplay.NoWatchTableError
	switch {
	case !errors.As(err, &e):
		return err.Error()
	case e.ID == "":
		return i18n.T("no started table found within --wait %v", e.Wait)
	}
	return i18n.T("table %s was not seen started within --wait %v", e.ID, e.Wait)
}
