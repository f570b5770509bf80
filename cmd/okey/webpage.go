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
	sig, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := web.Launch{Out: stdout, NoOpen: noOpen, Served: webServed}.Frames(sig, f)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: the web table cannot listen: %s\n", ui.Plain(err)))
	}
	return err
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
		defer f.Follow(updates, ended)()
		return "", serveFrames(context.Background(), f, noOpen, stdout, stderr)
	}
}
