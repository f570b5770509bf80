package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// LobbyMember is a seated player as the lobby shows it.
type LobbyMember = table.LobbyMember

// LobbyTable is a table on the LAN as the lobby shows it.
type LobbyTable = table.LobbyTable

// Lobby is what the lobby screen needs from the network (cmd/okey adapts
// package lan to it; the UI never imports p2p). The methods that talk to
// other peers are called off the UI goroutine.
type Lobby interface {
	// Self is the player's name, peer id and the addresses others can
	// reach it at with --peer: reachable ones only (none: the lobby says
	// so, and what to do).
	Self() (name, id string, addrs []string)
	Tables() []LobbyTable
	// Unfinished lists the matches the player left before their end, LAN
	// tables and matches against bots (LobbyTable.Unfinished set); the
	// lobby offers to resume them. It may read the disk.
	Unfinished() []LobbyTable
	Changes() <-chan struct{}
	// Create opens a table and starts bots bots that take seats at it,
	// playing at level (easy, normal or hard).
	Create(ctx context.Context, ruleset string, players, bots int, level string) (string, error)
	Join(ctx context.Context, id string) error
	Leave(ctx context.Context, id string) error
	SetReady(ctx context.Context, id string, ready bool) error
}

// InviteLobby is what a Lobby offers for tables beyond the LAN (optional:
// the lobby screen offers private tables and join by code only when its
// Lobby has it).
type InviteLobby interface {
	// CreatePrivate is Create for a table that admits by invite code only.
	CreatePrivate(ctx context.Context, ruleset string, players, bots int, level string) (string, error)
	// CheckCode tells whether code, as pasted or typed (white space
	// dropped), is a whole invite code; its error says what is wrong. It
	// does not talk to other peers (the UI goroutine calls it).
	CheckCode(code string) error
	// JoinCode takes a seat at the table of an invite code; it returns the
	// table's id.
	JoinCode(ctx context.Context, code string) (string, error)
	// Invite is the invite code of a private table the player created and
	// that is still open ("" otherwise).
	Invite(table string) string
	// Revoke gives such a table a new code: the old one admits no one.
	Revoke(table string) error
}

// DropLobby is what a Lobby offers to drop an unfinished match (optional:
// the lobby offers x on an unfinished match only when its Lobby has it).
type DropLobby interface {
	// Drop moves the unfinished match t (LobbyTable.Unfinished) aside,
	// whole, so that it is no longer offered while its transcript still
	// verifies as unfinished. It may refuse a kind of match it cannot drop.
	Drop(t LobbyTable) error
}

// TableCloser is what a Lobby offers to close a table the player created
// (optional: without it, l on one's own table is refused as before).
type TableCloser interface {
	// CloseTable closes the open table id the player created: it is
	// announced closed, and those seated at it leave it.
	CloseTable(ctx context.Context, id string) error
	// Closed reports whether the table id was closed by its creator,
	// rather than gone from the LAN (its creator away).
	Closed(id string) bool
}

// LobbyView lists the tables on the LAN and forms one: create, join, ready,
// leave. When a table the player sits at starts, it calls start.
type LobbyView struct {
	*tview.Box
	g         *Game
	b         Lobby
	start     func(LobbyTable)
	started   map[string]bool
	tables    []LobbyTable
	unfin     []LobbyTable      // shown above the tables; the cursor runs over both
	tours     []LobbyTournament // shown between them (lobby_tournament.go)
	unfinRead bool
	timer     int // the create form's default turn timer
	cursor    int
	msg       string
	bad       bool
	busy      bool
	form      *createForm
	tform     *tourForm // the tournament form (lobby_tourform.go), while open
	code      *string   // the join-by-code box, while it is open
	relayLine *string   // the relay line box (y), while it is open
	codeMore  bool      // an enter came before the box held a whole code
	dropArm   string    // the unfinished match a first x asked to drop
	closeArm  string    // the player's own table a first l asked to close
	help      bool      // the help panel of the lobby's keys is open
	// seatedAt are the open tables of others the player sat at, as last
	// listed: one that vanishes is closed or gone, and the lobby says so.
	seatedAt map[string]LobbyTable
	pal      Palette
}

type createForm struct {
	field   int // 0 preset, 1 options, 2 players, 3 bots, 4 timer, 5 level
	preset  int
	options string
	players int
	bots    int
	timer   int // index in timerChoices
	level   int // index in levelChoices
	private bool
}

// levelChoices are the bots' levels the create form offers (bot.Levels).
var levelChoices = bot.LevelNames()

// defaultLevel is the create form's level at first: bot.DefaultLevel.
var defaultLevel = slices.Index(levelChoices, bot.DefaultLevel)

// timerChoices are the create form's turn timers in seconds (0: none).
var timerChoices = []int{0, 15, 30, 45, 60, 90, 120, 180, 300}

const formFields = 7

// maxCodeInput bounds what the join-by-code box takes.
const maxCodeInput = 400

// SetDefaultTimer sets the turn timer the create form starts with (okey
// play --timer).
func (l *LobbyView) SetDefaultTimer(secs int) {
	l.g.post(func() { l.timer = secs })
}

// NewLobbyView returns the lobby screen of g over b.
func NewLobbyView(g *Game, b Lobby, start func(LobbyTable)) *LobbyView {
	return &LobbyView{Box: tview.NewBox(), g: g, b: b, start: start, started: map[string]bool{}, pal: Palette256}
}

// Refresh reads the table list again (UI goroutine).
func (l *LobbyView) Refresh() {
	l.tables = l.b.Tables()
	if !l.unfinRead {
		// Read once: only this program ends or starts matches of its own.
		l.unfinRead = true
		for _, u := range l.b.Unfinished() {
			if !l.started[u.ID] {
				l.unfin = append(l.unfin, u)
			}
		}
		slices.SortStableFunc(l.unfin, func(a, b LobbyTable) int { return b.Started.Compare(a.Started) })
	}
	if tl, ok := l.b.(TournamentLobby); ok {
		l.tours = tl.Tournaments()
		l.noteTourEnd()
	}
	if n := l.rows(); l.cursor >= n {
		l.cursor = max(n-1, 0)
	}
	_, me, _ := l.b.Self()
	for _, t := range l.tables {
		if t.State == "started" && l.seated(t, me) && !l.started[t.ID] {
			l.started[t.ID] = true
			l.start(t)
		}
	}
	l.noteGone(me)
}

// noteGone says so when an open table of another creator the player sat
// at is no longer listed: its creator closed it, or it is gone from the
// LAN. It then remembers the open tables the player sits at now.
func (l *LobbyView) noteGone(me string) {
	now := map[string]LobbyTable{}
	for _, t := range l.tables {
		if t.State == "open" && len(t.Members) > 0 && t.Members[0].ID != me && l.seated(t, me) {
			now[t.ID] = t
		}
	}
	for id, t := range l.seatedAt {
		if slices.ContainsFunc(l.tables, func(x LobbyTable) bool { return x.ID == id }) {
			continue
		}
		if tc, ok := l.b.(TableCloser); ok && tc.Closed(id) {
			l.msg, l.bad = i18n.T("%s closed the table %s: you no longer sit at it", t.Members[0].Name, id), true
		} else {
			l.msg, l.bad = i18n.T("the table %s is gone from the LAN (its creator left): you no longer sit at it", id), true
		}
	}
	l.seatedAt = now
}

// openSeat is an open table the player sits at, if any.
func (l *LobbyView) openSeat(me string) (LobbyTable, bool) {
	for _, t := range l.tables {
		if t.State == "open" && l.seated(t, me) {
			return t, true
		}
	}
	return LobbyTable{}, false
}

func (l *LobbyView) seated(t LobbyTable, me string) bool {
	for _, m := range t.Members {
		if m.ID == me {
			return true
		}
	}
	return false
}

// watch refreshes the screen whenever the lobby changes.
func (l *LobbyView) watch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.b.Changes():
			l.g.post(l.Refresh)
		case <-l.tourChanges():
			l.g.post(l.Refresh)
		}
	}
}

// do runs a network action off the UI goroutine and reports its result.
func (l *LobbyView) do(what string, f func(ctx context.Context) error) {
	l.doSeat(what, func(ctx context.Context) (string, error) { return "", f(ctx) })
}

// doSeat is do for an action that seats the player at a table (create,
// join by code): once done, the table, whose id f returns, is selected and
// the message says how its match starts.
func (l *LobbyView) doSeat(what string, f func(ctx context.Context) (string, error)) {
	if l.busy {
		l.msg, l.bad = i18n.T("wait: the last request is still going"), true
		return
	}
	l.busy = true
	l.msg, l.bad = what+"...", false
	go func() {
		ctx, cancel := context.WithTimeout(l.g.ctx, 20*time.Second)
		id, err := f(ctx)
		cancel()
		l.g.post(func() {
			l.busy = false
			if err != nil {
				l.msg, l.bad = what+": "+Explain(err), true
			} else {
				l.msg, l.bad = i18n.T("%s: done", what), false
			}
			l.Refresh()
			if err == nil && id != "" {
				l.selectTable(id)
				l.msg = i18n.T("%s: done; everyone at the table presses r when ready, you too", what)
			}
		})
	}()
}

// selectTable moves the cursor to the LAN table id, if listed.
func (l *LobbyView) selectTable(id string) {
	for i, t := range l.tables {
		if t.ID == id {
			l.cursor = l.tabBase() + i
		}
	}
}

// myTable is the table r (ready) and l (leave) act on: the selected table
// when the player sits at it, else the one open table the player sits at,
// wherever the cursor is (on an unfinished match too). With none, or
// several and the cursor on none of them, it says why.
func (l *LobbyView) myTable() (LobbyTable, string) {
	_, me, _ := l.b.Self()
	if t, ok := l.selected(); ok && !t.Unfinished && l.seated(t, me) {
		return t, ""
	}
	var mine []LobbyTable
	for _, t := range l.tables {
		if t.State == "open" && l.seated(t, me) {
			mine = append(mine, t)
		}
	}
	switch {
	case len(mine) == 1:
		return mine[0], ""
	case len(mine) > 1:
		return LobbyTable{}, i18n.T("you sit at several tables: select the one you mean")
	}
	if t, ok := l.selected(); ok && t.Unfinished {
		return LobbyTable{}, i18n.T("an unfinished match: enter resumes it")
	}
	return LobbyTable{}, i18n.T("you sit at no table: j joins the selected one, c opens one")
}

func (l *LobbyView) selected() (LobbyTable, bool) {
	switch {
	case l.cursor < 0:
	case l.cursor < len(l.unfin):
		return l.unfin[l.cursor], true
	case l.cursor < l.tabBase():
		// A tournament (selectedTour).
	case l.cursor < l.rows():
		return l.tables[l.cursor-l.tabBase()], true
	}
	return LobbyTable{}, false
}

// resume hands an unfinished match to start.
func (l *LobbyView) resume(t LobbyTable) {
	l.started[t.ID] = true
	l.msg, l.bad = i18n.T("resuming the match..."), false
	l.unfin = slices.DeleteFunc(l.unfin, func(u LobbyTable) bool { return u.ID == t.ID })
	l.cursor = min(l.cursor, max(l.rows()-1, 0))
	l.start(t)
}

// Key handles a key press.
func (l *LobbyView) Key(ev *tcell.EventKey) {
	if l.form != nil {
		l.formKey(ev)
		return
	}
	if l.tform != nil {
		l.tourFormKey(ev)
		return
	}
	if l.code != nil {
		l.codeKey(ev)
		return
	}
	if l.relayLine != nil {
		l.relayLineKey(ev)
		return
	}
	if l.help {
		l.help = false // any key closes the help
		return
	}
	_, me, _ := l.b.Self()
	arm, carm := l.dropArm, l.closeArm
	l.dropArm, l.closeArm = "", "" // any key but a second x (l) forgets a first one
	switch {
	case ev.Rune() == '?':
		l.help = true
	case ev.Rune() == 'x':
		l.drop(arm)
	case ev.Key() == tcell.KeyUp:
		l.cursor = max(l.cursor-1, 0)
	case ev.Key() == tcell.KeyDown:
		l.cursor = min(l.cursor+1, max(l.rows()-1, 0))
	case ev.Rune() == 'c':
		if t, ok := l.openSeat(me); ok {
			l.msg, l.bad = i18n.T("you sit at the table %s: one table at a time (l leaves it, or closes your own)", t.ID), true
			return
		}
		f := &createForm{players: 4, bots: 3, level: defaultLevel}
		for i, s := range timerChoices {
			if s == l.timer {
				f.timer = i
			}
		}
		l.form = f
	case (ev.Rune() == 'j' || ev.Key() == tcell.KeyEnter) && l.onTour():
		l.joinTour()
	case ev.Rune() == 'j' || ev.Rune() == 'o' || ev.Key() == tcell.KeyEnter:
		t, ok := l.selected()
		switch {
		case !ok:
		case t.Unfinished:
			l.resume(t)
		case ev.Rune() == 'o':
			l.msg, l.bad = i18n.T("o resumes an unfinished match: j joins a table"), true
		default:
			l.doSeat(i18n.T("joining %s", t.ID), func(ctx context.Context) (string, error) { return t.ID, l.b.Join(ctx, t.ID) })
		}
	case ev.Rune() == 'r':
		t, why := l.myTable()
		if why != "" {
			l.msg, l.bad = why, true
			return
		}
		ready := true
		for _, m := range t.Members {
			if m.ID == me {
				ready = !m.Ready
			}
		}
		l.do(readyText(ready, t.ID), func(ctx context.Context) error { return l.b.SetReady(ctx, t.ID, ready) })
	case ev.Rune() == 'l':
		t, why := l.myTable()
		if why != "" {
			l.msg, l.bad = why, true
			return
		}
		if tc, ok := l.b.(TableCloser); ok && len(t.Members) > 0 && t.Members[0].ID == me {
			l.closeTable(tc, t, carm)
			return
		}
		l.do(i18n.T("leaving %s", t.ID), func(ctx context.Context) error { return l.b.Leave(ctx, t.ID) })
	case ev.Rune() == 'k':
		if _, ok := l.b.(InviteLobby); ok {
			empty := ""
			l.code, l.codeMore = &empty, false
		}
	case ev.Rune() == 'y':
		l.openRelayLine()
	case ev.Rune() == 'v':
		inv, ok := l.b.(InviteLobby)
		t, sel := l.selected()
		if !ok || !sel || t.Unfinished || inv.Invite(t.ID) == "" {
			l.msg, l.bad = i18n.T("v revokes the invite code of your own open table: select it first"), true
			return
		}
		l.do(i18n.T("revoking the invite code of %s", t.ID), func(context.Context) error { return inv.Revoke(t.ID) })
	case ev.Rune() == 'w':
		l.watchKey() // watch_lobby.go
	case ev.Rune() == 't':
		if _, ok := l.b.(TournamentCreator); ok {
			l.tform = newTourForm()
		}
	case ev.Rune() == 'q' || ev.Key() == tcell.KeyCtrlC || ev.Key() == tcell.KeyEscape:
		l.g.Quit()
	}
}

// closeTable is l on the player's own open table: a first l asks, a
// second one (armed: the table the first l was on) closes it.
func (l *LobbyView) closeTable(tc TableCloser, t LobbyTable, armed string) {
	if armed != t.ID {
		l.closeArm = t.ID
		others := len(t.Members) - 1
		l.msg, l.bad = i18n.T("l again closes your table %s: those seated with you (%d) are told; any other key keeps it", t.ID, others), true
		return
	}
	l.do(i18n.T("closing %s", t.ID), func(ctx context.Context) error { return tc.CloseTable(ctx, t.ID) })
}

// drop is x: on an unfinished match, a first x asks, a second one (armed:
// the match the first x was on) drops it.
func (l *LobbyView) drop(armed string) {
	t, ok := l.selected()
	dl, can := l.b.(DropLobby)
	switch {
	case !ok || !t.Unfinished || !can:
		l.msg, l.bad = i18n.T("x drops an unfinished match: select it first"), true
	case armed != t.ID:
		l.dropArm = t.ID
		l.msg, l.bad = i18n.T("x again drops it (moved whole to %s in the data dir; it still verifies)", DroppedDir), true
	default:
		if err := dl.Drop(t); err != nil {
			l.msg, l.bad = i18n.T("not dropped: %s", Explain(err)), true
			return
		}
		l.unfin = slices.DeleteFunc(l.unfin, func(u LobbyTable) bool { return u.ID == t.ID })
		l.cursor = min(l.cursor, max(l.rows()-1, 0))
		l.msg, l.bad = i18n.T("dropped: %s", RulesetName(t.Ruleset)+" "+t.Note), false
	}
}

// codeKey edits the join-by-code box: typed or pasted characters (white
// space dropped, so that a code copied across wrapped lines still reads),
// backspace, enter to join, esc to cancel. While the box is open every key
// is its own, never the lobby's. An enter joins only once the box holds a
// whole code: a terminal without bracketed paste sends the line breaks of
// a pasted code as enters, so an enter before that keeps the box open and
// reading (its hint says so, the message line why).
func (l *LobbyView) codeKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyEscape:
		l.code, l.codeMore = nil, false
	case tcell.KeyEnter, tcell.KeyLF:
		text := *l.code
		if text == "" {
			l.codeMore = true // a paste that starts with a line break
			return
		}
		inv := l.b.(InviteLobby)
		if err := inv.CheckCode(text); err != nil {
			l.codeMore = true
			l.msg, l.bad = i18n.T("not a whole invite code: %s", Explain(err)), true
			return
		}
		l.code, l.codeMore = nil, false
		l.doSeat(i18n.T("joining by invite code"), func(ctx context.Context) (string, error) {
			return inv.JoinCode(ctx, text)
		})
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if n := len(*l.code); n > 0 {
			*l.code = (*l.code)[:n-1]
			l.codeEdited()
		}
	case tcell.KeyCtrlU:
		*l.code = ""
		l.codeEdited()
	case tcell.KeyRune:
		l.addCode(string(ev.Rune()))
	}
}

// addCode adds text to the join-by-code box: its characters that can be in
// a code's text (printable ASCII), white space and line breaks dropped.
func (l *LobbyView) addCode(text string) {
	for _, r := range text {
		if r > ' ' && r < 0x7f && len(*l.code) < maxCodeInput {
			*l.code += string(r)
			l.codeEdited()
		}
	}
}

// codeEdited forgets the message of an enter on the box's earlier text.
func (l *LobbyView) codeEdited() {
	if l.codeMore && l.bad {
		l.msg, l.bad = "", false
	}
}

// PasteHandler implements tview.Primitive: a paste (the terminal's
// bracketed paste) never acts as keys, and its line breaks never as enter.
// Into the join-by-code box it adds the code, white space dropped; into a
// form, its characters; into the relay line box (y), the line; elsewhere
// in the lobby it opens the relay line box with a relay line (it starts
// with /), else the join-by-code box with it (a code pasted without k
// first).
func (l *LobbyView) PasteHandler() func(string, func(tview.Primitive)) {
	return l.WrapPasteHandler(func(text string, _ func(tview.Primitive)) { l.Paste(text) })
}

// Paste handles a pasted text (see PasteHandler).
func (l *LobbyView) Paste(text string) {
	switch {
	case l.form != nil || l.tform != nil:
		for _, r := range text {
			if r >= ' ' && r != 0x7f {
				l.Key(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
			}
		}
	case l.code != nil:
		l.addCode(text)
	case l.relayLine != nil:
		l.addRelayText(text)
	case looksLikeRelayLine(text) && l.openRelayLine():
		l.addRelayText(text)
	default:
		if _, ok := l.b.(InviteLobby); ok {
			empty := ""
			l.code, l.codeMore = &empty, false
			l.addCode(text)
		}
	}
}

func (l *LobbyView) formKey(ev *tcell.EventKey) {
	f := l.form
	switch ev.Key() {
	case tcell.KeyEscape:
		l.form = nil
		return
	case tcell.KeyTab, tcell.KeyDown:
		f.field = (f.field + 1) % formFields
		return
	case tcell.KeyBacktab, tcell.KeyUp:
		f.field = (f.field + formFields - 1) % formFields
		return
	case tcell.KeyEnter:
		opts := strings.TrimSpace(f.options)
		if secs := timerChoices[f.timer]; secs > 0 {
			if strings.Contains(opts, "timer=") {
				l.msg, l.bad = i18n.T("set the turn timer in the timer field or in the options, not both"), true
				return
			}
			if opts != "" {
				opts += ","
			}
			opts += fmt.Sprintf("timer=%d", secs)
		}
		rs := lobbyPresets[f.preset]
		if opts != "" {
			rs += ":" + opts
		}
		r, err := engine.ParseRuleset(rs)
		if err == nil {
			err = r.CheckPlayers(f.players)
		}
		if err != nil {
			l.msg, l.bad = Explain(err), true
			return
		}
		players, bots, level, private := f.players, f.bots, levelChoices[f.level], f.private
		l.form = nil
		l.doSeat(i18n.T("creating a table"), func(ctx context.Context) (string, error) {
			if inv, ok := l.b.(InviteLobby); ok && private {
				return inv.CreatePrivate(ctx, r.String(), players, bots, level)
			}
			return l.b.Create(ctx, r.String(), players, bots, level)
		})
		return
	case tcell.KeyLeft, tcell.KeyRight:
		d := 1
		if ev.Key() == tcell.KeyLeft {
			d = -1
		}
		switch f.field {
		case 0:
			f.preset = (f.preset + d + len(lobbyPresets)) % len(lobbyPresets)
		case 2:
			f.players = min(max(f.players+d, 2), 4)
		case 3:
			f.bots = min(max(f.bots+d, 0), 3)
		case 4:
			f.timer = min(max(f.timer+d, 0), len(timerChoices)-1)
		case 5:
			f.level = min(max(f.level+d, 0), len(levelChoices)-1)
		case 6:
			_, ok := l.b.(InviteLobby)
			f.private = ok && !f.private
		}
		f.bots = min(f.bots, f.players-1)
		return
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if f.field == 1 && len(f.options) > 0 {
			f.options = f.options[:len(f.options)-1]
		}
		return
	}
	if ev.Key() == tcell.KeyRune && f.field == 1 && len(f.options) < 60 {
		f.options += string(ev.Rune())
	}
}

// InputHandler implements tview.Primitive.
func (l *LobbyView) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return l.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) { l.Key(ev) })
}

// Draw implements tview.Primitive.
func (l *LobbyView) Draw(scr tcell.Screen) {
	l.Box.DrawForSubclass(scr, l)
	x, y, w, h := l.GetRect()
	l.pal = PaletteFor(scr.Colors())
	if l.g != nil && l.g.view.palFixed {
		l.pal = l.g.view.pal
	}
	p := l.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y, w, h, felt)
	fill(scr, x, y, w, 1, bar)
	name, id, addrs := l.b.Self()
	put(scr, x+1, y, w-2, i18n.T("okey lobby  you are %s", name), bar.Bold(true))
	put(scr, x+1, y+1, w-2, i18n.T("id %s", id), dim)
	row := y + 4
	if len(addrs) > 0 {
		row += l.drawAddress(scr, x+1, y+2, w-2, addrs[0], dim)
	} else {
		row += drawNoAddress(scr, x+1, y+2, w-2, dim)
	}
	if len(l.unfin) > 0 {
		put(scr, x+1, row, w-2, i18n.T("your unfinished matches (enter: resume, x: drop)"), felt.Bold(true).Foreground(p.Accent))
		row++
		for i, u := range l.unfin {
			if i >= 3 {
				put(scr, x+1, row, w-2, i18n.T("... and %d more", len(l.unfin)-i), dim)
				row++
				break
			}
			st := felt
			if i == l.cursor {
				st = st.Background(p.Ledge).Bold(true)
			}
			kind := i18n.T("LAN")
			if u.Local {
				kind = i18n.T("vs bots")
			}
			fill(scr, x, row, w, 1, st)
			put(scr, x+1, row, w-2, fmt.Sprintf("%-8s %-26.26s %s", kind, RulesetName(u.Ruleset), u.Note), st)
			row++
		}
		row++
	}
	row = l.drawTours(scr, x, row, w, felt, dim)
	head, block := l.codeBlock(w - 4)
	if len(block) == 0 {
		head, block = l.standingsBlock(4)
	}
	reserved := 0
	if len(block) > 0 {
		reserved = len(block) + 1
	}
	put(scr, x+1, row, w-2, fmt.Sprintf("%-18s %-26s %-6s %s", i18n.T("table"), i18n.T("rules"), i18n.T("seats"), i18n.T("players (* ready)")), felt.Bold(true))
	row++
	if len(l.tables) == 0 {
		put(scr, x+1, row, w-2, i18n.T("no tables on the LAN yet: press c to open one"), dim)
	}
	// Each table takes a line, and a second one for its state when the
	// first would cut it. When the tables need more lines than the list
	// has, it scrolls so that the cursor's table is in view, with a line
	// saying how many tables are out of view.
	type listed struct{ line, state string }
	items := make([]listed, len(l.tables))
	height := func(it listed) int {
		if it.state != "" && utf8.RuneCountInString(it.line+it.state) > w-2 {
			return 2
		}
		return 1
	}
	need := 0
	for i, t := range l.tables {
		var who []string
		for _, m := range t.Members {
			s := m.Name
			if m.ID == id {
				s += " " + i18n.T("(you)")
			}
			if m.Ready {
				s += "*"
			}
			who = append(who, s)
		}
		line := fmt.Sprintf("%-18.18s %-26.26s %d/%d    ", t.ID, RulesetName(t.Ruleset), len(t.Members), t.Seats)
		items[i] = listed{line + fitNames(who, w-2-width(line)), l.withRelayState(t, tableState(t))}
		need += height(items[i])
	}
	avail := max(y+h-4-reserved-row, 1)
	first, last := 0, len(l.tables) // the tables shown: first..last-1
	if need > avail {
		avail = max(avail-1, 1) // the "more" line
		c := min(max(l.cursor-l.tabBase(), 0), len(l.tables)-1)
		// The first table from which the cursor's fits.
		for used := 0; first < c; first++ {
			used = 0
			for j := first; j <= c; j++ {
				used += height(items[j])
			}
			if used <= avail {
				break
			}
		}
		used := 0
		for last = first; last < len(l.tables) && used+height(items[last]) <= avail; last++ {
			used += height(items[last])
		}
		last = max(last, first+1)
	}
	for i := first; i < last; i++ {
		it := items[i]
		st := felt
		if i+l.tabBase() == l.cursor {
			st = st.Background(p.Ledge).Bold(true)
		}
		if height(it) == 1 {
			it.line += it.state
			it.state = ""
		}
		fill(scr, x, row, w, height(items[i]), st)
		put(scr, x+1, row, w-2, it.line, st)
		row++
		if it.state != "" {
			put(scr, x+3, row, max(w-4, 1), strings.TrimPrefix(it.state, " "), st.Foreground(p.Dim))
			row++
		}
	}
	if hidden := len(l.tables) - (last - first); hidden > 0 {
		put(scr, x+1, row, w-2, i18n.T("%d more tables: up/down scrolls", hidden), dim)
	}
	if f := l.form; f != nil {
		// The rows behind the form are cleared: the list's text beside it
		// would read as stray pieces ("┐)").
		fill(scr, x, y+6, w, 12, felt)
		ix, iy, iw, _ := (&TableView{pal: p}).panel(scr, x+(w-60)/2, y+6, 60, 12, i18n.T("open a table"))
		ost := tcell.StyleDefault.Background(p.Overlay).Foreground(p.Text)
		fields := []string{
			i18n.T("rules    < %s >", PresetName(lobbyPresets[f.preset])),
			i18n.T("options  %s_", f.options),
			i18n.T("players  < %d >", f.players),
			i18n.T("bots     < %d >  (fill seats with bots on this computer)", f.bots),
			i18n.T("timer    < %s >  (each turn; then the program moves)", timerText(timerChoices[f.timer])),
			i18n.T("level    < %s >  (how well the bots play)", levelName(levelChoices[f.level])),
			i18n.T("join     < %s >", joinPolicy(f.private)),
		}
		for i, s := range fields {
			st := ost
			if i == f.field {
				st = st.Foreground(p.Accent).Bold(true)
			}
			put(scr, ix, iy+i, iw, s, st)
		}
		put(scr, ix, iy+7, iw, i18n.T("options: e.g. partnerships, rounds=1, deal=simple"), ost.Foreground(p.Dim))
		put(scr, ix, iy+9, iw, i18n.T("tab next  left/right change  enter open  esc cancel"), ost.Foreground(p.Accent))
	}
	if l.tform != nil {
		l.drawTourForm(scr, x, y, w, felt)
	}
	// The message, and the code box's head, wrap at spaces (issue 37, 6:
	// a peer id or a long head is never cut); the message's extra lines
	// push the box up.
	msgLines := wrap2(l.msg, w-2)
	if len(block) > 0 && l.form == nil && l.tform == nil {
		heads := wrap2(head, w-2)
		top := y + h - 2 - len(msgLines) - len(block) - len(heads) + 1
		fill(scr, x, top, w, len(heads)+len(block), felt)
		for i, hl := range heads {
			put(scr, x+1, top+i, w-2, hl, felt.Bold(true).Foreground(p.Accent))
		}
		for i, ln := range block {
			put(scr, x+3, top+len(heads)+i, w-4, ln, felt)
		}
	}
	if l.help {
		l.drawHelp(scr, x, y, w, h)
	}
	mst := felt.Foreground(p.Hint)
	if l.bad {
		mst = felt.Foreground(p.Bad).Bold(true)
	}
	if len(msgLines) > 1 {
		fill(scr, x, y+h-1-len(msgLines), w, len(msgLines), felt)
	}
	for i, ml := range msgLines {
		put(scr, x+1, y+h-1-len(msgLines)+i, w-2, ml, mst)
	}
	fill(scr, x, y+h-1, w, 1, bar)
	keys := i18n.T("up/down choose  c create  j join  r ready  l leave  q quit")
	if len(l.unfin) > 0 {
		keys = i18n.T("up/down choose  enter resume/join  c create  r ready  l leave  q quit")
	}
	if _, ok := l.b.(InviteLobby); ok {
		keys = i18n.T("up/down choose  c create  j join  k join by code  r ready  l leave  q quit")
		if len(l.unfin) > 0 {
			keys = i18n.T("up/down  enter resume/join  c create  k code  r ready  l leave  q quit")
		}
	}
	if wb := l.watchBar(); wb != "" {
		keys = wb
	}
	if l.onTour() {
		keys = i18n.T("up/down choose  j register and play  c create  q quit")
	}
	put(scr, x+1, y+h-1, w-2, keys, bar)
}

// drawAddress writes, from row y, the address others reach the player
// with, never cut inside: on the line after its label when the two do not
// fit one line, and where even the address alone is wider than the screen,
// split at its slashes over as few lines as it takes (the label says so).
// It returns the rows it took beyond the first (the row under it stays
// blank).
func (l *LobbyView) drawAddress(scr tcell.Screen, x, y, w int, addr string, st tcell.Style) int {
	if one := i18n.T("others can reach you with --peer %s", addr); width(one) <= w {
		put(scr, x, y, w, one, st)
		return 0
	}
	if width(addr) <= w {
		put(scr, x, y, w, i18n.T("others can reach you with --peer and this address:"), st)
		put(scr, x, y+1, w, addr, st.Bold(true))
		return 1
	}
	lines := wrapAt(addr, "/", w)
	put(scr, x, y, w, i18n.T("others reach you with --peer and this address, one line (split here):"), st)
	for i, ln := range lines {
		put(scr, x, y+1+i, w, ln, st.Bold(true))
	}
	return len(lines)
}

// wrapAt cuts s into lines of at most w cells, each ending right after a
// sep where it can (a piece longer than w is cut at w).
func wrapAt(s, sep string, w int) []string {
	var out []string
	for width(s) > w {
		cut := strings.LastIndex(s[:w], sep) + len(sep)
		if cut <= len(sep) {
			cut = w
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

func timerText(secs int) string {
	if secs == 0 {
		return i18n.T("none")
	}
	return i18n.T("%d s", secs)
}

// readyText is the lobby's message while a ready flag is sent.
func readyText(ready bool, id string) string {
	if ready {
		return i18n.T("ready at %s", id)
	}
	return i18n.T("not ready at %s", id)
}

// levelName is a bot level's name for the form, with the strategy it
// plays ("hard (expert)"; issue 37, 9).
func levelName(level string) string {
	name := level
	switch level {
	case "easy":
		name = i18n.T("easy")
	case "normal":
		name = i18n.T("normal")
	case "hard":
		name = i18n.T("hard")
	case "learned":
		name = i18n.T("learned")
	}
	if s, err := bot.StrategyFor(level); err == nil {
		name += " (" + s + ")"
	}
	return name
}

// stateName is a table's state (protocol words) for the lobby's list.
func stateName(state string) string {
	switch state {
	case "open":
		return i18n.T("open")
	case "started":
		return i18n.T("started")
	case "unfinished":
		return i18n.T("unfinished")
	case "done":
		return i18n.T("done")
	}
	return state
}

// tableState is what the lobby's list says of a table beyond its seats:
// its state and progress, private, and its spectators.
func tableState(t LobbyTable) string {
	var parts []string
	switch {
	case t.State == "started" && t.Hand > 0:
		sc := make([]string, len(t.Scores))
		for i, v := range t.Scores {
			sc[i] = fmt.Sprint(v)
		}
		if p, _, _ := strings.Cut(t.Ruleset, ":"); p == engine.Preset101 {
			parts = append(parts, i18n.T("round %d, scores %s", t.Hand, strings.Join(sc, " ")))
		} else {
			parts = append(parts, i18n.T("hand %d, scores %s", t.Hand, strings.Join(sc, " ")))
		}
	case t.State != "open":
		parts = append(parts, stateName(t.State))
	}
	if t.Private {
		parts = append(parts, i18n.T("invite code only"))
	}
	if t.Spectators > 0 {
		// The creator's own count (protocol.md 7.12): a spectator that
		// polls another seat is not in it, so it is a lower bound.
		parts = append(parts, i18n.T("%d+ watching", t.Spectators))
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, "; ") + "]"
}

// joinPolicy is the create form's answer to who may join.
func joinPolicy(private bool) string {
	if private {
		return i18n.T("invite code only (friends beyond the LAN)")
	}
	return i18n.T("anyone on the LAN")
}

// wrapCode cuts a code (one word, no spaces) into lines of at most width
// characters, so that it is shown whole however narrow the terminal.
func wrapCode(code string, width int) []string {
	width = max(width, 10)
	var out []string
	for len(code) > width {
		out = append(out, code[:width])
		code = code[width:]
	}
	return append(out, code)
}

// codeBlock is what the lobby shows above its message line: the join-by-code
// box while it is open, else the invite code of the selected table when the
// player created it (private and open), wrapped to width; nothing else.
func (l *LobbyView) codeBlock(width int) (string, []string) {
	if head, block := l.relayLineBlock(width); len(block) > 0 {
		return head, block
	}
	inv, ok := l.b.(InviteLobby)
	if !ok {
		return "", nil
	}
	if c := l.code; c != nil {
		if l.codeMore {
			return i18n.T("not a whole code yet: paste or type the rest, then enter (esc cancels):"), wrapCode(*c+"_", width)
		}
		return i18n.T("paste an invite code, then enter (esc cancels, ctrl-u clears):"), wrapCode(*c+"_", width)
	}
	if t, ok := l.selected(); ok && !t.Unfinished {
		if text := inv.Invite(t.ID); text != "" {
			return i18n.T("invite code of %s (send it whole; it admits until the table starts; v revokes it):", t.ID), append(l.relayRefusedLines(t.ID, width), wrapCode(text, width)...)
		}
	}
	return "", nil
}

// JoinCode joins the table of an invite code, as if pasted into the
// join-by-code box (okey play --code).
func (l *LobbyView) JoinCode(code string) {
	l.g.post(func() {
		inv, ok := l.b.(InviteLobby)
		if !ok || code == "" {
			return
		}
		l.doSeat(i18n.T("joining by invite code"), func(ctx context.Context) (string, error) {
			return inv.JoinCode(ctx, code)
		})
	})
}

// fitNames joins the names of a table's members in w cells: the names that
// fit whole, then how many more there are ("ayse (you), bot2*, +2"), never
// a name cut in the middle.
func fitNames(who []string, w int) string {
	all := strings.Join(who, ", ")
	if width(all) <= w {
		return all
	}
	for n := len(who) - 1; n > 0; n-- {
		s := strings.Join(who[:n], ", ") + fmt.Sprintf(", +%d", len(who)-n)
		if width(s) <= w {
			return s
		}
	}
	return fmt.Sprintf("+%d", len(who))
}

// helpLines are the lobby's keys as its help panel lists them: the key,
// then what it does; the keys the player's lobby lacks are left out.
func (l *LobbyView) helpLines() [][2]string {
	lines := [][2]string{
		{i18n.T("up/down"), i18n.T("choose a match, a tournament or a table")},
		{i18n.T("enter, j"), i18n.T("join the table, or resume the match")},
		{"c", i18n.T("open a table (one at a time)")},
	}
	if _, ok := l.b.(TournamentCreator); ok {
		lines = append(lines, [2]string{"t", i18n.T("open a tournament")})
	}
	if _, ok := l.b.(InviteLobby); ok {
		lines = append(lines, [2]string{"k", i18n.T("join a table by its invite code")},
			[2]string{"v", i18n.T("a new invite code for your private table")})
	}
	if _, ok := l.b.(RelayLineLobby); ok {
		lines = append(lines, [2]string{"y", i18n.T("use a relay: paste the line okey relay prints")})
	}
	lines = append(lines, [2]string{"r", i18n.T("ready (again: not ready)")})
	if _, ok := l.b.(TableCloser); ok {
		lines = append(lines, [2]string{"l", i18n.T("leave your table; your own: close it")})
	} else {
		lines = append(lines, [2]string{"l", i18n.T("leave your table")})
	}
	if _, ok := l.b.(WatchLobby); ok {
		lines = append(lines, [2]string{"w", i18n.T("watch the selected started table")})
	}
	if _, ok := l.b.(DropLobby); ok {
		lines = append(lines, [2]string{"x", i18n.T("drop the selected unfinished match")})
	}
	return append(lines, [2]string{"q", i18n.T("quit okey")})
}

// drawHelp draws the help panel of the lobby's keys over the list.
func (l *LobbyView) drawHelp(scr tcell.Screen, x, y, w, h int) {
	lines := l.helpLines()
	kw := 0
	for _, ln := range lines {
		kw = max(kw, width(ln[0]))
	}
	pw := min(w, 64)
	ph := min(h-2, len(lines)+4)
	ix, iy, iw, ih := (&TableView{pal: l.pal}).panel(scr, x+(w-pw)/2, y+max((h-2-ph)/2, 0), pw, ph, i18n.T("the lobby's keys"))
	st := tcell.StyleDefault.Background(l.pal.Overlay).Foreground(l.pal.Text)
	for i, ln := range lines {
		if i >= ih-2 {
			break
		}
		put(scr, ix, iy+i, kw, ln[0], st.Foreground(l.pal.Accent).Bold(true))
		put(scr, ix+kw+2, iy+i, iw-kw-2, ln[1], st)
	}
	put(scr, ix, iy+ih-1, iw, i18n.T("any key closes this help"), st.Foreground(l.pal.Dim))
}
