package lobby

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestLobbyManyTables (issue 26): twelve creators on one mocknet announce a
// table each (every third private, some watched); a thirteenth peer lists
// them all with their players, private flag and spectator count; a started
// table's progress reaches it; the lobby answers at once while it holds them;
// and the table of a creator that disappears expires.
func TestLobbyManyTables(t *testing.T) {
	const tables = 12
	// The announcements of 12 creators every 100 ms (fastLobby) overflow
	// pubsub's queues under the race detector on a loaded machine, and a
	// short expiry drops tables whose creators are starved of CPU: the
	// default interval and a long expiry (the expiry test waits for it).
	_, nodes := mockNodesWith(t, tables+2, Config{AnnounceInterval: 2 * time.Second, Expiry: 15 * time.Second, RequestTimeout: 10 * time.Second})
	observer, joiner := nodes[tables], nodes[tables+1]
	ids := make([]string, tables)
	for i := range tables {
		l := lob(nodes[i])
		if i%4 == 1 {
			l.SetSpectatorCount(func(string) int { return i })
		}
		var a Announcement
		var err error
		if i%3 == 2 {
			a, err = l.CreatePrivate(fmt.Sprintf("party%02d", i), "classic", nil, 4)
		} else {
			a, err = l.CreateWithID(fmt.Sprintf("party%02d", i), "turkish-rummy", map[string]string{"rounds": "1"}, 2+i%3)
		}
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = a.Table
	}
	waitFor(t, 30*time.Second, "every table listed by the observer", func() bool {
		return len(lob(observer).Tables()) >= tables
	})
	for i, id := range ids {
		a, ok := lob(observer).Table(id)
		if !ok || a.Creator != nodes[i].ID().String() || len(a.Members) != 1 || a.Members[0].ID != a.Creator {
			var have []string
			for _, x := range lob(observer).Tables() {
				have = append(have, x.Table+"/"+x.Creator[len(x.Creator)-4:])
			}
			t.Fatalf("table %s (creator %s): %+v %v; listed %v", id, nodes[i].ID(), a, ok, have)
		}
		if a.Private != (i%3 == 2) {
			t.Errorf("table %s private %v", id, a.Private)
		}
		want := 0
		if i%4 == 1 {
			want = i
		}
		if i%4 == 1 {
			waitTableFor(t, 40*time.Second, lob(observer), id, func(a Announcement, ok bool) bool { return ok && a.Spectators == want })
		} else if a.Spectators != 0 {
			t.Errorf("table %s: %d spectators, want 0", id, a.Spectators)
		}
	}
	// The lobby's list answers from memory, never waiting on the network:
	// a generous bound (the race detector on a machine shared with builds),
	// the figure logged.
	start := time.Now()
	for range 100 {
		lob(observer).Tables()
	}
	d := time.Since(start)
	t.Logf("100 listings of %d tables: %v", tables, d)
	if d > 10*time.Second {
		t.Errorf("100 listings of %d tables took %v", tables, d)
	}

	// A 2-seat table starts; its creator's progress reaches the observer.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	waitTableFor(t, 40*time.Second, lob(joiner), ids[0], func(_ Announcement, ok bool) bool { return ok })
	if _, err := lob(joiner).Join(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := lob(joiner).SetReady(ctx, ids[0], true); err != nil {
		t.Fatal(err)
	}
	if _, err := lob(nodes[0]).SetReady(ctx, ids[0], true); err != nil {
		t.Fatal(err)
	}
	waitTableFor(t, 40*time.Second, lob(observer), ids[0], func(a Announcement, ok bool) bool { return ok && a.State == StateStarted })
	if err := lob(joiner).SetProgress(ids[0], 2, []int{1, 2}); err != nil { // not its table: ignored
		t.Fatal(err)
	}
	if err := lob(nodes[0]).SetProgress(ids[0], 2, []int{7, -3, 1}); err == nil {
		t.Fatal("progress with three scores for two seats accepted")
	}
	if err := lob(nodes[0]).SetProgress(ids[0], 2, []int{7, -3}); err != nil {
		t.Fatal(err)
	}
	a := waitTableFor(t, 40*time.Second, lob(observer), ids[0], func(a Announcement, ok bool) bool { return ok && a.Progress != nil })
	if a.Progress.Hand != 2 || a.Progress.Scores[0] != 7 || a.Progress.Scores[1] != -3 {
		t.Fatalf("progress %+v", a.Progress)
	}

	// A creator disappears: its table expires; the others stay.
	nodes[5].Close()
	waitFor(t, 40*time.Second, "the table of the creator that left to expire", func() bool {
		_, ok := lob(observer).Table(ids[5])
		return !ok
	})
	// The others are listed (again, should a machine under a load of 20
	// have held an announcement past the expiry: seen once); 5's is not.
	for i, id := range ids {
		if i != 5 {
			waitTableFor(t, 40*time.Second, lob(observer), id, func(_ Announcement, ok bool) bool { return ok })
		}
	}
	if _, ok := lob(observer).Table(ids[5]); ok {
		t.Errorf("table %s listed again after its creator left", ids[5])
	}
}

// waitTableFor is waitTable with a deadline of d (a lobby of many peers
// under the race detector on a loaded machine is slow).
func waitTableFor(t *testing.T, d time.Duration, l *Lobby, id string, cond func(Announcement, bool) bool) Announcement {
	t.Helper()
	var a Announcement
	waitFor(t, d, "table "+id, func() bool {
		var ok bool
		a, ok = l.Table(id)
		return cond(a, ok)
	})
	return a
}
