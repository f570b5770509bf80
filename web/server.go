// Package web is okey's table in a web page: the player's own okey process
// serves it at http://127.0.0.1:PORT/ (okey play --web), drawing the same
// model the terminal draws (ui/tablemodel) in plain HTML, CSS and
// JavaScript modules embedded in the binary (go:embed: no build step, no
// resource from anywhere else, it works offline).
//
// Only the player gets in. The server listens on 127.0.0.1 (and ::1, on the
// same port, where the machine has it) alone. Each
// launch draws a random token (crypto/rand, 128 bits) that the printed URL
// carries once (/?t=TOKEN); the server answers it with an HttpOnly,
// SameSite=Strict cookie and a redirect to /, and from then on every
// request must carry that cookie. Every request's Host must be
// 127.0.0.1:PORT or localhost:PORT, so a foreign name pointed at the
// loopback address (DNS rebinding) gets 403; the WebSocket also checks its
// Origin against the same two; every answer carries a strict
// Content-Security-Policy (default-src 'none'; scripts, styles and images
// from the page's own origin only; connections to its own WebSocket). A
// request without the token gets 403 and changes nothing.
//
// The page receives only what the player's own view holds: the state
// (state.go) is built from the seat's Snapshot through the model, its
// faces from the seat's View and the hand's public faces, never a tile
// hidden from the seat.
//
// Every socket gets the table's state as the process holds it first, then
// each new one; a page whose socket drops while the process still serves
// it opens another (250 ms, doubling up to 4 s) and so takes the table up
// again. The process closes a socket normally only when the page is to end
// (the player left, the table ended). The page draws each state as it comes,
// touching only what changed.
//
// The WebSocket library is github.com/coder/websocket: it is maintained
// (gorilla/websocket, in go.sum through libp2p, was archived for a time and
// its API predates context), it takes a context on every read and write, it
// checks the Origin itself (AcceptOptions.OriginPatterns, empty: the
// request's own Host only), and it has no dependency of its own.
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/okey-game/okey/internal/i18n"
)

//go:embed static
var static embed.FS

// cookiePrefix begins the name of the session cookie that carries the
// token; the port ends it (cookieName). A browser keeps cookies by host,
// not by port: under one name, a second okey launch on this machine would
// replace the first's cookie and lock the first's page out.
const cookiePrefix = "okey_token_"

// cookieName is the name of this server's session cookie.
func (s *Server) cookieName() string { return cookiePrefix + strconv.Itoa(s.port) }

// CSP is the Content-Security-Policy of every answer.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// page is what a Server serves: the states of one table (a seat's Game,
// or Frames seen from no seat) and the page's commands.
type page interface {
	subscribe() (chan []byte, func())
	do(c command)
	Done() <-chan struct{}
	left() bool // the viewer left: the page no longer plays
}

// offer queues state b for a page's socket (c); a slow page's queue
// being full, its oldest state gives way: a page may miss states between,
// never the newest (after which there may be none: a verdict, a last
// word). The caller holds the lock that guards the page's subscribers.
func offer(c chan []byte, b []byte) {
	for {
		select {
		case c <- b:
			return
		default:
		}
		select {
		case <-c:
		default:
		}
	}
}

// refuser is a page with a message line: a frame it cannot read is
// refused there (the table's).
type refuser interface{ refuse(msg string) }

// Server serves one table's page to its viewer's browser.
type Server struct {
	g     page
	token string
	port  int
	ln    net.Listener
	ln6   net.Listener // [::1] on the same port, where the machine has IPv6 loopback (else nil)
	srv   *http.Server
	files http.Handler
	sub   fs.FS
	lobby *Lobby     // the lobby's page (ListenLobby; nil: the table alone)
	gmu   sync.Mutex // guards g (SetGame)
}

// Listen opens the table's server on 127.0.0.1 (port 0: any free port).
func Listen(g *Game, port int) (*Server, error) {
	if g == nil {
		// No table yet (the lobby's server): a nil page, not a nil *Game.
		return listen(nil, port)
	}
	return listen(g, port)
}

// ListenFrames opens the server of a table seen from no seat (a
// spectator's or a replay's page), as Listen does.
func ListenFrames(f *Frames, port int) (*Server, error) { return listen(f, port) }

func listen(g page, port int) (*Server, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		ln.Close()
		return nil, err
	}
	sub, _ := fs.Sub(static, "static")
	s := &Server{g: g, token: hex.EncodeToString(b[:]), port: ln.Addr().(*net.TCPAddr).Port, ln: ln,
		files: http.FileServerFS(sub), sub: sub}
	// The IPv6 loopback too, on the same port, so that a browser that
	// resolves localhost to ::1 first finds the table there; a machine
	// without it (or with the port taken there) is served on 127.0.0.1 alone.
	if ln6, err := net.Listen("tcp", net.JoinHostPort("::1", strconv.Itoa(s.port))); err == nil {
		s.ln6 = ln6
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// Serve serves until Close (on [::1] too, where it listens there).
func (s *Server) Serve() error {
	if s.ln6 != nil {
		go func() { _ = s.srv.Serve(s.ln6) }() // ends with Close, as the first
	}
	if err := s.srv.Serve(s.ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// URL is the address to open, with the launch's token: print it only to
// the player.
func (s *Server) URL() string { return s.Base() + "/?t=" + s.token }

// Base is the server's address without the token.
func (s *Server) Base() string { return "http://127.0.0.1:" + strconv.Itoa(s.port) }

// Port is the port the server listens on.
func (s *Server) Port() int { return s.port }

// hostOK reports whether a request's Host is this server's own.
func (s *Server) hostOK(host string) bool {
	p := strconv.Itoa(s.port)
	return host == "127.0.0.1:"+p || host == "localhost:"+p || (s.ln6 != nil && host == "[::1]:"+p)
}

func (s *Server) tokenOK(t string) bool {
	return len(t) == len(s.token) && subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// ServeHTTP checks the locks, then serves the page, its files and the
// WebSocket.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !s.hostOK(r.Host) {
		http.Error(w, "403 forbidden: not this table's host", http.StatusForbidden)
		return
	}
	if t := r.URL.Query().Get("t"); t != "" && r.URL.Path == "/" && r.Method == http.MethodGet {
		if !s.tokenOK(t) {
			http.Error(w, "403 forbidden", http.StatusForbidden)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		// The token leaves the address bar (and the history).
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(s.cookieName())
	if err != nil || !s.tokenOK(c.Value) {
		http.Error(w, "403 forbidden: open the address okey printed", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if s.lobby != nil && s.serveLobby(w, r) {
		return
	}
	switch r.URL.Path {
	case "/ws":
		s.socket(w, r)
	default:
		s.files.ServeHTTP(w, r)
	}
}

// socket is the page's WebSocket: states out, commands in.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	// Origin: the page's own (127.0.0.1:PORT or localhost:PORT); coder's
	// check with no patterns admits only the request's Host, which hostOK
	// has already held to those two.
	g := s.game()
	if g == nil || g.left() {
		http.Error(w, "404 no table is being played", http.StatusNotFound)
		return
	}
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	states, unsub := g.subscribe()
	defer unsub()
	go func() {
		defer cancel()
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				return
			}
			var c command
			if json.Unmarshal(b, &c) != nil {
				if r, ok := g.(refuser); ok {
					r.refuse(i18n.T("the page sent a command okey cannot read"))
				}
				continue
			}
			g.do(c)
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
		case <-g.Done():
			// Send the last states (the player left: published before
			// Done), then close.
			for len(states) > 0 {
				wctx, wc := context.WithTimeout(ctx, 5*time.Second)
				err := conn.Write(wctx, websocket.MessageText, <-states)
				wc()
				if err != nil {
					return
				}
			}
			conn.Close(websocket.StatusNormalClosure, "")
			return
		case <-ctx.Done():
			return
		}
	}
}
