package web

import (
	"context"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// testServer is a server for a Game that plays nothing, serving on its
// loopback port.
func testServer(t *testing.T) (*Server, *Game) {
	t.Helper()
	g := NewGame(0)
	g.Start()
	t.Cleanup(g.Quit)
	return serve(t)(Listen(g, 0)), g
}

func (s *Server) host() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// get runs one request through the server's handler.
func get(s *Server, host, target string, cookie *http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Host = host
	if cookie != nil {
		r.AddCookie(cookie)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func (s *Server) cookie() *http.Cookie { return &http.Cookie{Name: s.cookieName(), Value: s.token} }

func TestTokenGivesStrictCookie(t *testing.T) {
	s, _ := testServer(t)
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.Contains(s.URL(), "/?t="+s.token) {
		t.Fatalf("URL %q", s.URL())
	}
	if len(s.token) != 32 {
		t.Fatalf("token of %d hex digits, want 32 (128 bits)", len(s.token))
	}
	w := get(s, s.host(), "/?t="+s.token, nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
		t.Fatalf("the token's answer: %d to %q, want 303 to /", w.Code, w.Header().Get("Location"))
	}
	cs := w.Result().Cookies()
	if len(cs) != 1 {
		t.Fatalf("%d cookies", len(cs))
	}
	c := cs[0]
	if c.Name != s.cookieName() || c.Value != s.token || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" {
		t.Fatalf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/ with the token", c)
	}
	// With the cookie: the page.
	if w := get(s, s.host(), "/", s.cookie()); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `src="/app.js"`) {
		t.Fatalf("the page with the cookie: %d", w.Code)
	}
	// A second launch's token is another.
	s2, _ := testServer(t)
	if s2.token == s.token {
		t.Fatal("two launches drew the same token")
	}
}

func TestNoTokenForbidden(t *testing.T) {
	s, g := testServer(t)
	before := g.snapshotState(t)
	for _, c := range []struct {
		target string
		cookie *http.Cookie
	}{
		{"/", nil}, {"/app.js", nil}, {"/style.css", nil}, {"/ws", nil}, {"/index.html", nil},
		{"/?t=" + strings.Repeat("0", 32), nil},
		{"/?t=" + s.token[:31], nil},
		{"/", &http.Cookie{Name: s.cookieName(), Value: strings.Repeat("a", 32)}},
		{"/ws", &http.Cookie{Name: s.cookieName(), Value: ""}},
		{"/", &http.Cookie{Name: "other", Value: s.token}},
	} {
		w := get(s, s.host(), c.target, c.cookie)
		if w.Code != http.StatusForbidden {
			t.Errorf("%s (cookie %v): %d, want 403", c.target, c.cookie, w.Code)
		}
		if strings.Contains(w.Body.String(), "<script") || len(w.Result().Cookies()) != 0 {
			t.Errorf("%s: a forbidden answer carries the page or a cookie", c.target)
		}
	}
	// A command without the token reaches nothing: the model is as it was.
	r := httptest.NewRequest(http.MethodGet, "/ws", strings.NewReader(`{"op":"leave"}`))
	r.Host = s.host()
	s.ServeHTTP(httptest.NewRecorder(), r)
	if after := g.snapshotState(t); after != before {
		t.Fatal("a request without the token changed the table")
	}
	select {
	case <-g.Done():
		t.Fatal("a request without the token left the table")
	default:
	}
}

// snapshotState is the state the model publishes now.
func (g *Game) snapshotState(t *testing.T) string {
	t.Helper()
	c, stop := g.subscribe()
	defer stop()
	select {
	case b := <-c:
		return string(b)
	case <-time.After(5 * time.Second):
		t.Fatal("no state")
		return ""
	}
}

func TestHostChecked(t *testing.T) {
	s, _ := testServer(t)
	p := strconv.Itoa(s.port)
	for _, h := range []string{"evil.example:" + p, "evil.example", "127.0.0.1", "localhost", "127.0.0.1:1", "127.0.0.2:" + p,
		"[::1]:1", "[::2]:" + p, "localhost.evil.example:" + p, ""} {
		if w := get(s, h, "/", s.cookie()); w.Code != http.StatusForbidden {
			t.Errorf("Host %q: %d, want 403", h, w.Code)
		}
		if w := get(s, h, "/?t="+s.token, nil); w.Code != http.StatusForbidden || len(w.Result().Cookies()) != 0 {
			t.Errorf("Host %q with the token: %d, want 403 and no cookie", h, w.Code)
		}
	}
	ok := []string{"127.0.0.1:" + p, "localhost:" + p}
	if s.ln6 != nil {
		ok = append(ok, "[::1]:"+p)
	} else if w := get(s, "[::1]:"+p, "/", s.cookie()); w.Code != http.StatusForbidden {
		t.Errorf("Host [::1] with no IPv6 loopback: %d, want 403", w.Code)
	}
	for _, h := range ok {
		if w := get(s, h, "/", s.cookie()); w.Code != http.StatusOK {
			t.Errorf("Host %q: %d, want 200", h, w.Code)
		}
	}
}

// TestListensOnLoopbackOnly: the server answers on 127.0.0.1 and, where
// the machine has it, on [::1] at the same port, and on no other address.
func TestListensOnLoopbackOnly(t *testing.T) {
	s, _ := testServer(t)
	if a := s.ln.Addr().(*net.TCPAddr); !a.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("listens on %v", a)
	}
	if s.ln6 == nil {
		t.Skip("no IPv6 loopback here")
	}
	if a := s.ln6.Addr().(*net.TCPAddr); !a.IP.Equal(net.IPv6loopback) || a.Port != s.port {
		t.Fatalf("the IPv6 listener is on %v, want [::1]:%d", a, s.port)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	req, _ := http.NewRequest(http.MethodGet, "http://[::1]:"+strconv.Itoa(s.port)+"/?t="+s.token, nil)
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("over [::1] with the token: %d, %d cookies; want 303 and the cookie", resp.StatusCode, len(resp.Cookies()))
	}
}

func TestCSPOnEveryAnswer(t *testing.T) {
	s, _ := testServer(t)
	for _, w := range []*httptest.ResponseRecorder{
		get(s, s.host(), "/", s.cookie()), get(s, s.host(), "/app.js", s.cookie()), get(s, s.host(), "/", nil),
		get(s, "evil.example", "/", s.cookie()), get(s, s.host(), "/?t="+s.token, nil),
	} {
		csp := w.Header().Get("Content-Security-Policy")
		if csp != CSP {
			t.Errorf("answer %d: CSP %q", w.Code, csp)
		}
	}
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(CSP, want) {
			t.Errorf("CSP lacks %s", want)
		}
	}
	if strings.Contains(CSP, "unsafe") || strings.Contains(CSP, "*") || strings.Contains(CSP, "http") {
		t.Errorf("CSP not strict: %s", CSP)
	}
}

// TestEmbeddedOnly: the page loads nothing from anywhere else, and its
// script and style are files (no inline code the CSP would have to allow).
func TestEmbeddedOnly(t *testing.T) {
	ext := regexp.MustCompile(`(?i)(https?:|wss?:)?//[a-z0-9.-]+\.[a-z]{2,}|@import|<script>|style="`)
	err := fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := static.ReadFile(path)
		if m := ext.Find(b); m != nil {
			t.Errorf("%s: %q reaches outside the embedded files or needs inline code", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestWebSocketOrigin(t *testing.T) {
	s, _ := testServer(t)
	dial := func(origin, host string, cookie bool) (*websocket.Conn, int, error) {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		if cookie {
			h.Set("Cookie", s.cookieName()+"="+s.token)
		}
		if host != "" {
			h.Set("Host", host)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, resp, err := websocket.Dial(ctx, "ws://"+s.host()+"/ws", &websocket.DialOptions{HTTPHeader: h})
		code := 0
		if resp != nil {
			code = resp.StatusCode
			if resp.Body != nil {
				io.Copy(io.Discard, resp.Body)
			}
		}
		return c, code, err
	}
	for _, o := range []string{"http://evil.example", "http://evil.example:" + strconv.Itoa(s.port), "null", "http://127.0.0.1:1", "https://127.0.0.1:" + strconv.Itoa(s.port) + ".evil.example"} {
		if c, code, err := dial(o, "", true); err == nil || code != http.StatusForbidden {
			if c != nil {
				c.CloseNow()
			}
			t.Errorf("Origin %q: %d %v, want 403", o, code, err)
		}
	}
	if _, code, err := dial("http://"+s.host(), "", false); err == nil || code != http.StatusForbidden {
		t.Errorf("no cookie: %d %v, want 403", code, err)
	}
	c, _, err := dial("http://"+s.host(), "", true)
	if err != nil {
		t.Fatalf("the page's own origin: %v", err)
	}
	defer c.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, b, err := c.Read(ctx); err != nil || !strings.Contains(string(b), `"labels"`) {
		t.Fatalf("no state on the socket: %v", err)
	}
}

func TestOpenerNeedsDisplay(t *testing.T) {
	none := func(string) string { return "" }
	if a := opener(none, "linux", "u"); a != nil {
		t.Fatalf("no display: %v, want nothing to run", a)
	}
	x := func(k string) string {
		if k == "DISPLAY" {
			return ":0"
		}
		return ""
	}
	if a := opener(x, "linux", "u"); len(a) != 2 || a[0] != "xdg-open" {
		t.Fatalf("a display: %v", a)
	}
	if a := opener(none, "darwin", "u"); len(a) != 2 || a[0] != "open" {
		t.Fatalf("darwin: %v", a)
	}
}

// serve serves the server a Listen gave (failing the test on its error)
// until the test's end: serve(t)(Listen(g, 0)).
func serve(t *testing.T) func(*Server, error) *Server {
	return func(s *Server, err error) *Server {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		go s.Serve()
		t.Cleanup(func() { s.Close() })
		return s
	}
}
