package netplay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/lobby"
)

// AutoTablePrefix starts the id of a table that FindSeat created on its own
// (neither Create nor Join). It sorts after every hex digit, so that peers
// looking for a table prefer any table a person (or Create) opened, whose id
// is plain hex, to one a peer opened automatically.
const AutoTablePrefix = "z"

// SeatOptions says how FindSeat gets this peer to a table.
type SeatOptions struct {
	// Create opens a new table (Ruleset, Players) and waits for it to fill.
	Create bool
	// Join takes a seat at the table with this id.
	Join string
	// Code takes a seat at the table of this invite code: it reaches the
	// creator from the code (no discovery needed) and proves it holds the
	// code's secret.
	Code *invite.Code
	// Private makes the table Create opens private: it admits by invite
	// code only (Client.Invite gives the code).
	Private bool
	// OnCreate is called when this peer has opened a table (Create, or
	// the automatic way), before it waits for the table to fill.
	OnCreate func(lobby.Announcement)
	// With neither Create nor Join, FindSeat joins an open table or creates
	// one (see FindSeat).
	//
	// Ruleset and Players describe the table to create (defaults "classic"
	// and 4). When Match is set, only open tables with exactly this ruleset
	// and number of seats are joined.
	Ruleset string
	Players int
	Match   bool
	// Settle is how long to listen for announced tables before creating one
	// (default 1 s: creators announce their tables to every peer that joins
	// the lobby, at once).
	Settle time.Duration
}

// FindSeat gets this peer a seat at a table and waits until the table has
// started; it returns the started announcement for Play. Every seat it takes
// is marked ready at once (a bot is always ready).
//
// With neither Create nor Join it converges with other peers doing the same:
// it considers the open tables with a free seat (or with this peer seated)
// and goes to the one with the smallest id (so tables opened on purpose come
// before automatic ones: AutoTablePrefix). After Settle without any such
// table, it creates one; a creator whose own open table is no longer the
// smallest closes it and moves too, and so does a seated member. Peers
// started together therefore end at one table (per started table), whatever
// the order in which they hear of each other.
func (c *Client) FindSeat(ctx context.Context, o SeatOptions) (lobby.Announcement, error) {
	if o.Ruleset == "" {
		o.Ruleset = "classic"
	}
	if o.Players == 0 {
		o.Players = 4
	}
	if o.Settle == 0 {
		o.Settle = time.Second
	}
	preset, opts, err := SplitRuleset(o.Ruleset)
	if err != nil {
		return lobby.Announcement{}, err
	}
	want, _ := Ruleset(lobby.Announcement{Preset: preset, Options: opts})
	if err := want.CheckPlayers(o.Players); err != nil {
		return lobby.Announcement{}, err
	}
	if o.Create && o.Join != "" || o.Create && o.Code != nil || o.Join != "" && o.Code != nil {
		return lobby.Announcement{}, errors.New("lan: create a table, join one by id, or join one by code: one of them")
	}
	if o.Code != nil {
		return c.seatByCode(ctx, *o.Code)
	}
	l := c.Lobby()
	self := c.ID()
	seated := func(a lobby.Announcement) bool {
		return slices.ContainsFunc(a.Members, func(s lobby.Seat) bool { return s.ID == self })
	}
	var cur, mine string // the table we sit at, and our own (open) table
	inviteOnly := map[string]bool{}
	take := func(id string) error {
		if id == mine {
			_, err := l.SetReady(ctx, id, true)
			return err
		}
		if _, err := l.Join(ctx, id); err != nil && !errors.Is(err, lobby.ErrAlreadySeated) {
			return err
		}
		_, err := l.SetReady(ctx, id, true)
		return err
	}
	leave := func() {
		switch {
		case cur == "":
		case cur == mine:
			if err := l.CloseTable(mine); err != nil {
				c.log.Debug("close own table", "table", mine, "err", err)
			}
			c.log.Info("closed own table for a smaller one", "table", mine)
			mine = ""
		default:
			if err := l.Leave(ctx, cur); err != nil {
				c.log.Debug("leave table", "table", cur, "err", err)
			}
			c.log.Info("left table for a smaller one", "table", cur)
		}
		cur = ""
	}
	create := func() error {
		id := lobby.RandomTableID("")
		if !o.Create {
			id = lobby.RandomTableID(AutoTablePrefix)
		}
		create := l.CreateWithID
		if o.Private {
			create = l.CreatePrivate
		}
		a, err := create(id, preset, opts, o.Players)
		if err != nil {
			return err
		}
		mine, cur = a.Table, a.Table
		if o.OnCreate != nil {
			o.OnCreate(a)
		}
		c.log.Info("created table", "table", a.Table, "ruleset", want.String(), "players", o.Players)
		return take(mine)
	}
	if o.Create {
		if err := create(); err != nil {
			return lobby.Announcement{}, err
		}
	}
	began := time.Now()
	settle := began.Add(o.Settle)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if cur != "" {
			if a, ok := l.Table(cur); ok && a.State == lobby.StateStarted && seated(a) {
				c.log.Info("table started", "table", a.Table, "players", len(a.Members), "took", time.Since(began).Round(time.Millisecond))
				return a, nil
			}
		}
		switch {
		case o.Create:
			// Our table: wait for it to fill.
		case o.Join != "":
			if cur == "" {
				if _, ok := l.Table(o.Join); ok {
					if err := take(o.Join); err != nil {
						if errors.Is(err, lobby.ErrTableFull) || errors.Is(err, lobby.ErrTableStarted) || errors.Is(err, lobby.ErrTableClosed) || errors.Is(err, lobby.ErrInviteOnly) {
							return lobby.Announcement{}, fmt.Errorf("%w: cannot join table %s: %w", ErrCannotForm, o.Join, err)
						}
						c.log.Info("join failed, retrying", "table", o.Join, "err", err)
					} else {
						cur = o.Join
						c.log.Info("joined table", "table", cur)
					}
				}
			}
		default:
			if cur != "" && cur != mine {
				if a, ok := l.Table(cur); !ok || a.State == lobby.StateClosed || !seated(a) {
					c.log.Info("table gone", "table", cur)
					cur = ""
				}
			}
			best := ""
			for _, a := range l.Tables() {
				if a.State != lobby.StateOpen || !(seated(a) || len(a.Members) < a.Seats) || inviteOnly[a.Table] {
					continue
				}
				if o.Match {
					if r, err := Ruleset(a); err != nil || r.String() != want.String() || a.Seats != o.Players {
						continue
					}
				}
				if best == "" || a.Table < best {
					best = a.Table
				}
			}
			switch {
			case best != "" && best != cur && (cur == "" || best < cur):
				leave()
				if err := take(best); err != nil {
					if errors.Is(err, lobby.ErrInviteOnly) {
						inviteOnly[best] = true // a private table: never automatically
					}
					c.log.Info("join failed", "table", best, "err", err)
				} else {
					cur = best
					c.log.Info("joined table", "table", cur)
				}
			case cur == "" && time.Now().After(settle):
				if err := create(); err != nil {
					return lobby.Announcement{}, err
				}
			}
		}
		select {
		case <-ctx.Done():
			if mine != "" {
				l.CloseTable(mine)
			} else if cur != "" {
				lctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				l.Leave(lctx, cur)
				cancel()
			}
			return lobby.Announcement{}, fmt.Errorf("lan: no table started: %w", ctx.Err())
		case <-l.Changes():
		case <-tick.C:
		}
	}
}

// Done tells the lobby that a table this peer created has been played: it
// is no longer announced. Other tables are left alone.
func (c *Client) Done(a lobby.Announcement) {
	if a.Creator == c.ID() {
		c.Lobby().CloseTable(a.Table)
	}
}

// ErrCannotForm is wrapped by FindSeat's errors when the table asked for
// cannot form for this peer: its creator cannot be reached, it refuses the
// code, or it is full, started or closed (okey's exit status 4).
var ErrCannotForm = errors.New("lan: the table cannot form")

// seatByCode takes a seat at the table of an invite code and waits for it
// to start (FindSeat with SeatOptions.Code). A creator it cannot reach yet
// is tried again (until ctx ends); a refusal that another try cannot change
// (a forged or revoked code, a full, started or closed table) ends it.
func (c *Client) seatByCode(ctx context.Context, code invite.Code) (lobby.Announcement, error) {
	l := c.Lobby()
	id := code.Table
	began := time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	joined, ready := false, false
	var lastErr error
	for {
		if a, ok := l.Table(id); ok && a.State == lobby.StateStarted && joined &&
			slices.ContainsFunc(a.Members, func(s lobby.Seat) bool { return s.ID == c.ID() }) {
			c.log.Info("table started", "table", id, "players", len(a.Members), "took", time.Since(began).Round(time.Millisecond))
			return a, nil
		}
		switch {
		case !joined:
			_, err := l.JoinByCode(ctx, code)
			switch {
			case err == nil || errors.Is(err, lobby.ErrAlreadySeated):
				joined = true
				c.log.Info("joined table by invite code", "table", id, "creator", code.Creator.String())
			case errors.Is(err, lobby.ErrDenied), errors.Is(err, lobby.ErrInviteOnly), errors.Is(err, lobby.ErrTableFull),
				errors.Is(err, lobby.ErrTableStarted), errors.Is(err, lobby.ErrTableClosed), errors.Is(err, lobby.ErrRateLimited):
				return lobby.Announcement{}, fmt.Errorf("%w: table %s: %w", ErrCannotForm, id, err)
			default:
				if lastErr == nil || lastErr.Error() != err.Error() {
					c.log.Info("join by code failed, retrying", "table", id, "err", err)
				}
				lastErr = err
			}
		case !ready:
			if _, err := l.SetReady(ctx, id, true); err == nil {
				ready = true
			} else if !errors.Is(err, lobby.ErrTableFull) {
				c.log.Debug("ready failed, retrying", "table", id, "err", err)
			}
		default:
			// Seated and ready: a creator that restarted lost the table.
			if a, ok := l.Table(id); ok && (a.State == lobby.StateClosed || !slices.ContainsFunc(a.Members, func(s lobby.Seat) bool { return s.ID == c.ID() })) {
				return lobby.Announcement{}, fmt.Errorf("%w: table %s no longer has this peer's seat", ErrCannotForm, id)
			}
		}
		select {
		case <-ctx.Done():
			if joined {
				lctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				l.Leave(lctx, id)
				cancel()
			}
			err := ctx.Err()
			if lastErr != nil && !joined {
				err = fmt.Errorf("%w (last: %w)", err, lastErr)
			}
			return lobby.Announcement{}, fmt.Errorf("%w: table %s did not start: %w", ErrCannotForm, id, err)
		case <-l.Changes():
		case <-tick.C:
		}
	}
}

// Invite is the invite code of private table id that this peer created:
// its addresses (public first, then LAN, then loopback) and the relays its
// node uses (Options.Relays; this peer itself when it serves as a relay).
// The code holds the table's secret: show it to the player, never log it.
func (c *Client) Invite(id string) (string, error) {
	return c.Lobby().Invite(id, c.node.Host().Addrs(), c.node.InviteRelays())
}
