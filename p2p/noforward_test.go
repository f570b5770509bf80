package p2p

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/table"
)

// recv waits (at most d) for a packet with data want in tt's inbox and
// returns every packet it saw on the way.
func recv(t *testing.T, tt *TableTransport, want string, d time.Duration) []table.Packet {
	t.Helper()
	var seen []table.Packet
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case p := <-tt.Inbox():
			seen = append(seen, p)
			if string(p.Data) == want {
				return seen
			}
		case <-timer.C:
			t.Fatalf("%s never received %q (got %v)", tt.Self(), want, seen)
		}
	}
}

// TestWithoutForwarding: a member that stops forwarding (WithoutForwarding)
// still receives every member's messages and its own reach everyone, but
// the members that hear each other only through it no longer do: member
// 0's message never reaches member 1 by gossip, though member 2's message
// published after it does (it would have come first on the same stream,
// had member 2 forwarded it). No one is rejected or named.
func TestWithoutForwarding(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodesApart(t, 3, [][2]int{{0, 1}})
	nodes[2].cfg.noForward = true // as WithoutForwarding, for the hub only
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	members := ids(nodes)
	tts := make([]*TableTransport, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, n := range nodes {
		// 0 and 1 never hear each other's roll calls: they open after the
		// ready timeout without each other (7.4).
		wg.Go(func() {
			tts[i], errs[i] = n.JoinTable(ctx, "noforward", members, acceptAll, WithReadyTimeout(time.Second))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d JoinTable: %v", i, err)
		}
		t.Cleanup(func() { tts[i].Close() })
	}
	hub := tts[2]
	if hub.local == nil || tts[0].local != nil {
		t.Fatal("only the hub should keep messages from pubsub")
	}
	if err := tts[0].Broadcast(ctx, []byte("from 0")); err != nil {
		t.Fatal(err)
	}
	recv(t, hub, "from 0", 10*time.Second)
	if err := hub.Broadcast(ctx, []byte("from the hub")); err != nil {
		t.Fatal(err)
	}
	for _, p := range recv(t, tts[1], "from the hub", 10*time.Second) {
		if string(p.Data) == "from 0" {
			t.Fatal("member 1 received member 0's message: the hub forwarded it")
		}
	}
	if err := tts[1].Broadcast(ctx, []byte("from 1")); err != nil {
		t.Fatal(err)
	}
	recv(t, hub, "from 1", 10*time.Second)
	if err := hub.Broadcast(ctx, []byte("again")); err != nil {
		t.Fatal(err)
	}
	for _, p := range recv(t, tts[0], "again", 10*time.Second) {
		if string(p.Data) == "from 1" {
			t.Fatal("member 0 received member 1's message: the hub forwarded it")
		}
	}
	for i, tt := range tts {
		if s := tt.Stats(); s.Rejected != 0 {
			t.Errorf("node %d rejected %d messages: %v", i, s.Rejected, s.RejectReasons)
		}
	}
}
