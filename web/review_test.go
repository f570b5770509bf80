package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/table"
)

// TestTwoLaunchesOneBrowser: two okey processes on one machine (two seats
// of a LAN table, or a table and a lobby) opened in one browser. Cookies
// are not kept apart by port, so the second launch's cookie must not
// replace the first's: each page still loads after the other was opened.
func TestTwoLaunchesOneBrowser(t *testing.T) {
	s1, _ := testServer(t)
	s2, _ := testServer(t)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	load := func(u string) int {
		t.Helper()
		r, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	if code := load(s1.URL()); code != http.StatusOK {
		t.Fatalf("the first launch's URL: %d", code)
	}
	if code := load(s2.URL()); code != http.StatusOK {
		t.Fatalf("the second launch's URL: %d", code)
	}
	for _, s := range []*Server{s1, s2} {
		if code := load(s.Base() + "/"); code != http.StatusOK {
			t.Errorf("port %d reloaded after both launches were opened: %d, want 200", s.port, code)
		}
	}
}

// dialTable opens the table's socket as the page does.
func dialTable(t *testing.T, s *Server, path string) *websocket.Conn {
	t.Helper()
	h := http.Header{}
	h.Set("Origin", "http://"+s.host())
	h.Set("Cookie", s.cookieName()+"="+s.token)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+s.host()+path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// readUntil reads states until ok holds one, or fails after 3 seconds.
func readUntil[T any](t *testing.T, c *websocket.Conn, what string, ok func(T) bool) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			var zero T
			t.Errorf("%s: no such state (%v)", what, err)
			return zero
		}
		var st T
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		if ok(st) {
			return st
		}
	}
}

// TestTableSocketBadCommands: a frame the table cannot read, a command it
// does not know and a position off the rack each get a refusal on the
// message line (not a silent drop), and change nothing else.
func TestTableSocketBadCommands(t *testing.T) {
	s, g := testServer(t)
	c := dialTable(t, s, "/ws")
	first := readUntil(t, c, "the first state", func(stateJSON) bool { return true })
	for _, frame := range []string{`not json`, `{"op":`, `[1,2]`, `{"op":"fly"}`, `{"op":7}`, `{"op":"lift","slot":99}`,
		`{"op":"cursor","slot":-5}`, `{"op":"cursor","slot":30}`, `{"op":"move","slot":0,"to":1}`} {
		g.post(func() { g.m.Say("") })
		if err := c.Write(context.Background(), websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		st := readUntil(t, c, frame, func(st stateJSON) bool { return st.MsgBad && st.Msg != "" })
		if st.Cursor != first.Cursor || st.Lifted != first.Lifted || len(st.Rack) != len(first.Rack) {
			t.Errorf("%s changed the table: cursor %d lifted %d", frame, st.Cursor, st.Lifted)
		}
	}
	select {
	case <-g.Done():
		t.Fatal("a bad command left the table")
	default:
	}
}

// TestLobbySocketBadCommands: the lobby's socket answers a frame it cannot
// read and a command it does not know with a refusal on the message line,
// and asks the network for nothing.
func TestLobbySocketBadCommands(t *testing.T) {
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLobby(ctx, f, func(table.LobbyTable) {})
	s, err := ListenLobby(l, 0)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	defer s.Close()
	go l.Run()
	c := dialTable(t, s, "/lobby.ws")
	readUntil(t, c, "the first state", func(lobbyJSON) bool { return true })
	for _, frame := range []string{`not json`, `{"op":`, `{"op":"fly"}`, `{"op":["join"]}`, `{"op":"join","id":7}`} {
		l.Say("", false)
		if err := c.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		readUntil(t, c, frame, func(st lobbyJSON) bool { return st.Bad && st.Msg != "" && !st.Busy })
	}
	if calls := f.got(); len(calls) != 0 {
		t.Fatalf("bad commands reached the network: %v", calls)
	}
}

// TestLobbyLongPaste: a long text pasted in the invite code's box (a log
// file, a page of text: 40 KB) is refused with a sentence on the lobby's
// line, and the lobby's socket stays open (the page would otherwise say
// that okey's process is gone).
func TestLobbyLongPaste(t *testing.T) {
	f := &fakeLobby{changes: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := NewLobby(ctx, f, func(table.LobbyTable) {})
	s, err := ListenLobby(l, 0)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	defer s.Close()
	go l.Run()
	c := dialTable(t, s, "/lobby.ws")
	readUntil(t, c, "the first state", func(lobbyJSON) bool { return true })
	b, _ := json.Marshal(lobbyCommand{Op: "code", Text: "okey1" + strings.Repeat("x", 40<<10)})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	readUntil(t, c, "the long paste", func(st lobbyJSON) bool { return st.Bad && st.Msg != "" })
	if calls := f.got(); len(calls) != 0 {
		t.Fatalf("the long paste reached the network: %v", calls)
	}
}
