package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
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
		if st, yes := decoded(t, b, ok); yes {
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
	last := first
	for _, frame := range []string{`not json`, `{"op":`, `[1,2]`, `{"op":"fly"}`, `{"op":7}`, `{"op":"lift","slot":99}`,
		`{"op":"cursor","slot":-5}`, `{"op":"cursor","slot":30}`, `{"op":"move","slot":0,"to":1}`} {
		// The message line cleared and that state read before the frame:
		// the game draws once for what was queued together, and a state
		// equal to the last one sent (the same refusal again) is not sent.
		g.post(func() { g.m.Say("") })
		if last.Msg != "" {
			readUntil(t, c, "the message line cleared", func(st stateJSON) bool { return st.Msg == "" })
		}
		if err := c.Write(context.Background(), websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		st := readUntil(t, c, frame, func(st stateJSON) bool { return st.MsgBad && st.Msg != "" })
		last = st
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
	l, s, ctx := serveLobby(t, f, func(table.LobbyTable) {})
	c := dialTable(t, s, "/lobby.ws")
	last := readUntil(t, c, "the first state", func(lobbyJSON) bool { return true })
	for _, frame := range []string{`not json`, `{"op":`, `{"op":"fly"}`, `{"op":["join"]}`, `{"op":"join","id":7}`} {
		// Cleared and read before the frame, as in TestTableSocketBadCommands.
		l.Say("", false)
		if last.Msg != "" {
			readUntil(t, c, "the message line cleared", func(st lobbyJSON) bool { return st.Msg == "" })
		}
		if err := c.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		last = readUntil(t, c, frame, func(st lobbyJSON) bool { return st.Bad && st.Msg != "" && !st.Busy })
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
	_, s, ctx := serveLobby(t, f, func(table.LobbyTable) {})
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

// TestCommandsOutOfTurnAndAfterTheEnd: the player's seat is the page's (it
// draws and discards when asked); whenever another seat is to move, every
// move a page may send is refused with a reason and sends nothing, and
// after the match's end every command is refused or harmless: no move
// sent, no panic, the state still built.
func TestCommandsOutOfTurnAndAfterTheEnd(t *testing.T) {
	lane.NoRace(t)
	g := NewGame(0)
	g.Start()
	defer g.Quit()
	states, unsub := g.subscribe()
	defer unsub()
	bots, names := greedyBots(3)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	type result struct {
		out *ui.LocalOutcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := ui.PlayLocal(ctx, g, ui.LocalOptions{Ruleset: "classic:points=1", Name: "ayse", Bots: bots, BotName: names})
		done <- result{out, err}
	}()
	bad := []command{{Op: "draw"}, {Op: "take"}, {Op: "discard", Slot: -1}, {Op: "discard", Slot: 0}, {Op: "win", Slot: -1}, {Op: "show"}}
	outOfTurn := 0
	// tryBad runs on the model's goroutine: if another seat is to move,
	// every move is refused and nothing is sent.
	tryBad := func() {
		m := g.m
		h := m.Snap.HandState()
		if m.MyMove() || h == nil || h.Phase() != engine.PhasePlay {
			return
		}
		sent := m.Sent
		for _, c := range bad {
			m.Say("")
			g.apply(c)
			if m.Sent != sent || !m.MsgBad || m.Msg == "" {
				t.Errorf("%s out of turn: sent %d (was %d), message %q bad %v", c.Op, m.Sent, sent, m.Msg, m.MsgBad)
			}
		}
		outOfTurn++
	}
	var r result
	var last stateJSON
play:
	for {
		select {
		case b := <-states:
			var st stateJSON
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			last = st
			switch {
			case st.HandEnd != nil:
				g.do(command{Op: "close"})
			case st.MyMove && st.Actions["draw"].On:
				g.do(command{Op: "draw"})
			case st.MyMove && st.Actions["discard"].On && len(st.Rack) > 0:
				g.do(command{Op: "discard", Slot: st.Rack[len(st.Rack)-1].Pos})
			default:
				g.post(tryBad)
			}
		case r = <-done:
			break play
		case <-ctx.Done():
			t.Fatalf("the match did not end: %q %q my move %v actions %v", last.Turn, last.Msg, last.MyMove, last.Actions)
		}
	}
	if r.err != nil || r.out.Err != nil {
		t.Fatalf("the match: %v %v", r.err, r.out)
	}
	end := make(chan struct{})
	g.post(func() {
		defer close(end)
		m := g.m
		if m.Final == nil {
			t.Error("no match end shown")
		}
		sent := m.Sent
		all := append(bad, command{Op: "move", Slot: 0, To: 29}, command{Op: "lift", Slot: 1}, command{Op: "putback"},
			command{Op: "sets"}, command{Op: "runs"}, command{Op: "pairs"}, command{Op: "undo"}, command{Op: "hint"},
			command{Op: "close"}, command{Op: "cursor", Slot: 3}, command{Op: "fly"})
		for _, c := range all {
			g.apply(c)
			if _, err := json.Marshal(g.build()); err != nil {
				t.Errorf("%s after the end: %v", c.Op, err)
			}
			if m.Sent != sent {
				t.Errorf("%s after the end sent a move", c.Op)
			}
		}
		for _, c := range bad {
			m.Say("")
			g.apply(c)
			if !m.MsgBad || m.Msg == "" {
				t.Errorf("%s after the end: no refusal (%q)", c.Op, m.Msg)
			}
		}
	})
	<-end
	if outOfTurn == 0 {
		t.Fatal("no state with another seat to move was tried")
	}
	t.Logf("%d moments out of turn tried", outOfTurn)
}

// TestSecondTabAndReopen: two pages of one table get the same states, a
// command from either reaches the one model, and a page closed and opened
// again gets the table as it is now.
func TestSecondTabAndReopen(t *testing.T) {
	s, g := testServer(t)
	a := dialTable(t, s, "/ws")
	b := dialTable(t, s, "/ws")
	readUntil(t, a, "tab a's first state", func(stateJSON) bool { return true })
	readUntil(t, b, "tab b's first state", func(stateJSON) bool { return true })
	if err := a.Write(context.Background(), websocket.MessageText, []byte(`{"op":"lift","slot":99}`)); err != nil {
		t.Fatal(err)
	}
	first := readUntil(t, b, "tab a's command on tab b", func(st stateJSON) bool { return st.MsgBad })
	a.Close(websocket.StatusGoingAway, "")
	if err := b.Write(context.Background(), websocket.MessageText, []byte(`{"op":"fly"}`)); err != nil {
		t.Fatal(err)
	}
	now := readUntil(t, b, "tab b's command", func(st stateJSON) bool { return st.MsgBad && st.Msg != first.Msg })
	c := dialTable(t, s, "/ws")
	if st := readUntil(t, c, "the reopened page's first state", func(stateJSON) bool { return true }); st.Msg != now.Msg {
		t.Fatalf("the reopened page shows %q, want %q (the table as it is)", st.Msg, now.Msg)
	}
	select {
	case <-g.Done():
		t.Fatal("closing a page left the table")
	default:
	}
}

// TestLobbyLongRelayLine: a relay line too long to be one is refused as a
// relay line, not as an invite code.
func TestLobbyLongRelayLine(t *testing.T) {
	fl := &fakeLobby{changes: make(chan struct{}, 1)}
	l := NewLobby(context.Background(), fl, func(table.LobbyTable) {})
	l.do(lobbyCommand{Op: "relay", Text: strings.Repeat("r", maxPasted+1)})
	l.mu.Lock()
	msg, bad := l.msg, l.bad
	l.mu.Unlock()
	if !bad || strings.Contains(msg, "invite") || !strings.Contains(msg, "relay") {
		t.Fatalf("a long relay line: %q (bad %v), want a refusal of the relay line", msg, bad)
	}
	if calls := fl.got(); len(calls) != 0 {
		t.Fatalf("the long line reached the network: %v", calls)
	}
}

// TestTableHugeFrame: a frame over the table socket's limit (32 KB: the
// page's commands are tens of bytes) closes that socket with "message too
// big", changes nothing at the table, and a page opened again plays on.
func TestTableHugeFrame(t *testing.T) {
	s, g := testServer(t)
	c := dialTable(t, s, "/ws")
	readUntil(t, c, "the first state", func(stateJSON) bool { return true })
	huge := `{"op":"leave","pad":"` + strings.Repeat("x", 1<<20) + `"}`
	c.Write(context.Background(), websocket.MessageText, []byte(huge)) // the server may close before it is all written
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Fatalf("the huge frame's socket ended with %v, want message too big", err)
			}
			break
		}
	}
	select {
	case <-g.Done():
		t.Fatal("a huge frame's command was run: the player left")
	default:
	}
	d := dialTable(t, s, "/ws")
	readUntil(t, d, "the next page's first state", func(stateJSON) bool { return true })
}

// TestLeaveSaysSaved: the page's leave button ends the table's socket,
// but first the page is told that the player left and that the match is
// saved to resume (the "left" sentence the page holds), not left to say
// that okey's process is gone.
func TestLeaveSaysSaved(t *testing.T) {
	s, g := testServer(t)
	c := dialTable(t, s, "/ws")
	readUntil(t, c, "the first state", func(stateJSON) bool { return true })
	if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"op":"leave"}`)); err != nil {
		t.Fatal(err)
	}
	want := labels()["left"]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var msgs []string
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			break
		}
		var st map[string]any
		if json.Unmarshal(b, &st) == nil {
			if m, _ := st["msg"].(string); m != "" {
				msgs = append(msgs, m)
			}
			if st["msg"] == want && st["left"] == true {
				return
			}
		}
	}
	<-g.Done()
	t.Fatalf("the page was not told it left (messages %q), want %q with left", msgs, want)
}

// lastOf drains c and returns the last state in it.
func lastOf(t *testing.T, c chan []byte) []byte {
	t.Helper()
	var last []byte
	for {
		select {
		case b := <-c:
			last = b
		default:
			if last == nil {
				t.Fatal("no state")
			}
			return last
		}
	}
}

// TestSlowPageGetsTheNewestState: a page that reads slowly (its queue of
// states full) may miss states between, never the newest: a spectator's
// page would otherwise keep a table without its verdict, a replay's a
// frame it stepped past, and a table's its last word (they publish no
// more after it).
func TestSlowPageGetsTheNewestState(t *testing.T) {
	t.Run("watch", func(t *testing.T) {
		f := NewWatchPage([]string{"ayse", "ali"}, "classic")
		c, stop := f.subscribe()
		defer stop()
		for i := range 8 {
			f.End(nil, fmt.Sprintf("stopped %d", i))
		}
		var st stateJSON
		if err := json.Unmarshal(lastOf(t, c), &st); err != nil {
			t.Fatal(err)
		}
		if st.Board == nil || st.Board.Verdict != "stopped 7" {
			t.Fatalf("the slow page's last state: %+v, want the verdict %q", st.Board, "stopped 7")
		}
	})
	t.Run("table", func(t *testing.T) {
		g := NewGame(0)
		g.Start()
		defer g.Quit()
		c, stop := g.subscribe()
		defer stop()
		done := make(chan struct{})
		g.post(func() {
			for i := range 8 {
				g.m.Say(fmt.Sprintf("word %d", i))
				g.publish()
			}
			close(done)
		})
		<-done
		var st stateJSON
		if err := json.Unmarshal(lastOf(t, c), &st); err != nil {
			t.Fatal(err)
		}
		if st.Msg != "word 7" {
			t.Fatalf("the slow page's last state says %q, want %q", st.Msg, "word 7")
		}
	})
	t.Run("lobby", func(t *testing.T) {
		l := NewLobby(context.Background(), &fakeLobby{changes: make(chan struct{}, 1)}, func(table.LobbyTable) {})
		c, stop := l.subscribe()
		defer stop()
		for i := range 8 {
			l.mu.Lock()
			l.msg = fmt.Sprintf("word %d", i)
			l.mu.Unlock()
			l.publish()
		}
		var st lobbyJSON
		if err := json.Unmarshal(lastOf(t, c), &st); err != nil {
			t.Fatal(err)
		}
		if st.Msg != "word 7" {
			t.Fatalf("the slow page's last state says %q, want %q", st.Msg, "word 7")
		}
	})
}
