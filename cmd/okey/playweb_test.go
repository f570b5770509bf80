package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/web"
)

// TestPlayWebServesAndLeaves: okey play --web --bots 3 --no-open prints the
// table's address with its token, serves the page to that address only,
// and a leave from the page ends the command (the match saved).
func TestPlayWebServesAndLeaves(t *testing.T) {
	var stdout, stderr bytes.Buffer
	served := make(chan string, 1)
	f := botFlags{name: "ayse", data: t.TempDir(), strategy: "greedy", ruleset: "classic", bots: 3, web: true, noOpen: true,
		served: func(s *web.Server) {
			// The page, through the printed address (the token, then the cookie).
			jar := &cookieJar{}
			c := &http.Client{Jar: jar, Timeout: 5 * time.Second}
			resp, err := c.Get(s.URL())
			if err != nil {
				served <- err.Error()
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				served <- resp.Status
				return
			}
			if resp, err := http.Get(s.Base() + "/"); err != nil || resp.StatusCode != http.StatusForbidden {
				served <- "no token: not 403"
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			h := http.Header{"Cookie": {jar.line}}
			ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.Base(), "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
			if err != nil {
				served <- err.Error()
				return
			}
			defer ws.CloseNow()
			if _, _, err := ws.Read(ctx); err != nil {
				served <- err.Error()
				return
			}
			ws.Write(ctx, websocket.MessageText, []byte(`{"op":"leave"}`))
			served <- s.URL()
		}}
	code := playBots(f, &stdout, &stderr)
	got := <-served
	if code != 0 || !strings.HasPrefix(got, "http://127.0.0.1:") {
		t.Fatalf("exit %d, page check %q; stderr %s", code, got, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, got) || !strings.Contains(out, "left the table; the match is saved") {
		t.Fatalf("stdout:\n%s", out)
	}
}

// cookieJar keeps the one cookie the table sets.
type cookieJar struct{ line string }

func (j *cookieJar) SetCookies(_ *url.URL, cs []*http.Cookie) {
	for _, c := range cs {
		j.line = c.Name + "=" + c.Value
	}
}

func (j *cookieJar) Cookies(*url.URL) []*http.Cookie {
	if j.line == "" {
		return nil
	}
	k, v, _ := strings.Cut(j.line, "=")
	return []*http.Cookie{{Name: k, Value: v}}
}

func TestPlayWebRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"--web", "--preset", "101"},
		{"--web", "--bots", "3", "--preset", "101"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runPlay(args, strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--web") {
			t.Errorf("%v: exit %d, %q", args, code, stderr.String())
		}
	}
}
