package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// serveFrames serves a table seen from no seat (a spectator's or a
// replay's page, package web) at http://127.0.0.1:PORT/, prints the
// address with the launch's token, opens the browser unless noOpen (with
// no display it prints the address and goes on), and returns when the
// viewer leaves the page, ctx ends, or Ctrl-C.
func serveFrames(ctx context.Context, f *web.Frames, noOpen bool, stdout, stderr io.Writer) error {
	srv, err := web.ListenFrames(f, 0)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: the web table cannot listen: %s\n", ui.Plain(err)))
		return err
	}
	defer srv.Close()
	go srv.Serve()
	fmt.Fprint(stdout, i18n.T("okey: the table is at %s\n", srv.URL()))
	if !noOpen {
		if err := web.Open(srv.URL()); err != nil {
			fmt.Fprintln(stdout, i18n.T("okey: no browser to open here: open that address in a browser on this computer"))
		}
	}
	fmt.Fprintln(stdout, i18n.T("okey: Ctrl-C or the page's leave button leaves the table"))
	if webServed != nil {
		webServed(srv)
	}
	sig, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-f.Done():
	case <-sig.Done():
	}
	return nil
}

// webServed, when set (tests), is called with each page's server once it
// serves.
var webServed func(*web.Server)

// watchFront shows a watched table: the terminal's screen (ui.RunWatch) or
// the web page (webWatchAt). It returns the table to switch to ("": none).
type watchFront = func(names []string, ruleset string, o ui.Options, updates <-chan ui.WatchUpdate, ended <-chan ui.WatchEnd,
	tables func() []ui.WatchTable) (string, error)

// webWatchAt is okey watch --web's front: the spectator's page (package
// web) fed with the same updates the terminal's screen gets, until the
// viewer leaves the page or presses Ctrl-C.
func webWatchAt(noOpen bool, stdout, stderr io.Writer) watchFront {
	return func(names []string, ruleset string, _ ui.Options, updates <-chan ui.WatchUpdate, ended <-chan ui.WatchEnd,
		_ func() []ui.WatchTable) (string, error) {
		f := web.NewWatchPage(names, ruleset)
		defer feedFrames(f, updates, ended)()
		return "", serveFrames(context.Background(), f, noOpen, stdout, stderr)
	}
}

// feedFrames feeds the spectator's page f with a watch's updates and its
// end until stop is called.
func feedFrames(f *web.Frames, updates <-chan ui.WatchUpdate, ended <-chan ui.WatchEnd) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case u, ok := <-updates:
				if !ok {
					updates = nil
					continue
				}
				f.Add(u)
			case e := <-ended:
				f.End(e.Report, e.Why)
				ended = nil
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}
