package netplay

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/lobby"
)

// TestFindWatchTableNone: no started table within the wait is a
// NoWatchTableError naming the table looked for (or none), after the wait.
func TestFindWatchTableNone(t *testing.T) {
	_, cs := mockClients(t, 1)
	for _, id := range []string{"", "0123456789abcdef0123456789abcdef"} {
		start := time.Now()
		_, err := cs[0].FindWatchTable(context.Background(), id, 200*time.Millisecond)
		var e *NoWatchTableError
		if !errors.As(err, &e) || e.ID != id || e.Wait != 200*time.Millisecond {
			t.Fatalf("%q: %v, want a NoWatchTableError", id, err)
		}
		if time.Since(start) < 200*time.Millisecond {
			t.Fatalf("%q: gave up before the wait", id)
		}
	}
	if got := cs[0].WatchableTables(""); len(got) != 0 {
		t.Fatalf("tables to watch in an empty lobby: %v", got)
	}
}

// TestStartWatchTellsTheEnd: the watch's end is told to ended first, then
// sent on the channel.
func TestStartWatchTellsTheEnd(t *testing.T) {
	_, cs := mockClients(t, 1)
	told := make(chan error, 1)
	done := cs[0].StartWatch(context.Background(), lobby.Announcement{Table: "nonsense"}, WatchOptions{}, func(_ *Outcome, err error) { told <- err })
	d := <-done
	if d.Err == nil {
		t.Fatal("a watch of no table ended without an error")
	}
	select {
	case err := <-told:
		if err != d.Err {
			t.Fatalf("told %v, sent %v", err, d.Err)
		}
	default:
		t.Fatal("the end was sent before it was told")
	}
}
