package p2p

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
)

// rpcCounter is a raw gossipsub tracer that counts, in the order its node
// receives them, the messages of each topic and the markers (messages of
// a side topic, by content). RecvRPC runs on pubsub's event loop for every
// incoming RPC in arrival order, before validation: once a marker a peer
// sent after some messages has been seen, those messages, had they been
// sent to this node over the same stream, have been counted.
type rpcCounter struct {
	mu      sync.Mutex
	side    string
	topics  map[string]int
	markers map[string]bool
}

func (c *rpcCounter) RecvRPC(rpc *pubsub.RPC) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range rpc.GetPublish() {
		if m.GetTopic() == c.side {
			c.markers[string(m.GetData())] = true
			continue
		}
		c.topics[m.GetTopic()]++
	}
}

func (c *rpcCounter) count(topic string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.topics[topic]
}

func (c *rpcCounter) saw(marker string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.markers[marker]
}

func (*rpcCounter) OnNewOutboundStream(peer.ID, protocol.ID) {}
func (*rpcCounter) OnClosedOutboundStream(peer.ID)           {}
func (*rpcCounter) Join(string)                              {}
func (*rpcCounter) Leave(string)                             {}
func (*rpcCounter) Graft(peer.ID, string)                    {}
func (*rpcCounter) Prune(peer.ID, string)                    {}
func (*rpcCounter) ValidateMessage(*pubsub.Message)          {}
func (*rpcCounter) DeliverMessage(*pubsub.Message)           {}
func (*rpcCounter) RejectMessage(*pubsub.Message, string)    {}
func (*rpcCounter) DuplicateMessage(*pubsub.Message)         {}
func (*rpcCounter) ThrottlePeer(peer.ID)                     {}
func (*rpcCounter) SendRPC(*pubsub.RPC, peer.ID)             {}
func (*rpcCounter) DropRPC(*pubsub.RPC, peer.ID)             {}
func (*rpcCounter) UndeliverableMessage(*pubsub.Message)     {}

// eavesdropper is a bare gossipsub peer (no okey Node) that subscribes to
// a table's topic without being a member.
type eavesdropper struct {
	h     host.Host
	ps    *pubsub.PubSub
	rpcs  *rpcCounter
	side  *pubsub.Topic
	table *pubsub.Topic
}

func newEavesdropper(ctx context.Context, t *testing.T, h host.Host, side, tableTopic string) *eavesdropper {
	t.Helper()
	c := &rpcCounter{side: side, topics: map[string]int{}, markers: map[string]bool{}}
	ps, err := pubsub.NewGossipSub(ctx, h, pubsub.WithRawTracer(c), pubsub.WithFloodPublish(true))
	if err != nil {
		t.Fatal(err)
	}
	e := &eavesdropper{h: h, ps: ps, rpcs: c}
	if e.table, err = ps.Join(tableTopic); err != nil {
		t.Fatal(err)
	}
	if _, err := e.table.Subscribe(); err != nil {
		t.Fatal(err)
	}
	if e.side, err = ps.Join(side); err != nil {
		t.Fatal(err)
	}
	if _, err := e.side.Subscribe(); err != nil {
		t.Fatal(err)
	}
	return e
}

// announce publishes marker on the side topic until every member got it
// (waiting on their side subscriptions): the members have then processed
// everything the eavesdropper sent them before, its subscription to the
// table's topic included.
func (e *eavesdropper) announce(ctx context.Context, t *testing.T, marker string, subs ...*pubsub.Subscription) {
	t.Helper()
	for _, s := range subs {
		for got := false; !got; {
			if err := e.side.Publish(ctx, []byte(marker)); err != nil {
				t.Fatal(err)
			}
			wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			for {
				m, err := s.Next(wctx)
				if err != nil {
					break
				}
				if string(m.GetData()) == marker && m.GetFrom() == e.h.ID() {
					got = true
					break
				}
			}
			cancel()
			if ctx.Err() != nil {
				t.Fatalf("%s never reached a member", marker)
			}
		}
	}
}

// TestNonMemberSubscriberGetsNothing: a peer that subscribes to a private
// table's topic without a seat receives none of the members' envelopes,
// whether it subscribed before the members opened the table (they
// disconnect it, and ignore its subscription when it comes back) or after;
// the members receive each other's envelopes, and an admitted spectator is
// still fed by catch-up.
func TestNonMemberSubscriberGetsNothing(t *testing.T) {
	t.Parallel()
	mn, nodes := mockNodes(t, 3, WithSyncTimeout(5*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const id, side, rounds = "hidden", "okey/test/side", 20
	topic := tableTopic(id)
	members := nodes[:2]

	// The members' side subscriptions, which the markers travel on.
	sideTopics := make([]*pubsub.Topic, len(members))
	sideSubs := make([]*pubsub.Subscription, len(members))
	for i, n := range members {
		var err error
		if sideTopics[i], err = n.ps.Join(side); err != nil {
			t.Fatal(err)
		}
		if sideSubs[i], err = sideTopics[i].Subscribe(); err != nil {
			t.Fatal(err)
		}
	}
	var eaves []*eavesdropper
	addEaves := func() *eavesdropper {
		h, err := mn.GenPeer()
		if err != nil {
			t.Fatal(err)
		}
		if err := mn.LinkAll(); err != nil {
			t.Fatal(err)
		}
		for _, n := range members {
			if err := h.Connect(ctx, peer.AddrInfo{ID: n.ID(), Addrs: n.Host().Addrs()}); err != nil {
				t.Fatal(err)
			}
		}
		e := newEavesdropper(ctx, t, h, side, topic)
		eaves = append(eaves, e)
		return e
	}

	// The first subscribes before the members open the table: they record
	// its subscription (the table is not open yet).
	early := addEaves()
	early.announce(ctx, t, "early", sideSubs...)
	for _, n := range members {
		if !slices.Contains(n.ps.ListPeers(topic), early.h.ID()) {
			t.Fatal("a member did not record the early subscription")
		}
	}
	tts := joinAll(t, members, id, acceptAll)
	b := tts[1]
	for _, tt := range tts {
		if tt.Stats().SubscribersRefused == 0 {
			t.Error("a member kept the early subscriber")
		}
	}
	// It comes back: its subscription is ignored now.
	for _, n := range members {
		if err := early.h.Connect(ctx, peer.AddrInfo{ID: n.ID(), Addrs: n.Host().Addrs()}); err != nil {
			t.Fatal(err)
		}
	}
	early.announce(ctx, t, "early is back", sideSubs...)
	// The second subscribes while the table is open.
	late := addEaves()
	late.announce(ctx, t, "late", sideSubs...)
	for _, n := range members {
		for _, e := range eaves {
			if slices.Contains(n.ps.ListPeers(topic), e.h.ID()) {
				t.Errorf("member %s lists non-member %s on the table's topic", n.ID(), e.h.ID())
			}
		}
	}

	// A private table's spectator, admitted by proof, still catches up.
	secret, err := invite.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b.AdmitSpectatorsBySecret(nodes[0].ID(), secret)
	b.Serve(func(_ table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	sp, err := nodes[2].WatchTable(ctx, id, ids(members), acceptAll, WithReadyTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	proof := SpectatorRequest(secret.SpectatorProof(id, []byte(nodes[0].ID()), []byte(nodes[2].ID())))
	if _, err := sp.Fetch(ctx, b.Self(), proof); err != nil {
		t.Fatalf("the spectator's proof: %v", err)
	}

	// The members play: each broadcasts rounds envelopes and receives all
	// of the other's.
	for i := range rounds {
		for k, tt := range tts {
			if err := tt.Broadcast(ctx, fmt.Appendf(nil, "seat %d step %d", k, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for k, tt := range tts {
		for i := range rounds {
			select {
			case p := <-tt.Inbox():
				if p.From == tt.Self() {
					t.Fatalf("member %d got its own message", k)
				}
			case <-ctx.Done():
				t.Fatalf("member %d got %d of the other's %d envelopes", k, i, rounds)
			}
		}
	}
	if got, err := sp.Fetch(ctx, b.Self(), []byte("step 0")); err != nil || len(got) != 1 {
		t.Fatalf("the spectator's catch-up: %q %v", got, err)
	}
	// Each member now publishes a marker after its envelopes, over the same
	// stream to each eavesdropper; once an eavesdropper saw both markers,
	// any envelope sent to it would have been counted.
	for k, st := range sideTopics {
		if err := st.Publish(ctx, fmt.Appendf(nil, "end %d", k)); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range eaves {
		waitFor(t, 30*time.Second, "the members' end markers", func() bool { return e.rpcs.saw("end 0") && e.rpcs.saw("end 1") })
		if got := e.rpcs.count(topic); got != 0 {
			t.Errorf("non-member %d received %d messages of the private table's topic", i, got)
		}
	}
}
