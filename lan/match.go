package lan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/okey-game/okey/p2p"
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
func (c *Client) FindSeat(ctx context.Context, o SeatOptions) (p2p.Announcement, error) {
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
		return p2p.Announcement{}, err
	}
	want, _ := Ruleset(p2p.Announcement{Preset: preset, Options: opts})
	if err := want.CheckPlayers(o.Players); err != nil {
		return p2p.Announcement{}, err
	}
	if o.Create && o.Join != "" {
		return p2p.Announcement{}, errors.New("lan: create or join a table, not both")
	}
	l := c.Lobby()
	self := c.ID()
	seated := func(a p2p.Announcement) bool {
		return slices.ContainsFunc(a.Members, func(s p2p.Seat) bool { return s.ID == self })
	}
	var cur, mine string // the table we sit at, and our own (open) table
	take := func(id string) error {
		if id == mine {
			_, err := l.SetReady(ctx, id, true)
			return err
		}
		if _, err := l.Join(ctx, id); err != nil && !errors.Is(err, p2p.ErrAlreadySeated) {
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
		id := p2p.RandomTableID("")
		if !o.Create {
			id = p2p.RandomTableID(AutoTablePrefix)
		}
		a, err := l.CreateWithID(id, preset, opts, o.Players)
		if err != nil {
			return err
		}
		mine, cur = a.Table, a.Table
		c.log.Info("created table", "table", a.Table, "ruleset", want.String(), "players", o.Players)
		return take(mine)
	}
	if o.Create {
		if err := create(); err != nil {
			return p2p.Announcement{}, err
		}
	}
	began := time.Now()
	settle := began.Add(o.Settle)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if cur != "" {
			if a, ok := l.Table(cur); ok && a.State == p2p.StateStarted && seated(a) {
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
						if errors.Is(err, p2p.ErrTableFull) || errors.Is(err, p2p.ErrTableStarted) || errors.Is(err, p2p.ErrTableClosed) {
							return p2p.Announcement{}, fmt.Errorf("lan: cannot join table %s: %w", o.Join, err)
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
				if a, ok := l.Table(cur); !ok || a.State == p2p.StateClosed || !seated(a) {
					c.log.Info("table gone", "table", cur)
					cur = ""
				}
			}
			best := ""
			for _, a := range l.Tables() {
				if a.State != p2p.StateOpen || !(seated(a) || len(a.Members) < a.Seats) {
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
					c.log.Info("join failed", "table", best, "err", err)
				} else {
					cur = best
					c.log.Info("joined table", "table", cur)
				}
			case cur == "" && time.Now().After(settle):
				if err := create(); err != nil {
					return p2p.Announcement{}, err
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
			return p2p.Announcement{}, fmt.Errorf("lan: no table started: %w", ctx.Err())
		case <-l.Changes():
		case <-tick.C:
		}
	}
}

// Done tells the lobby that a table this peer created has been played: it
// is no longer announced. Other tables are left alone.
func (c *Client) Done(a p2p.Announcement) {
	if a.Creator == c.ID() {
		c.Lobby().CloseTable(a.Table)
	}
}
