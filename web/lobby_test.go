package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/text/language"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
)

// fakeLobby is a LobbyService in memory: the tables it is given, and the
// requests it received.
type fakeLobby struct {
	mu      sync.Mutex
	tables  []table.LobbyTable
	calls   []string
	changes chan struct{}
	unfin   []table.LobbyTable
}

func (f *fakeLobby) call(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakeLobby) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fakeLobby) set(ts ...table.LobbyTable) {
	f.mu.Lock()
	f.tables = ts
	f.mu.Unlock()
	f.changes <- struct{}{}
}

func (f *fakeLobby) Self() (string, string, []string) { return "ayse", "me", nil }
func (f *fakeLobby) Tables() []table.LobbyTable {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]table.LobbyTable(nil), f.tables...)
}
func (f *fakeLobby) Changes() <-chan struct{} { return f.changes }
func (f *fakeLobby) Create(_ context.Context, ruleset string, players, bots int, level string) (string, error) {
	f.call("create " + ruleset)
	return "t1", nil
}
func (f *fakeLobby) CreatePrivate(_ context.Context, ruleset string, players, bots int, level string) (string, error) {
	f.call("private " + ruleset)
	return "t1", nil
}
func (f *fakeLobby) Join(_ context.Context, id string) error { f.call("join " + id); return nil }
func (f *fakeLobby) Leave(_ context.Context, id string) error {
	f.call("leave " + id)
	return nil
}
func (f *fakeLobby) SetReady(_ context.Context, id string, ready bool) error {
	f.call("ready " + id)
	return nil
}
func (f *fakeLobby) CloseTable(_ context.Context, id string) error { f.call("close " + id); return nil }
func (f *fakeLobby) CheckCode(code string) error {
	if !strings.HasPrefix(strings.TrimSpace(code), "okey1") {
		return errors.New("not a code")
	}
	return nil
}
func (f *fakeLobby) JoinCode(_ context.Context, code string) (string, error) {
	f.call("code " + code)
	return "t1", nil
}
func (f *fakeLobby) Invite(id string) string                { return "okey1invite" }
func (f *fakeLobby) RefusingRelays(id string) []string      { return nil }
func (f *fakeLobby) CheckRelayLine(text string) error       { return errors.New("not a relay line") }
func (f *fakeLobby) AddRelay(context.Context, string) error { return nil }
func (f *fakeLobby) BotRelays() []string                    { return nil }
func (f *fakeLobby) Unfinished() []table.LobbyTable {
	f.call("unfinished")
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.unfin)
}
func (f *fakeLobby) Drop(t table.LobbyTable) error {
	f.call("drop " + t.ID)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unfin = slices.DeleteFunc(f.unfin, func(u table.LobbyTable) bool { return u.ID == t.ID })
	return nil
}
func (f *fakeLobby) Links(id string) []table.SeatLink {
	return []table.SeatLink{{Name: "mehmet", Kind: "direct", RTT: 3 * time.Millisecond}}
}

// serveLobby runs a Lobby of f (the tables it starts handed to start) and
// serves it until the test's end; ctx is the lobby's, ended then too.
func serveLobby(t *testing.T, f *fakeLobby, start func(table.LobbyTable)) (l *Lobby, s *Server, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l = NewLobby(ctx, f, start)
	s = serve(t)(ListenLobby(l, 0))
	go l.Run()
	return l, s, ctx
}

// TestLobbySocket: the lobby's page at /, the table's at /table; the
// lobby's socket admits the page's own origin only and sends the tables
// with the player's seat, its invite code and its links; the page's
// requests reach the service, a bad one is refused before it; a table the
// player sits at is handed over once when it starts.
func TestLobbySocket(t *testing.T) {
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	started := make(chan string, 4)
	_, s, ctx := serveLobby(t, f, func(t table.LobbyTable) { started <- t.ID })
	if w := get(s, s.host(), "/", s.cookie()); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `src="/lobby.js"`) {
		t.Fatalf("the lobby's page: %d", w.Code)
	}
	if w := get(s, s.host(), "/table", s.cookie()); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `src="/app.js"`) {
		t.Fatalf("the table's page: %d", w.Code)
	}
	if w := get(s, s.host(), "/lobby.ws", nil); w.Code != http.StatusForbidden {
		t.Fatalf("the lobby's socket without the token: %d", w.Code)
	}
	if w := get(s, s.host(), "/ws", s.cookie()); w.Code != http.StatusNotFound {
		t.Fatalf("the table's socket with no table: %d, want 404", w.Code)
	}
	hdr := http.Header{}
	hdr.Add("Cookie", s.cookieName()+"="+s.token)
	hdr.Set("Origin", "http://evil.example")
	if _, _, err := websocket.Dial(ctx, "ws://"+s.host()+"/lobby.ws", &websocket.DialOptions{HTTPHeader: hdr}); err == nil {
		t.Fatal("a cross-origin lobby socket was admitted")
	}
	hdr.Set("Origin", "http://"+s.host())
	conn, _, err := websocket.Dial(ctx, "ws://"+s.host()+"/lobby.ws", &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	next := func(what string, ok func(lobbyJSON) bool) lobbyJSON {
		t.Helper()
		rctx, rc := context.WithTimeout(ctx, 10*time.Second)
		defer rc()
		for {
			_, b, err := conn.Read(rctx)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			var st lobbyJSON
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			if ok(st) {
				return st
			}
		}
	}
	send := func(c lobbyCommand) {
		b, _ := json.Marshal(c)
		if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	first := next("the first state", func(st lobbyJSON) bool { return st.Name == "ayse" && st.Labels["join"] != "" })
	if !slices.Contains(first.Presets, "classic") || !slices.Contains(first.Presets, "101") {
		t.Fatalf("the create form's rulesets: %q", first.Presets)
	}
	send(lobbyCommand{Op: "create", Ruleset: "classic:points=1", Players: 2, Bots: 2})
	next("too many bots refused", func(st lobbyJSON) bool { return st.Bad && st.Msg != "" })
	send(lobbyCommand{Op: "code", Text: "garbage"})
	next("a bad code refused", func(st lobbyJSON) bool { return st.Bad && strings.Contains(st.Msg, "not a code") })
	send(lobbyCommand{Op: "create", Ruleset: "classic:points=1", Players: 2, Bots: 0, Private: true})
	next("the table opened", func(st lobbyJSON) bool { return !st.Busy && !st.Bad && st.Msg == "opening a table: done" })
	f.set(table.LobbyTable{ID: "t1", Ruleset: "classic:points=1", Seats: 2, State: "open", Private: true,
		Members: []table.LobbyMember{{ID: "me", Name: "ayse"}, {ID: "x", Name: "mehmet", Ready: true}}})
	st := next("the seat", func(st lobbyJSON) bool { return len(st.Tables) == 1 })
	tb := st.Tables[0]
	if !tb.Seated || !tb.Mine || tb.Invite != "okey1invite" || len(st.Links) != 1 || st.Links[0].Text != "direct 3 ms" {
		t.Fatalf("the table as sent: %+v, links %+v", tb, st.Links)
	}
	send(lobbyCommand{Op: "ready", ID: "t1", Ready: true})
	next("ready", func(st lobbyJSON) bool { return !st.Busy && st.Msg == "ready at table t1: done" })
	if got := f.got(); len(got) != 2 || got[0] != "private classic:points=1" || got[1] != "ready t1" {
		t.Fatalf("the service got %q", got)
	}
	f.set(table.LobbyTable{ID: "t1", Ruleset: "classic:points=1", Seats: 2, State: "started",
		Members: []table.LobbyMember{{ID: "me", Name: "ayse", Ready: true}, {ID: "x", Name: "mehmet", Ready: true}}})
	select {
	case id := <-started:
		if id != "t1" {
			t.Fatalf("started %q", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the started table was not handed over")
	}
	f.changes <- struct{}{}
	select {
	case id := <-started:
		t.Fatalf("table %s handed over twice", id)
	case <-time.After(300 * time.Millisecond):
	}
}

// FuzzLobbyCommand: whatever the lobby's page sends, the lobby neither
// panics nor asks the service for anything but the page's known requests;
// a create it refuses (ruleset, players, bots) reaches no service; a
// resume, a drop or a watch reaches its hook or the service only for its
// own op (an unfinished match, a started table).
func FuzzLobbyCommand(f *testing.F) {
	for _, s := range []string{`{"op":"create","ruleset":"classic","players":4,"bots":3}`, `{"op":"create","ruleset":"nope","players":4}`,
		`{"op":"create","ruleset":"classic","players":9,"bots":-1}`, `{"op":"join","id":"x"}`, `{"op":"code","text":"okey1x"}`,
		`{"op":"relay","text":"zz"}`, `{"op":"ready","id":"t","ready":true}`, `{"op":"leave"}`, `{"op":"close","id":""}`, `[]`, `{"op":7}`,
		`{"op":"resume","id":"lan1"}`, `{"op":"drop","id":"/d/m/local-1"}`, `{"op":"watch","id":"s1"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c lobbyCommand
		if json.Unmarshal(b, &c) != nil {
			return
		}
		fl := &fakeLobby{changes: make(chan struct{}, 1),
			unfin:  []table.LobbyTable{{ID: "lan1", Unfinished: true}, {ID: "/d/m/local-1", Unfinished: true, Local: true}},
			tables: []table.LobbyTable{{ID: "s1", State: "started", Seats: 2, Members: []table.LobbyMember{{ID: "a"}, {ID: "b"}}}}}
		l := NewLobby(context.Background(), fl, func(table.LobbyTable) {})
		l.Offer(func(t table.LobbyTable) { fl.call("resume " + t.ID) }, func(t table.LobbyTable) { fl.call("watch " + t.ID) })
		l.build()
		l.do(c)
		deadline := time.Now().Add(5 * time.Second)
		for {
			l.mu.Lock()
			busy := l.busy || l.inMatch
			l.mu.Unlock()
			if !busy {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still busy", b)
			}
			time.Sleep(time.Millisecond)
		}
		for _, call := range fl.got() {
			op, _, _ := strings.Cut(call, " ")
			if op == "unfinished" {
				continue // the list read for the state
			}
			if op == "private" {
				op = "create"
			}
			if op != c.Op {
				t.Fatalf("%s: the service got %q", b, call)
			}
			if op == "create" && (c.Bots < 0 || c.Bots >= c.Players) {
				t.Fatalf("%s: a refused create reached the service", b)
			}
		}
		l.mu.Lock()
		bad := l.bad
		l.mu.Unlock()
		if c.Op == "create" && len(fl.got()) == 0 && !bad {
			t.Fatalf("%s: a create neither sent nor refused", b)
		}
	})
}

// TestLobbyTurkish: the lobby's words and its table states come in the
// interface's language.
func TestLobbyTurkish(t *testing.T) {
	i18n.Set(i18n.Turkish)
	defer i18n.Set(i18n.English)
	f := &fakeLobby{changes: make(chan struct{}, 1), tables: []table.LobbyTable{{ID: "t1", Ruleset: "classic", Seats: 2, State: "open",
		Members: []table.LobbyMember{{ID: "x", Name: "mehmet"}}}}}
	english := lobbyLabelsIn(i18n.English)
	st := NewLobby(context.Background(), f, func(table.LobbyTable) {}).build()
	if st.Labels["title"] != "okey lobisi" || st.Labels["join"] != "katıl" || st.Tables[0].StateTxt == "open" {
		t.Fatalf("the Turkish lobby: %q %q %q", st.Labels["title"], st.Labels["join"], st.Tables[0].StateTxt)
	}
	for k, v := range st.Labels {
		// Every word has its Turkish (the catalogue's test checks the
		// keys; this, that the page is given them).
		if v == english[k] {
			t.Errorf("label %s is still English: %q", k, v)
		}
	}
}

func lobbyLabelsIn(l language.Tag) map[string]string {
	was := i18n.Current()
	i18n.Set(l)
	defer i18n.Set(was)
	return lobbyLabels()
}

// TestLobbyJoinCodeAtStart: okey play --web --code CODE takes the seat as
// the page's box does (the code as given, wrapped lines and all).
func TestLobbyJoinCodeAtStart(t *testing.T) {
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	l := NewLobby(context.Background(), f, func(table.LobbyTable) {})
	l.JoinCode("  okey1abc\n  def\n")
	deadline := time.Now().Add(5 * time.Second)
	for len(f.got()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := f.got(); len(got) != 1 || got[0] != "code   okey1abc\n  def\n" {
		t.Fatalf("the service got %q", got)
	}
	l.JoinCode("not a code")
	if l.build().Msg == "" || !l.build().Bad {
		t.Fatal("a bad --code is not said")
	}
}
