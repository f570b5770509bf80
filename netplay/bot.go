package netplay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// ErrNoTableInTime is the error of a bot that found no table to sit at
// within BotOptions.Wait: a table that could not form, never a seat named.
var ErrNoTableInTime = errors.New("netplay: no table started in time")

// BotOptions is a headless player's run (okey bot): the matches it plays,
// one after the other, each with its own mover.
type BotOptions struct {
	// Matches is how many matches to play (the unfinished ones first).
	Matches int
	// Mover is the mover of a match's seat, given its table (its ruleset).
	Mover func(a lobby.Announcement) (table.Mover, error)
	// Play is each match's PlayOptions.
	Play PlayOptions
	// Seat is how each match after the unfinished ones is seated; Join and
	// Code seat the first of them only.
	Seat SeatOptions
	Join string
	Code *invite.Code
	// Wait bounds the search of a table for each match (0: for ever).
	Wait time.Duration
	// Links is how often the links to the table's other members are logged
	// while a match is played (0: every 5s).
	Links time.Duration
	// OnMatch is told of each match played (n from 1) and returns its exit
	// status: 0 honest, 1 a seat named, 2 damaged, 3 unfinished.
	OnMatch func(n int, a lobby.Announcement, o *Outcome) int
}

// RunBot plays o.Matches matches: first the unfinished ones kept in the
// data directory (resumed), then tables found or opened by FindSeat. It
// returns the worst exit status of the matches (1, then 2, then 3, then 0)
// and the error that stopped it: ErrNoTableInTime when no table started
// within o.Wait.
func (c *Client) RunBot(ctx context.Context, o BotOptions) (int, error) {
	status, played := 0, 0
	playOne := func(a lobby.Announcement) error {
		mover, err := o.Mover(a)
		if err != nil {
			return fmt.Errorf("table %s (%s): --strategy: %w", a.Table, a.Preset, err)
		}
		lctx, stopLinks := context.WithCancel(ctx)
		linksDone := make(chan struct{})
		go func() { // how this seat reaches the others, while it plays
			defer close(linksDone)
			c.logLinksEvery(lctx, a, o.Links)
		}()
		out, err := c.Play(ctx, a, mover, o.Play)
		stopLinks()
		<-linksDone
		if err != nil {
			return err
		}
		c.Done(a)
		played++
		LogTiming(c.log, a.Table, out.Timing)
		status = tournament.Worst(status, o.OnMatch(played, a, out))
		return nil
	}
	unfinished, err := c.Unfinished()
	if err != nil {
		return status, err
	}
	for _, a := range unfinished {
		if played >= o.Matches {
			break
		}
		c.log.Info("resuming an unfinished match", "table", a.Table)
		if err := playOne(a); err != nil {
			return status, err
		}
	}
	for played < o.Matches {
		so := o.Seat
		so.Join, so.Code = "", nil
		if played == 0 && len(unfinished) == 0 {
			so.Join, so.Code = o.Join, o.Code
		}
		fctx, cancel := ctx, context.CancelFunc(func() {})
		if o.Wait > 0 {
			fctx, cancel = context.WithTimeout(ctx, o.Wait)
		}
		a, err := c.FindSeat(fctx, so)
		cancel()
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrCannotForm) {
				// No table to sit at is a table that could not form.
				return status, ErrNoTableInTime
			}
			return status, err
		}
		if err := playOne(a); err != nil {
			return status, err
		}
	}
	return status, nil
}

// logLinksEvery logs the links to a's members every d until ctx ends.
func (c *Client) logLinksEvery(ctx context.Context, a lobby.Announcement, d time.Duration) {
	if d <= 0 {
		d = 5 * time.Second
	}
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			LogLinks(c.log, c.node, a)
		}
	}
}

// LogLinks logs how this seat reaches each other member (direct, relayed,
// via-member, none) and the round-trip time.
func LogLinks(log *slog.Logger, n *p2p.Node, a lobby.Announcement) {
	var parts []string
	for _, l := range n.Links(a.Roster()) {
		if l.Peer == n.ID() {
			continue
		}
		s := l.Peer.String()
		parts = append(parts, s[len(s)-6:]+"="+l.Kind.String()+"/"+l.RTT.Round(100*time.Microsecond).String())
	}
	log.Info("links", "table", a.Table, "members", strings.Join(parts, " "))
}

// LogTiming logs a seat's deal and draw latencies.
func LogTiming(log *slog.Logger, table string, t Timing) {
	q := func(ds []time.Duration, p int) time.Duration {
		if len(ds) == 0 {
			return 0
		}
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, (len(s)*p+99)/100-1)].Round(100 * time.Microsecond)
	}
	log.Info("timing", "table", table, "deal_max", slices.Max(append([]time.Duration{0}, t.Deals...)).Round(time.Millisecond),
		"draws", len(t.Draws), "draw_p50", q(t.Draws, 50), "draw_p99", q(t.Draws, 99))
}
