package netplay

import (
	"context"
	"fmt"
	"time"

	"github.com/okey-game/okey/p2p/lobby"
)

// NoWatchTableError is FindWatchTable's when no table to watch was seen
// started within its wait: ID is the table looked for ("" any).
type NoWatchTableError struct {
	ID   string
	Wait time.Duration
}

func (e *NoWatchTableError) Error() string {
	if e.ID == "" {
		return fmt.Sprintf("no started table found within --wait %v", e.Wait)
	}
	return fmt.Sprintf("table %s was not seen started within --wait %v", e.ID, e.Wait)
}

// seated reports whether this peer sits at table a.
func (c *Client) seated(a lobby.Announcement) bool {
	for _, m := range a.Members {
		if m.ID == c.ID() {
			return true
		}
	}
	return false
}

// WatchableTables is the public started tables of the lobby this peer
// does not sit at, but cur.
func (c *Client) WatchableTables(cur string) []lobby.Announcement {
	var out []lobby.Announcement
	for _, a := range c.Lobby().Tables() {
		if a.State == lobby.StateStarted && !a.Private && a.Table != cur && !c.seated(a) {
			out = append(out, a)
		}
	}
	return out
}

// FindWatchTable finds the started announcement of table id (any started
// table this peer does not sit at when id is ""): a watch to resume in the
// data directory (of table id; without id, the first unfinished one), or
// the lobby within wait (else a *NoWatchTableError).
func (c *Client) FindWatchTable(ctx context.Context, id string, wait time.Duration) (lobby.Announcement, error) {
	if id != "" {
		if a, ok := c.Watching(id); ok {
			return a, nil
		}
	} else if ws, err := c.Watches(); err != nil {
		return lobby.Announcement{}, err
	} else if len(ws) > 0 {
		return ws[0], nil
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		for _, a := range c.Lobby().Tables() {
			if a.State == lobby.StateStarted && (id == "" || a.Table == id) && !c.seated(a) {
				return a, nil
			}
		}
		select {
		case <-ctx.Done():
			return lobby.Announcement{}, &NoWatchTableError{ID: id, Wait: wait}
		case <-c.Lobby().Changes():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// WatchDone is the end of a watch run by StartWatch.
type WatchDone struct {
	Outcome *Outcome
	Err     error
}

// StartWatch runs Watch on a goroutine of its own: ended, when not nil,
// is told of its end first, on that goroutine; then the channel returned
// gets it.
func (c *Client) StartWatch(ctx context.Context, a lobby.Announcement, opt WatchOptions, ended func(*Outcome, error)) <-chan WatchDone {
	done := make(chan WatchDone, 1)
	go func() {
		o, err := c.Watch(ctx, a, opt)
		if ended != nil {
			ended(o, err)
		}
		done <- WatchDone{o, err}
	}()
	return done
}
