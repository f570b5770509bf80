package netplay

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/table"
)

// TestTournamentChat: the seats of a tournament table (TournamentTable)
// follow its chat with TournamentChat: a message one posts reaches the
// other, named by its seat, and each keeps it in its chat file.
func TestTournamentChat(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 2, time.Minute)
	_, a := seatCreated(t, ctx, clients, "classic", nil)
	cfg, err := TableConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var mu sync.Mutex
	got := make([][]ChatLine, 2)
	heard := make(chan struct{}, 4)
	sends := make(chan ChatSend, 2)
	// Both seats join at once (each waits for the other, as at a round).
	trs := make([]table.Transport, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Go(func() {
			tr, err := c.TournamentTable(ctx, cfg, 30*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			trs[i] = tr
		})
	}
	wg.Wait()
	for i, c := range clients {
		tr := trs[i]
		if tr == nil {
			t.FailNow()
		}
		t.Cleanup(func() { tr.Close() })
		stop := c.TournamentChat(ctx, tr, cfg, filepath.Join(dir, string(rune('a'+i))+".chat"),
			func(send ChatSend) { sends <- send },
			func(l ChatLine) {
				mu.Lock()
				got[i] = append(got[i], l)
				mu.Unlock()
				select {
				case heard <- struct{}{}:
				default:
				}
			})
		t.Cleanup(stop)
	}
	send := <-sends // the first seat's sender
	<-sends
	// The topic's mesh forms in its own time: post until both seats heard.
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	quick := 1
	for {
		mu.Lock()
		done := len(got[0]) > 0 && len(got[1]) > 0
		mu.Unlock()
		if done {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("no chat message reached both seats: %+v", got)
		case <-heard:
		case <-tick.C:
			if err := send(quick, ""); err != nil {
				t.Logf("send: %v", err)
			}
			quick = quick%8 + 1
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, ls := range got {
		l := ls[0]
		if l.Name != a.Members[l.Member].Name || l.ID != a.Members[l.Member].ID {
			t.Errorf("seat %d saw %+v", i, l)
		}
	}
	for i := range clients {
		b, err := os.ReadFile(filepath.Join(dir, string(rune('a'+i))+".chat"))
		if err != nil {
			t.Fatal(err)
		}
		if ms, err := chat.ReadFile(bytes.NewReader(b)); err != nil || len(ms) == 0 {
			t.Fatalf("seat %d's chat file: %d messages, %v", i, len(ms), err)
		}
	}
}
