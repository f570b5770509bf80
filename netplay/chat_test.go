package netplay

import (
	"bytes"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// waitingMover holds its seat's moves until ready is closed (or a minute
// passed), so that the match outlasts what the test waits for.
type waitingMover struct {
	table.Mover
	ready <-chan struct{}
}

func (m waitingMover) Move(h *engine.Hand, v *engine.View) (engine.Action, error) {
	select {
	case <-m.ready:
	case <-time.After(time.Minute):
	}
	return m.Mover.Move(h, v)
}

// TestMatchChat: at a LAN table of two, each seat posts as soon as its
// table is open; each sees both messages (its own and the other's) with
// the author's name, the chat is kept beside each transcript (T.chat),
// which the transcripts, byte for byte the same at both seats, know
// nothing of.
func TestMatchChat(t *testing.T) {
	t.Parallel()
	ctx, _, clients := mockLobby(t, 2, 3*time.Minute)
	_, a := seatCreated(t, ctx, clients, "turkish-rummy", map[string]string{"rounds": "1"})
	var mu sync.Mutex
	got := make([][]ChatLine, 2)
	heard := make([]chan struct{}, 2)
	for i := range heard {
		heard[i] = make(chan struct{})
	}
	both := make(chan struct{})
	var once sync.Once
	var bothOnce [2]sync.Once
	outs := playAllMovers(t, ctx, clients, a, func(i int) PlayOptions {
		o := honestPlay(t.TempDir())
		o.OnChatReady = func(send ChatSend) {
			go func() {
				if err := send(i+1, ""); err != nil {
					t.Errorf("seat %d: send: %v", i, err)
				}
			}()
		}
		o.OnChat = func(l ChatLine) {
			mu.Lock()
			got[i] = append(got[i], l)
			n := len(got[i])
			mu.Unlock()
			if n == 2 {
				bothOnce[i].Do(func() { close(heard[i]) })
			}
		}
		return o
	}, func(i int, m table.Mover) table.Mover {
		go func() {
			<-heard[0]
			<-heard[1]
			once.Do(func() { close(both) })
		}()
		return waitingMover{Mover: m, ready: both}
	})
	checkHonest(t, outs)
	mu.Lock()
	defer mu.Unlock()
	for i, ls := range got {
		if len(ls) != 2 {
			t.Fatalf("seat %d saw %d messages: %+v", i, len(ls), ls)
		}
		for _, l := range ls {
			if l.Quick != l.Member+1 || l.Name != a.Members[l.Member].Name || l.ID != a.Members[l.Member].ID || l.Own != (l.Member == i) {
				t.Errorf("seat %d saw %+v", i, l)
			}
		}
	}
	for i, o := range outs {
		b, err := os.ReadFile(chat.PathBeside(o.Transcript))
		if err != nil {
			t.Fatalf("seat %d: no chat beside the transcript: %v", i, err)
		}
		ms, err := chat.ReadFile(bytes.NewReader(b))
		if err != nil || len(ms) != 2 {
			t.Fatalf("seat %d: chat file of %d messages: %v", i, len(ms), err)
		}
		tb, _ := os.ReadFile(o.Transcript)
		for _, m := range ms {
			raw, _ := m.Encode()
			if bytes.Contains(tb, raw) {
				t.Fatalf("seat %d: a chat message is in the transcript", i)
			}
		}
	}
}
