package p2p

import (
	"bufio"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
)

// TestWatchTable: a spectator fetches from the member that admits
// spectators and not from the one that does not (which counts it), cannot
// publish (its Broadcast refuses; a raw publish is rejected by the
// members' validators and reaches no inbox), serves no one, and makes no
// member a direct peer; a stranger not admitted is refused.
func TestWatchTable(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 4, WithSyncTimeout(5*time.Second))
	members := nodes[:2]
	tts := joinAll(t, members, "watch", acceptAll)
	a, b := tts[0], tts[1]
	for _, tt := range tts {
		tt.Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	}
	b.AdmitSpectators(func(p peer.ID) bool { return p == nodes[2].ID() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := nodes[0].WatchTable(ctx, "other", ids(members), acceptAll); err == nil {
		t.Fatal("a member watched its own table")
	}
	sp, err := nodes[2].WatchTable(ctx, "watch", ids(members), acceptAll, WithReadyTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	if !sp.IsSpectator() || a.IsSpectator() {
		t.Fatal("IsSpectator wrong")
	}
	if len(nodes[2].direct) != 0 {
		t.Fatalf("the spectator made %d direct peers", len(nodes[2].direct))
	}
	if !errors.Is(sp.Broadcast(ctx, []byte("hi")), ErrSpectator) {
		t.Fatal("a spectator's Broadcast was not refused")
	}
	// A raw publish on the topic (posing as a seat) is rejected by the
	// members and reaches no inbox.
	topic, err := nodes[2].ps.Join(tableTopic("watch"))
	if err != nil {
		t.Fatal(err)
	}
	rej0 := b.Stats().RejectReasons["author is not a member"]
	for i := 0; b.Stats().RejectReasons["author is not a member"] == rej0; i++ {
		if i == 100 {
			t.Fatal("the members never rejected the spectator's message")
		}
		if err := topic.Publish(ctx, []byte("seat 0's move, says the spectator")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
drain:
	for {
		select {
		case p := <-b.Inbox():
			if p.From == sp.Self() {
				t.Fatal("a spectator's message reached a member's inbox")
			}
		default:
			break drain
		}
	}

	// Catch-up: b admits it, a does not.
	if got, err := sp.Fetch(ctx, b.Self(), []byte("step 7")); err != nil || len(got) != 1 || string(got[0]) != "step 7" {
		t.Fatalf("admitted spectator's fetch: %q %v", got, err)
	}
	if _, err := sp.Fetch(ctx, a.Self(), []byte("step 7")); err == nil {
		t.Fatal("a member that admits no spectator served one")
	}
	if b.Spectators() != 1 || a.Spectators() != 0 {
		t.Fatalf("spectators seen: b %d, a %d; want 1, 0", b.Spectators(), a.Spectators())
	}
	// A stranger (node 3) is refused by b; a member asking the spectator
	// is refused (it serves no one).
	// Closing the spectator's table leaves the node's peers as they were.
	sp2, err := nodes[3].WatchTable(ctx, "watch2", ids(members), acceptAll, WithReadyTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	sp2.Close()
	nodes[3].mu.Lock()
	want, direct := len(nodes[3].want), len(nodes[3].direct)
	nodes[3].mu.Unlock()
	if want != 0 || direct != 0 {
		t.Fatalf("after a spectator's Close: want %d, direct %d; want 0, 0", want, direct)
	}
	stranger := rawFetch(ctx, t, nodes[3], nodes[1].ID(), "watch", "step 0")
	if stranger == nil {
		t.Fatal("a stranger got an answer")
	}
	sp.Serve(func(table.PeerID, []byte) [][]byte { return [][]byte{[]byte("never")} })
	if rawFetch(ctx, t, nodes[1], nodes[2].ID(), "watch", "step 0") == nil {
		t.Fatal("a spectator served a member")
	}
}

// rawFetch sends a sync request from n to p and returns the error that
// ended it (nil: it was answered).
func rawFetch(ctx context.Context, t *testing.T, n *Node, p peer.ID, id, req string) error {
	t.Helper()
	s, err := n.Host().NewStream(ctx, p, SyncProtocol)
	if err != nil {
		return err
	}
	defer s.Reset()
	w := bufio.NewWriter(s)
	wire.WriteFrame(w, []byte(id))
	wire.WriteFrame(w, []byte(req))
	w.Flush()
	s.CloseWrite()
	s.SetDeadline(time.Now().Add(5 * time.Second))
	_, err = readResponse(bufio.NewReader(s))
	return err
}

// TestSpectatorSyncCaps: a spectator's silent streams hold at most
// MaxSpectatorPeerStreams places; the rest are reset unread, members are
// served meanwhile, and the places come back.
func TestSpectatorSyncCaps(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 3, WithSyncTimeout(5*time.Second))
	tts := joinAll(t, nodes[:2], "caps", acceptAll)
	tts[1].Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	tts[1].AdmitSpectators(AnySpectator)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := nodes[1]
	var streams []network.Stream
	for range 3 * MaxSpectatorPeerStreams {
		s, err := nodes[2].Host().NewStream(ctx, b.ID(), SyncProtocol)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(s)
		wire.WriteFrame(w, []byte("caps"))
		w.Flush() // no request: it waits
		streams = append(streams, s)
	}
	waitFor(t, 5*time.Second, "the spectator's extra streams reset", func() bool {
		_, over, _ := b.SpectatorSyncStats()
		return over >= 2*MaxSpectatorPeerStreams
	})
	if held, _ := b.spectGate.Streams(nodes[2].ID()); held > MaxSpectatorPeerStreams {
		t.Fatalf("%d spectator streams held", held)
	}
	if got, err := tts[0].Fetch(ctx, tts[1].Self(), []byte("member")); err != nil || len(got) != 1 {
		t.Fatalf("a member was not served meanwhile: %v", err)
	}
	for _, s := range streams {
		s.Reset()
	}
	waitFor(t, 5*time.Second, "the places freed", func() bool { held, _ := b.spectGate.Streams(nodes[2].ID()); return held == 0 })
	if err := rawFetch(ctx, t, nodes[2], b.ID(), "caps", "again"); err != nil {
		t.Fatalf("the spectator is not served again: %v", err)
	}
}

// TestPrivateTableSpectator: a member of a private table serves a
// spectator only after it presented a proof made with the table's secret
// for its own peer id; a proof with another secret, or replayed by another
// peer, admits no one.
func TestPrivateTableSpectator(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 4, WithSyncTimeout(5*time.Second))
	members := nodes[:2]
	tts := joinAll(t, members, "private", acceptAll)
	b := tts[1]
	b.Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	secret, err := invite.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := invite.NewSecret()
	creator := nodes[0].ID()
	b.AdmitSpectatorsBySecret(creator, secret)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sp, err := nodes[2].WatchTable(ctx, "private", ids(members), acceptAll, WithReadyTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	if _, err := sp.Fetch(ctx, b.Self(), []byte("step 0")); err == nil {
		t.Fatal("served before any proof")
	}
	proof := func(s invite.Secret, who peer.ID) []byte {
		return SpectatorRequest(s.SpectatorProof("private", []byte(creator), []byte(who)))
	}
	if _, err := sp.Fetch(ctx, b.Self(), proof(other, nodes[2].ID())); err == nil {
		t.Fatal("a proof with another secret was accepted")
	}
	if _, err := sp.Fetch(ctx, b.Self(), []byte("step 0")); err == nil {
		t.Fatal("served after a bad proof")
	}
	if got, err := sp.Fetch(ctx, b.Self(), proof(secret, nodes[2].ID())); err != nil || len(got) != 0 {
		t.Fatalf("a good proof: %q %v", got, err)
	}
	if got, err := sp.Fetch(ctx, b.Self(), []byte("step 0")); err != nil || len(got) != 1 {
		t.Fatalf("served after the proof: %q %v", got, err)
	}
	// The same proof from another peer admits no one.
	if rawFetch(ctx, t, nodes[3], nodes[1].ID(), "private", string(proof(secret, nodes[2].ID()))) == nil {
		t.Fatal("a replayed proof was accepted")
	}
	if rawFetch(ctx, t, nodes[3], nodes[1].ID(), "private", "step 0") == nil {
		t.Fatal("the replayer was served")
	}
}
