package web

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// LobbyService is what the web lobby needs of the network: the lobby the
// terminal shows too (netplay.LobbyService has it; cmd/okey wires it in,
// so that this package never reaches the network play package).
type LobbyService interface {
	Self() (name, id string, addrs []string)
	Tables() []table.LobbyTable
	Changes() <-chan struct{}
	Create(ctx context.Context, ruleset string, players, bots int, level string) (string, error)
	CreatePrivate(ctx context.Context, ruleset string, players, bots int, level string) (string, error)
	Join(ctx context.Context, id string) error
	Leave(ctx context.Context, id string) error
	SetReady(ctx context.Context, id string, ready bool) error
	CloseTable(ctx context.Context, id string) error
	CheckCode(code string) error
	JoinCode(ctx context.Context, code string) (string, error)
	Invite(id string) string
	RefusingRelays(id string) []string
	CheckRelayLine(text string) error
	AddRelay(ctx context.Context, text string) error
	BotRelays() []string
	Links(id string) []table.SeatLink
	// Unfinished lists the matches the player left before their end: LAN
	// tables and matches against bots on this computer (Local).
	Unfinished() []table.LobbyTable
	// Drop moves an unfinished match against bots aside (a LAN one stays).
	Drop(t table.LobbyTable) error
}

// Lobby is the web page's lobby: the tables seen, the forms to open or
// join one, and, once a table the player sits at starts, the hand-over to
// its table (start). One goroutine (Run) owns what the page is told; the
// network's requests run off it, one at a time.
type Lobby struct {
	svc   LobbyService
	ctx   context.Context
	start func(table.LobbyTable)
	// resume plays an unfinished match Unfinished listed; watch watches a
	// started table as a spectator (nil: the page offers neither).
	resume, watch func(table.LobbyTable)

	mu      sync.Mutex
	msg     string
	bad     bool
	busy    bool
	playing string          // the table whose page is up ("": none; SetPlaying)
	inMatch bool            // start is playing a table
	started map[string]bool // the tables handed to start
	subs    map[chan []byte]bool
	state   []byte
	poke    chan struct{}
	unfin   []table.LobbyTable // the unfinished matches, as last listed
	tours   Tournaments        // the tournaments on the LAN (nil: none listed; SetTournaments)
	srv     *Server            // the server of the lobby's page (ListenLobby)
	sitting int                // tournament tables holding the page (SitTable)
	stale   bool               // unfin is to be listed again
	dropArm string             // the unfinished match a first drop was on
}

// NewLobby is the web lobby of svc; start plays a table the player sits
// at once it starts (it returns when the player is back in the lobby).
func NewLobby(ctx context.Context, svc LobbyService, start func(table.LobbyTable)) *Lobby {
	return &Lobby{svc: svc, ctx: ctx, start: start, started: map[string]bool{}, subs: map[chan []byte]bool{},
		poke: make(chan struct{}, 1), stale: true}
}

// Offer makes the page offer the unfinished matches to resume (resume
// plays the one chosen and returns when the player is back in the lobby)
// and the started tables to watch (watch likewise); call it before Run.
func (l *Lobby) Offer(resume, watch func(table.LobbyTable)) {
	l.mu.Lock()
	l.resume, l.watch = resume, watch
	l.mu.Unlock()
}

// hooks are Offer's resume and watch.
func (l *Lobby) hooks() (resume, watch func(table.LobbyTable)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.resume, l.watch
}

// Run keeps the pages' state current until ctx ends: on every change of
// the network's lobby, and every 2 seconds (the links' state).
func (l *Lobby) Run() {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		l.publish()
		select {
		case <-l.ctx.Done():
			return
		case <-l.svc.Changes():
		case <-l.tourChanges():
		case <-l.poke:
		case <-tick.C:
		}
	}
}

func (l *Lobby) changed() {
	select {
	case l.poke <- struct{}{}:
	default:
	}
}

// JoinCode takes a seat at the table of an invite code (okey play --code),
// as the page's join-by-code box does.
func (l *Lobby) JoinCode(text string) { l.do(lobbyCommand{Op: "code", Text: text}) }

// Say shows a line on the lobby's message line.
func (l *Lobby) Say(s string, bad bool) {
	l.mu.Lock()
	l.msg, l.bad = s, bad
	l.mu.Unlock()
	l.changed()
}

type lobbyMemberJSON struct {
	Name  string `json:"name"`
	Ready bool   `json:"ready"`
	Self  bool   `json:"self"`
}

type lobbyTableJSON struct {
	ID       string            `json:"id"`
	Ruleset  string            `json:"ruleset"`
	Seats    int               `json:"seats"`
	State    string            `json:"state"`
	StateTxt string            `json:"stateText"`
	Private  bool              `json:"private"`
	Members  []lobbyMemberJSON `json:"members"`
	Seated   bool              `json:"seated"`
	Mine     bool              `json:"mine"` // the player created it
	Ready    bool              `json:"ready"`
	Invite   string            `json:"invite,omitempty"`
	Refusing string            `json:"refusing,omitempty"`
	Watch    bool              `json:"watch,omitempty"` // started, public, not the player's: to watch
}

// unfinishedJSON is an unfinished match offered to resume.
type unfinishedJSON struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	Note    string `json:"note"`
	Local   bool   `json:"local,omitempty"` // against bots on this computer (it may be dropped)
}

type linkJSON struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Text string `json:"text"`
}

type lobbyJSON struct {
	Labels  map[string]string `json:"labels"`
	Name    string            `json:"name"`
	ID      string            `json:"id"`
	Addrs   []string          `json:"addrs"`
	Tables  []lobbyTableJSON  `json:"tables"`
	Unfin   []unfinishedJSON  `json:"unfinished"`
	Links   []linkJSON        `json:"links"`
	Relays  []string          `json:"relays"`
	Msg     string            `json:"msg"`
	Bad     bool              `json:"bad"`
	Busy    bool              `json:"busy"`
	Playing string            `json:"playing"`
	Presets []string          `json:"presets"`
	Levels  []string          `json:"levels"`
	Level   string            `json:"level"`
	TourOn  bool              `json:"tourOn"` // the tournaments are listed
	Tours   []tourJSON        `json:"tours"`
}

// lobbyLabels are the lobby page's words, in the interface's language.
func lobbyLabels() map[string]string {
	m := map[string]string{
		"title": i18n.T("okey lobby"), "tables": i18n.T("tables on the LAN"), "none": i18n.T("no table on the LAN yet: open one"),
		"create": i18n.T("open a table"), "ruleset": i18n.T("ruleset"), "players": i18n.T("players"), "bots": i18n.T("bots"),
		"level": i18n.T("level"), "options": i18n.T("options"), "private": i18n.T("join: invite code only"), "join": i18n.T("join"), "leave": i18n.T("leave"),
		"ready": i18n.T("ready"), "notReady": i18n.T("not ready"), "close": i18n.T("close the table"),
		"code": i18n.T("join by invite code"), "codeHint": i18n.T("paste the invite code here (wrapped lines too)"),
		"invite": i18n.T("invite code: send it whole to your friends"), "copy": i18n.T("copy"), "copied": i18n.T("copied"),
		"relay": i18n.T("relay line"), "relayHint": i18n.T("paste the line okey relay prints"), "use": i18n.T("use"),
		"relays": i18n.T("relays"), "noRelay": i18n.T("no relay: the LAN and direct addresses only"),
		"links": i18n.T("links"), "you": i18n.T("you"), "private1": i18n.T("private"), "seats": i18n.T("seats"),
		"unfinished": i18n.T("your unfinished matches"), "resume": i18n.T("resume"), "drop": i18n.T("drop"),
		"watch": i18n.T("watch"), "local": i18n.T("against bots"),
		"playing":      i18n.T("the match is on: its table is open"),
		"disconnected": i18n.T("the table's process is gone: this page no longer plays"),
		"reconnecting": i18n.T("the connection to okey dropped: reconnecting…"),
	}
	tourLabels(m)
	return m
}

// linkText says a link for a person: its kind and round-trip time.
func linkText(s table.SeatLink) string {
	var kind string
	switch s.Kind {
	case "direct":
		kind = i18n.T("direct")
	case "relayed":
		kind = i18n.T("relayed")
	case "via-member":
		kind = i18n.T("through a member")
	default:
		return i18n.T("reconnecting")
	}
	if s.RTT > 0 {
		return kind + " " + strconv.FormatInt(s.RTT.Milliseconds(), 10) + " ms"
	}
	return kind
}

func stateText(s string) string {
	switch s {
	case "open":
		return i18n.T("open")
	case "started":
		return i18n.T("started")
	}
	return i18n.T("closed")
}

// build is the lobby's state now.
func (l *Lobby) build() *lobbyJSON {
	name, me, addrs := l.svc.Self()
	s := &lobbyJSON{Labels: lobbyLabels(), Name: name, ID: me, Addrs: addrs, Relays: l.svc.BotRelays(),
		Presets: append(slices.Clone(engine.Presets), engine.Preset101), Levels: bot.LevelNames(), Level: bot.DefaultLevel}
	_, watch := l.hooks()
	tables := l.svc.Tables()
	slices.SortStableFunc(tables, func(a, b table.LobbyTable) int { return strings.Compare(a.ID, b.ID) })
	for _, t := range tables {
		j := lobbyTableJSON{ID: t.ID, Ruleset: ui.RulesetName(t.Ruleset), Seats: t.Seats, State: t.State, StateTxt: stateText(t.State),
			Private: t.Private, Members: []lobbyMemberJSON{}}
		for i, m := range t.Members {
			j.Members = append(j.Members, lobbyMemberJSON{Name: m.Name, Ready: m.Ready, Self: m.ID == me})
			if m.ID == me {
				j.Seated, j.Ready, j.Mine = true, m.Ready, i == 0
			}
		}
		if j.Seated && t.State == "open" {
			if j.Mine && t.Private {
				j.Invite = l.svc.Invite(t.ID)
				if r := l.svc.RefusingRelays(t.ID); len(r) > 0 {
					j.Refusing = i18n.T("relays that refused this table (its code leaves them out): %s", strings.Join(r, ", "))
				}
			}
			for _, k := range l.svc.Links(t.ID) {
				s.Links = append(s.Links, linkJSON{Name: k.Name, Kind: k.Kind, Text: linkText(k)})
			}
		}
		j.Watch = t.State == "started" && !j.Seated && !t.Private && watch != nil
		s.Tables = append(s.Tables, j)
		if t.State == "started" && j.Seated {
			l.startOnce(t)
		}
	}
	l.buildTours(s)
	for _, u := range l.unfinished() {
		s.Unfin = append(s.Unfin, unfinishedJSON{ID: u.ID, Ruleset: ui.RulesetName(u.Ruleset), Note: u.Note, Local: u.Local})
	}
	l.mu.Lock()
	s.Msg, s.Bad, s.Busy, s.Playing = l.msg, l.bad, l.busy, l.playing
	l.mu.Unlock()
	return s
}

// unfinished is the unfinished matches, newest first, listed again (from
// the data directory) only when they may have changed: at the start, after
// a match or a drop.
func (l *Lobby) unfinished() []table.LobbyTable {
	l.mu.Lock()
	stale, offered := l.stale, l.resume != nil
	l.stale = false
	l.mu.Unlock()
	if !offered {
		return nil
	}
	if stale {
		u := l.svc.Unfinished()
		slices.SortStableFunc(u, func(a, b table.LobbyTable) int { return b.Started.Compare(a.Started) })
		l.mu.Lock()
		l.unfin = u
		l.mu.Unlock()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.unfin)
}

// unfinishedByID is the unfinished match id as last listed.
func (l *Lobby) unfinishedByID(id string) (table.LobbyTable, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := slices.IndexFunc(l.unfin, func(t table.LobbyTable) bool { return t.ID == id })
	if i < 0 {
		return table.LobbyTable{}, false
	}
	return l.unfin[i], true
}

// startOnce hands a started table the player sits at to start, once.
func (l *Lobby) startOnce(t table.LobbyTable) {
	l.mu.Lock()
	if l.started[t.ID] || l.inMatch || l.sitting > 0 {
		l.mu.Unlock()
		return
	}
	l.started[t.ID] = true
	l.inMatch = true
	l.mu.Unlock()
	go l.playing1(l.start, t)
}

// playing1 runs play (start, resume or watch) for t with the page handed
// over to it, then brings the pages back to the lobby, its unfinished
// matches listed again; inMatch is set.
func (l *Lobby) playing1(play func(table.LobbyTable), t table.LobbyTable) {
	play(t)
	l.mu.Lock()
	l.playing, l.inMatch, l.stale = "", false, true
	l.mu.Unlock()
	l.changed()
}

// hand runs play for t unless a table has the page already (then it says
// so); true: handed over.
func (l *Lobby) hand(play func(table.LobbyTable), t table.LobbyTable) bool {
	l.mu.Lock()
	if l.inMatch || l.sitting > 0 || play == nil {
		l.mu.Unlock()
		if play != nil {
			l.Say(i18n.T("wait: a table is open already"), true)
		}
		return false
	}
	l.inMatch = true
	// A resumed LAN table is started and the player sits at it: it is not
	// to be handed to start too, now or once the player left it.
	l.started[t.ID] = true
	l.mu.Unlock()
	go l.playing1(play, t)
	return true
}

// SetPlaying sends the pages to the table of id, whose Game the server
// plays now (Server.SetGame); "" brings them back to the lobby.
func (l *Lobby) SetPlaying(id string) {
	l.mu.Lock()
	l.playing = id
	l.mu.Unlock()
	l.changed()
}

// Playing is the table the player is at ("": in the lobby).
func (l *Lobby) Playing() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.playing
}

func (l *Lobby) publish() {
	b, err := json.Marshal(l.build())
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.state = b
	for c := range l.subs {
		offer(c, b)
	}
}

func (l *Lobby) subscribe() (chan []byte, func()) {
	c := make(chan []byte, 4)
	l.mu.Lock()
	l.subs[c] = true
	if l.state != nil {
		c <- l.state
	}
	l.mu.Unlock()
	l.changed()
	return c, func() { l.mu.Lock(); delete(l.subs, c); l.mu.Unlock() }
}

// lobbyCommand is what the lobby page asks for.
type lobbyCommand struct {
	Op      string `json:"op"`
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	Players int    `json:"players"`
	Bots    int    `json:"bots"`
	Level   string `json:"level"`
	Private bool   `json:"private"`
	Ready   bool   `json:"ready"`
	Text    string `json:"text"`
	Name    string `json:"name"`   // tcreate: the tournament's name
	Rounds  int    `json:"rounds"` // tcreate: its rounds
}

// maxPasted bounds a pasted code or relay line.
const maxPasted = 1000

// maxFrame bounds a frame of the lobby's page.
const maxFrame = 4 << 20

// do runs a command of the page: the network's requests off the page's
// socket, one at a time, each saying when it is done or why it failed.
func (l *Lobby) do(c lobbyCommand) {
	if len(c.Text) > maxPasted {
		if c.Op == "relay" {
			l.Say(i18n.T("the relay line is too long"), true)
		} else {
			l.Say(i18n.T("the invite code is too long"), true)
		}
		return
	}
	var what string
	var f func(ctx context.Context) error
	switch c.Op {
	case "create":
		r, err := engine.ParseRuleset(c.Ruleset)
		if err == nil {
			err = r.CheckPlayers(c.Players)
		}
		if err == nil && (c.Bots < 0 || c.Bots >= c.Players) {
			err = errBots
		}
		if err != nil {
			l.Say(ui.Explain(err), true)
			return
		}
		what = i18n.T("opening a table")
		create := l.svc.Create
		if c.Private {
			create = l.svc.CreatePrivate
		}
		f = func(ctx context.Context) error {
			_, err := create(ctx, r.String(), c.Players, c.Bots, c.Level)
			return err
		}
	case "join":
		what = i18n.T("joining table %s", c.ID)
		f = func(ctx context.Context) error { return l.svc.Join(ctx, c.ID) }
	case "leave":
		what = i18n.T("leaving table %s", c.ID)
		f = func(ctx context.Context) error { return l.svc.Leave(ctx, c.ID) }
	case "close":
		what = i18n.T("closing table %s", c.ID)
		f = func(ctx context.Context) error { return l.svc.CloseTable(ctx, c.ID) }
	case "ready":
		what = i18n.T("ready at table %s", c.ID)
		if !c.Ready {
			what = i18n.T("not ready at table %s", c.ID)
		}
		f = func(ctx context.Context) error { return l.svc.SetReady(ctx, c.ID, c.Ready) }
	case "code":
		if err := l.svc.CheckCode(c.Text); err != nil {
			l.Say(i18n.T("not a whole invite code: %s", ui.Explain(err)), true)
			return
		}
		what = i18n.T("joining by invite code")
		f = func(ctx context.Context) error { _, err := l.svc.JoinCode(ctx, c.Text); return err }
	case "resume":
		t, ok := l.unfinishedByID(c.ID)
		if !ok {
			l.Say(i18n.T("that match is no longer saved"), true)
			return
		}
		if resume, _ := l.hooks(); l.hand(resume, t) {
			l.Say(i18n.T("resuming %s", ui.RulesetName(t.Ruleset)+" "+t.Note), false)
		}
		return
	case "drop":
		l.drop(c.ID)
		return
	case "watch":
		tables := l.svc.Tables()
		i := slices.IndexFunc(tables, func(t table.LobbyTable) bool { return t.ID == c.ID })
		if i < 0 {
			l.Say(i18n.T("table %s is no longer announced", c.ID), true)
			return
		}
		t := tables[i]
		_, me, _ := l.svc.Self()
		switch {
		case t.State != "started":
			l.Say(i18n.T("only a started table can be watched"), true)
		case slices.ContainsFunc(t.Members, func(m table.LobbyMember) bool { return m.ID == me }):
			l.Say(i18n.T("you sit at that table: it is yours to play, not to watch"), true)
		case t.Private:
			l.Say(i18n.T("that table admits spectators by invite code: okey watch --code CODE"), true)
		default:
			if _, watch := l.hooks(); l.hand(watch, t) {
				l.Say(i18n.T("watching %s...", t.ID), false)
			}
		}
		return
	case "tjoin", "tcreate":
		var ok bool
		if what, f, ok = l.tourCommand(c); !ok {
			return
		}
	case "relay":
		if err := l.svc.CheckRelayLine(c.Text); err != nil {
			l.Say(ui.Explain(err), true)
			return
		}
		what = i18n.T("adding the relay")
		f = func(ctx context.Context) error { return l.svc.AddRelay(ctx, c.Text) }
	default:
		l.Say(i18n.T("the page sent a command okey does not know"), true)
		return
	}
	l.mu.Lock()
	if l.busy {
		l.msg, l.bad = i18n.T("wait: the last request is still going"), true
		l.mu.Unlock()
		l.changed()
		return
	}
	l.busy, l.msg, l.bad = true, what+"...", false
	l.mu.Unlock()
	l.changed()
	go func() {
		ctx, cancel := context.WithTimeout(l.ctx, 20*time.Second)
		err := f(ctx)
		cancel()
		l.mu.Lock()
		l.busy = false
		if err != nil {
			l.msg, l.bad = what+": "+ui.Explain(err), true
		} else {
			l.msg, l.bad = i18n.T("%s: done", what), false
		}
		l.mu.Unlock()
		l.changed()
	}()
}

// drop is the page's drop on an unfinished match against bots: a first
// one asks, a second one on the same match drops it (as the terminal's x).
func (l *Lobby) drop(id string) {
	t, ok := l.unfinishedByID(id)
	switch {
	case !ok:
		l.Say(i18n.T("that match is no longer saved"), true)
		return
	case !t.Local:
		l.Say(i18n.T("a LAN match cannot be dropped: its players may resume it"), true)
		return
	}
	l.mu.Lock()
	armed := l.dropArm == id
	l.dropArm = id
	if armed {
		l.dropArm = ""
	}
	l.mu.Unlock()
	if !armed {
		l.Say(i18n.T("drop again drops it (moved whole to %s in the data dir; it still verifies)", ui.DroppedDir), true)
		return
	}
	if err := l.svc.Drop(t); err != nil {
		l.Say(i18n.T("not dropped: %s", ui.Explain(err)), true)
		return
	}
	l.mu.Lock()
	l.stale = true
	l.mu.Unlock()
	l.Say(i18n.T("dropped: %s", ui.RulesetName(t.Ruleset)+" "+t.Note), false)
}

type botsError struct{}

func (botsError) Error() string {
	return i18n.T("the bots fill some seats, not all: fewer bots than players")
}

var errBots error = botsError{}

// lobbySocket is the lobby page's WebSocket: states out, commands in. The
// Origin is checked as the table's socket checks it (coder's Accept with
// no patterns: the request's own Host, held to 127.0.0.1:PORT or
// localhost:PORT before).
func (s *Server) lobbySocket(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	// A text pasted in a box may be long (a page of a log, not a code):
	// do refuses it with a sentence; coder's 32 KB limit would close the
	// socket, and the page would say that okey is gone.
	conn.SetReadLimit(maxFrame)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	states, unsub := s.lobby.subscribe()
	defer unsub()
	go func() {
		defer cancel()
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				return
			}
			var c lobbyCommand
			if json.Unmarshal(b, &c) != nil {
				s.lobby.Say(i18n.T("the page sent a command okey cannot read"), true)
				continue
			}
			s.lobby.do(c)
		}
	}()
	for {
		select {
		case b := <-states:
			wctx, wc := context.WithTimeout(ctx, 5*time.Second)
			err := conn.Write(wctx, websocket.MessageText, b)
			wc()
			if err != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// serveLobby serves the lobby's page, the table's page (/table) and the
// lobby's socket; it reports whether it answered.
func (s *Server) serveLobby(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case "/":
		http.ServeFileFS(w, r, s.sub, "lobby.html")
	case "/table":
		http.ServeFileFS(w, r, s.sub, "index.html")
	case "/lobby.ws":
		s.lobbySocket(w, r)
	default:
		return false
	}
	return true
}

// ListenLobby opens the lobby's server on 127.0.0.1 (port 0: any free
// port), with the same locks as the table's (Listen); SetGame gives it the
// table of a match once one starts.
func ListenLobby(l *Lobby, port int) (*Server, error) {
	s, err := Listen(nil, port)
	if err != nil {
		return nil, err
	}
	s.lobby = l
	l.mu.Lock()
	l.srv = s
	l.mu.Unlock()
	return s, nil
}

// SetGame makes g the table the page's /ws plays (nil: none).
func (s *Server) SetGame(g *Game) {
	s.gmu.Lock()
	s.g = nil
	if g != nil {
		s.g = g
	}
	s.gmu.Unlock()
}

// SetFrames makes f, a spectator's page, the table the page's /ws shows
// (nil: none).
func (s *Server) SetFrames(f *Frames) {
	s.gmu.Lock()
	s.g = nil
	if f != nil {
		s.g = f
	}
	s.gmu.Unlock()
}

func (s *Server) game() page {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	return s.g
}

// left reports whether the player has left g's table.
func (g *Game) left() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// Until is a context derived from ctx that ends when the player leaves g's
// table (or ctx ends).
func (g *Game) Until(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-g.done:
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

// Start serves until Close (errors to fail) and, for a lobby's server,
// keeps the lobby's pages current (Lobby.Run).
func (s *Server) Start(fail func(error)) {
	go func() {
		if err := s.Serve(); err != nil {
			fail(err)
		}
	}()
	if s.lobby != nil {
		go s.lobby.Run()
	}
}
