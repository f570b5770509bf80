package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
	"github.com/okey-game/okey/web"
)

// playBotsWeb plays against bots at a table in the player's browser: this
// process serves it at http://127.0.0.1:PORT/ (package web), prints the
// address with the launch's token, and opens the browser unless --no-open.
// With no display or no opener it prints the address and goes on. A new
// match starts at once (an unfinished one waits for --resume); the table
// stays served after the match's end until the player leaves the page or
// presses Ctrl-C.
func playBotsWeb(f botFlags, stdout, stderr io.Writer) int {
	d, code := openData(f.data, stderr)
	if code != 0 {
		return code
	}
	defer d.file.Close()
	dir, logger := d.dir, d.log
	o := localOptions(dir, f.pace, logger)
	o.Strategy, o.Player = f.strategy, f.player
	if f.resume {
		unfinished, err := ui.UnfinishedLocal(dir)
		if err != nil || len(unfinished) == 0 {
			fmt.Fprint(stderr, i18n.T("okey: --resume: no unfinished match against bots in %s\n", filepath.Join(dir, "matches")))
			return 2
		}
		resumeLocal(&o, unfinished[0])
	} else if !newLocalMatch(&o, f, stderr) {
		return 2
	}

	g := web.NewGame(0)
	g.Start()
	defer g.Quit()
	srv, err := web.Listen(g, 0)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: the web table cannot listen: %s\n", ui.Plain(err)))
		return 2
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	web.Launch{Out: stdout, NoOpen: f.noOpen, Served: f.served, Fail: func(err error) { logger.Error("web", "err", err) }}.Show(ctx, srv)
	return localOutcome(playLocalWeb(ctx, g, o, logger), stdout)
}

// resumeLocal makes o resume the unfinished match against bots m: its
// directory, its strategy and its bots.
func resumeLocal(o *ui.LocalOptions, m ui.LocalMatch) {
	o.Strategy, o.Resume, o.Bots = m.Strategy, m.Dir, makeBots(m.Ruleset, m.Strategy, "greedy", m.Bots())
}

// localOptions are the options of a match against bots in the data
// directory dir.
func localOptions(dir string, pace time.Duration, logger *slog.Logger) ui.LocalOptions {
	return ui.LocalOptions{Data: dir, Pace: pace, Log: logger,
		Identity: func(ref string) (ed25519.PrivateKey, error) { return loadLocalIdentity(dir, ref, false) }}
}

// newLocalMatch makes o a new match against f.bots bots: the person plays
// with the data directory's identity, each bot with its level's and
// slot's (DATA/bots/hard-1, ...), so that okey stats adds the matches up;
// false when an identity cannot be kept (said on stderr).
func newLocalMatch(o *ui.LocalOptions, f botFlags, stderr io.Writer) bool {
	ids, names, err := localIdentities(o.Data, f.strategy, f.bots)
	if err != nil {
		fmt.Fprint(stderr, i18n.T("okey: the identities of the match against bots: %s\n", ui.Plain(err)))
		return false
	}
	o.Ruleset, o.Name, o.Identities, o.BotName = f.ruleset, f.name, ids, uniqueBotNames(f.name, names)
	o.Bots = makeBots(f.ruleset, f.strategy, f.strategy, f.bots)
	return true
}

// playLocalWeb plays the match against bots o at the web table g; after
// its end the end panel stays up until the player leaves it (or ctx
// ends).
func playLocalWeb(ctx context.Context, g *web.Game, o ui.LocalOptions, logger *slog.Logger) *ui.LocalOutcome {
	out, err := ui.PlayLocal(ctx, g, o)
	if err != nil {
		logger.Error("play", "err", err)
		g.Finish(&ui.MatchEnd{Err: err})
		out = &ui.LocalOutcome{Err: err}
	}
	if out.Err == nil || !errors.Is(out.Err, ui.ErrQuit) {
		select {
		case <-g.Done():
		case <-ctx.Done():
		}
	}
	return out
}
