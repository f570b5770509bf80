package web

import (
	"context"
	"fmt"
	"io"

	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui"
)

// Launch puts a page before its player, as a command's --web does: the
// server's lifetime (serving, the page left when the command's context
// ends) is the package's, the command only says where to write and
// whether to open the browser.
type Launch struct {
	// Out is told the page's address, with the launch's token, and how
	// to leave it.
	Out io.Writer
	// NoOpen writes the address only: no browser is opened.
	NoOpen bool
	// Served, when set (tests), is called with the server once it serves.
	Served func(*Server)
	// Fail is told an error of serving (nil: none is reported).
	Fail func(error)
}

// Show serves s until s.Close (a lobby's page kept current, as Start
// does), writes its address to l.Out, opens the browser there unless
// l.NoOpen (with no browser to open, it says so and goes on: the address
// is written), says how to leave, and calls l.Served. When ctx ends, the
// table the page shows then is left, as its leave button leaves it (its
// Game or Frames quit), so that whatever waits on it returns.
func (l Launch) Show(ctx context.Context, s *Server) {
	fail := l.Fail
	if fail == nil {
		fail = func(error) {}
	}
	s.Start(fail)
	context.AfterFunc(ctx, func() {
		switch p := s.game().(type) {
		case *Game:
			p.Quit()
		case *Frames:
			p.Quit()
		}
	})
	if s.lobby != nil {
		fmt.Fprint(l.Out, i18n.T("okey: the lobby is at %s\n", s.URL()))
	} else {
		fmt.Fprint(l.Out, i18n.T("okey: the table is at %s\n", s.URL()))
	}
	if !l.NoOpen {
		if err := Open(s.URL()); err != nil {
			fmt.Fprintln(l.Out, i18n.T("okey: no browser to open here: open that address in a browser on this computer"))
		}
	}
	if s.lobby != nil {
		fmt.Fprintln(l.Out, i18n.T("okey: Ctrl-C ends the lobby"))
	} else {
		fmt.Fprintln(l.Out, i18n.T("okey: Ctrl-C or the page's leave button leaves the table"))
	}
	if l.Served != nil {
		l.Served(s)
	}
}

// Frames serves f, a table seen from no seat (a spectator's or a
// replay's page), as Show does, and returns when the viewer leaves the
// page or ctx ends; an error only when the server cannot listen.
func (l Launch) Frames(ctx context.Context, f *Frames) error {
	s, err := ListenFrames(f, 0)
	if err != nil {
		return err
	}
	defer s.Close()
	l.Show(ctx, s)
	select {
	case <-f.Done():
	case <-ctx.Done():
	}
	return nil
}

// Follow brings a spectator's page a watch's updates and its end (as the
// terminal's spectator screen takes them, ui.RunWatch) until stop is
// called.
func (f *Frames) Follow(updates <-chan ui.WatchUpdate, ended <-chan ui.WatchEnd) (stop func()) {
	done := make(chan struct{})
	ui.FollowWatch(updates, ended, f.Add, func(e ui.WatchEnd) { f.End(e.Report, e.Why) }, done)
	return func() { close(done) }
}
