package main

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// TestReplayWeb: okey replay --web --no-open FILE serves the replay's page
// at the printed address (the token, then the cookie): its state is a
// table seen from no seat at the first frame with the verdict; a step and
// the leave button work; the command then prints the verdict and exits
// with verify's status.
func TestReplayWeb(t *testing.T) {
	lane.NoRace(t)
	dir := t.TempDir()
	code, out, errs := runOkey(t, "", "sim", "--players", "4", "--preset", "101:rounds=3", "--seed", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s %s", code, out, errs)
	}
	got := make(chan string, 1)
	webServed = func(s *web.Server) {
		go func() { got <- readFramesPage(s) }()
	}
	defer func() { webServed = nil }()
	code, out, errs = runOkey(t, "", "replay", "--web", "--no-open", filepath.Join(dir, "match-000.okey"))
	if code != 0 || !strings.Contains(out, "the table is at http://127.0.0.1:") || !strings.Contains(out, "honest") {
		t.Fatalf("replay --web: exit %d: %s %s", code, out, errs)
	}
	if g := <-got; g != "" {
		t.Fatal(g)
	}
}

// readFramesPage opens a frames page through its address, checks its
// state, steps once and leaves; it returns what was wrong ("" nothing).
func readFramesPage(s *web.Server) string {
	jar := &cookieJar{}
	c := &http.Client{Jar: jar, Timeout: 5 * time.Second}
	resp, err := c.Get(s.URL())
	if err != nil {
		return err.Error()
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.Status
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.Base(), "http")+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Cookie": {jar.line}}})
	if err != nil {
		return err.Error()
	}
	defer ws.CloseNow()
	defer leavePage(ws)
	type state struct {
		Rack  []json.RawMessage `json:"rack"`
		Board *struct {
			Mode    string `json:"mode"`
			At      int    `json:"at"`
			Verdict string `json:"verdict"`
		} `json:"board"`
	}
	read := func() (state, string) {
		var st state
		_, b, err := ws.Read(ctx)
		if err != nil {
			return st, err.Error()
		}
		if err := json.Unmarshal(b, &st); err != nil || st.Board == nil {
			return st, "not a frames page: " + string(b)
		}
		return st, ""
	}
	st, bad := read()
	if bad != "" {
		return bad
	}
	if st.Board.Mode != "replay" || st.Board.At != 1 || !strings.Contains(st.Board.Verdict, "honest") || len(st.Rack) != 0 {
		return "the replay's first state: " + st.Board.Mode + " " + st.Board.Verdict
	}
	ws.Write(ctx, websocket.MessageText, []byte(`{"op":"forward"}`))
	if st, bad = read(); bad != "" || st.Board.At != 2 {
		return "a step forward: " + bad
	}
	return ""
}

// TestWatchWebFront: okey watch --web's front serves the spectator's page
// (a table seen from no seat, in watch mode) fed with the updates the
// terminal's screen would get; the watch's end shows there; the page's
// leave ends the front.
func TestWatchWebFront(t *testing.T) {
	var stdout, stderr strings.Builder
	updates := make(chan ui.WatchUpdate)
	ended := make(chan ui.WatchEnd, 1)
	ended <- ui.WatchEnd{Why: "stopped for the test"}
	got := make(chan string, 1)
	webServed = func(s *web.Server) {
		go func() {
			jar := &cookieJar{}
			c := &http.Client{Jar: jar, Timeout: 5 * time.Second}
			resp, err := c.Get(s.URL())
			if err != nil {
				got <- err.Error()
				return
			}
			resp.Body.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.Base(), "http")+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Cookie": {jar.line}}})
			if err != nil {
				got <- err.Error()
				return
			}
			defer ws.CloseNow()
			defer leavePage(ws)
			for {
				_, b, err := ws.Read(ctx)
				if err != nil {
					got <- err.Error()
					return
				}
				var st struct {
					Board *struct {
						Mode    string `json:"mode"`
						Verdict string `json:"verdict"`
					} `json:"board"`
				}
				if json.Unmarshal(b, &st) != nil || st.Board == nil || st.Board.Mode != "watch" {
					got <- "not a spectator's page: " + string(b)
					return
				}
				if st.Board.Verdict == "stopped for the test" {
					got <- ""
					return
				}
			}
		}()
	}
	defer func() { webServed = nil }()
	next, err := webWatchAt(true, &stdout, &stderr)([]string{"ayse", "ali"}, "classic", ui.Options{}, updates, ended, nil)
	if next != "" || err != nil || !strings.Contains(stdout.String(), "the table is at http://127.0.0.1:") {
		t.Fatalf("the watch's web front: %q %v; %s %s", next, err, stdout.String(), stderr.String())
	}
	if g := <-got; g != "" {
		t.Fatal(g)
	}
}
