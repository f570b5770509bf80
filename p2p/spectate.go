package p2p

import (
	"context"
	"slices"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/invite"
)

// Spectators (protocol.md 7.12): a peer that is not a member of a table
// may follow it. It does not subscribe to the table's topic: it is fed by
// the members' answers to its catch-up requests over the sync protocol
// (7.7), polling one member at a time, so that the members' broadcasts go
// to the members only (they are direct peers of one another: no spectator
// stands between two seats, and none adds a copy to a move's sending).
// Whatever a spectator publishes on the topic is refused by the members'
// validators (its author is not a member, 7.4). Members never mesh with a
// non-member on a table's topic (meshFilter), and ignore a non-member's
// subscription to it (subFilter): whoever subscribes without a seat gets
// nothing.

// Caps of the sync streams a member serves to spectators (peers that are
// not members of the table they ask about), besides MaxSyncStreams: at most
// MaxSpectatorPeerStreams of one spectator and MaxSpectatorStreams in all at
// once. A spectator stream still waiting for its request gives its place to
// a spectator that holds fewer, as the lobby's streams do, so slow streams
// of many peer ids cannot keep the places.
const (
	MaxSpectatorPeerStreams = 1
	MaxSpectatorStreams     = 16
	// defaultWatchWait bounds WatchTable's wait for a member on the topic
	// when no WithReadyTimeout is given: after it the spectator reads
	// anyway (its catch-up fetches dial the members).
	defaultWatchWait = 10 * time.Second
)

// WatchTable opens table tableID as a spectator: this node, which must not
// be among the members, fetches from the members that admit it
// (AdmitSpectators on their side). It does not subscribe to the table's
// topic: its Inbox delivers nothing and closes with Close; its Broadcast
// returns ErrSpectator; it serves no one. The members are dialled and
// redialled while the table is open, but not made direct peers. It returns
// once a member is connected, or after WithReadyTimeout (default 10 s)
// without one: the fetches dial the members anyway.
func (n *Node) WatchTable(ctx context.Context, tableID string, members []peer.ID, validate func(from peer.ID, data []byte) error, opts ...TableOption) (*TableTransport, error) {
	return n.openTable(ctx, tableID, members, validate, true, opts)
}

func (t *TableTransport) openWatch(ctx context.Context, readyTimeout time.Duration) error {
	n := t.n
	t.wanted = true
	if err := n.keepPeers(t.others); err != nil {
		return err
	}
	if readyTimeout <= 0 {
		readyTimeout = defaultWatchWait
	}
	wctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		for _, p := range t.others {
			if n.Connected(p) {
				return nil
			}
		}
		select {
		case <-wctx.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			n.log.Warn("watching a table with no member connected yet", "table", t.id, "waited", readyTimeout)
			return nil
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// spectatorWindow is how long a spectator counts as one after its last
// catch-up request was served (Spectators).
const spectatorWindow = 10 * time.Second

// sawSpectator notes that a spectator's request was served.
func (t *TableTransport) sawSpectator(p peer.ID) {
	t.spectMu.Lock()
	defer t.spectMu.Unlock()
	if t.spectSeen == nil {
		t.spectSeen = map[peer.ID]time.Time{}
	}
	now := time.Now()
	t.spectSeen[p] = now
	for q, at := range t.spectSeen {
		if now.Sub(at) > spectatorWindow {
			delete(t.spectSeen, q)
		}
	}
}

// Spectators returns how many spectators this member served catch-up to
// in the last 10 s: the table's spectators as far as this member knows (a
// hook for the lobby's announcement).
func (t *TableTransport) Spectators() int {
	t.spectMu.Lock()
	defer t.spectMu.Unlock()
	k := 0
	for _, at := range t.spectSeen {
		if time.Since(at) <= spectatorWindow {
			k++
		}
	}
	return k
}

// IsSpectator reports whether this node watches the table (WatchTable)
// rather than sits at it.
func (t *TableTransport) IsSpectator() bool { return t.spectator }

// AdmitSpectators sets which peers that are not members this member
// serves catch-up to (protocol.md 7.12): nil (the default) admits none;
// AnySpectator admits every peer (a public table). The decision is made per
// sync stream, before its request is read.
func (t *TableTransport) AdmitSpectators(admit func(peer.ID) bool) {
	if admit == nil {
		t.admit.Store(nil)
		return
	}
	t.admit.Store(&admit)
}

// AnySpectator admits every peer: the policy of a public table.
func AnySpectator(peer.ID) bool { return true }

// admits reports whether p may catch up from this member as a spectator.
func (t *TableTransport) admits(p peer.ID) bool {
	a := t.admit.Load()
	return a != nil && (*a)(p)
}

// memberAnywhere reports whether p is a member of a table this node has
// open as a member (its sync streams are a member's, not a spectator's).
func (n *Node) memberAnywhere(p peer.ID) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, t := range n.tables {
		if !t.spectator && t.memberSet[p] {
			return true
		}
	}
	return false
}

// keepPeers marks peers to keep connected (redialled when a link drops),
// without making them gossipsub direct peers: a spectator's members.
func (n *Node) keepPeers(ps []peer.ID) error {
	if _, err := n.markWanted(ps, false); err != nil {
		return err
	}
	for _, p := range ps {
		n.startDial(p)
	}
	return nil
}

// unkeepPeers undoes keepPeers.
func (n *Node) unkeepPeers(ps []peer.ID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range ps {
		if n.want[p]--; n.want[p] <= 0 {
			delete(n.want, p)
		}
	}
}

// SpectatorSyncStats counts the spectator sync streams this node saw:
// arrived at the gate, reset unread over a cap, and evicted while waiting
// for their request.
func (n *Node) SpectatorSyncStats() (arrived, overCap, evicted uint64) {
	g := &n.spectGate
	return g.Arrived.Load(), g.OverCap.Load(), g.Evicted.Load()
}

// meshFilter is gossipsub's peer filter (GRAFT, IHAVE, IWANT, the mesh's
// candidates): on the topic of a table open here as a member, a member
// meshes with members only (they are direct peers anyway), never with a
// non-member. Other topics are not filtered.
func (n *Node) meshFilter(p peer.ID, topic string) bool {
	t := n.memberTable(topic)
	return t == nil || t.memberSet[p]
}

// subFilter is gossipsub's subscription filter (protocol.md 7.12): on the
// topic of a table open here as a member, a non-member's subscription is
// ignored, so that the node never counts it among the topic's peers and
// sends it nothing: neither its own messages (flood publishing goes to
// every subscriber) nor those it forwards. A subscription that arrived
// before the table opened here is undone by purgeSubscribers. Every other
// subscription, and every unsubscription, passes.
type subFilter struct{ n *Node }

// CanSubscribe lets this node join any topic.
func (subFilter) CanSubscribe(string) bool { return true }

// FilterIncomingSubscriptions drops from's subscriptions to the topics of
// the tables open here of which it is not a member.
func (f subFilter) FilterIncomingSubscriptions(from peer.ID, subs []*pb.RPC_SubOpts) ([]*pb.RPC_SubOpts, error) {
	var out []*pb.RPC_SubOpts
	for i, s := range subs {
		t := f.n.memberTable(s.GetTopicid())
		if t == nil || !s.GetSubscribe() || t.memberSet[from] {
			if out != nil {
				out = append(out, s)
			}
			continue
		}
		if out == nil {
			out = append(make([]*pb.RPC_SubOpts, 0, len(subs)), subs[:i]...)
		}
		t.refuseSubscriber(from, false)
	}
	if out == nil {
		return subs, nil
	}
	return out, nil
}

// memberTable is the table open here as a member whose topic is topic, or
// nil (lock-free: gossipsub's filters call it on its event loop).
func (n *Node) memberTable(topic string) *TableTransport {
	v, ok := n.topics.Load(topic)
	if !ok {
		return nil
	}
	return v.(*TableTransport)
}

// refuseSubscriber counts a non-member's subscription to the table's topic
// and logs it at most once per 5 s per table; disconnected says that the
// peer's connections were closed to undo a subscription made before the
// table opened here.
func (t *TableTransport) refuseSubscriber(p peer.ID, disconnected bool) {
	t.stats.subsRefused.Add(1)
	t.rejMu.Lock()
	t.subRefused++
	now := time.Now()
	var n uint64
	if now.Sub(t.subLogAt) >= 5*time.Second {
		t.subLogAt, n, t.subRefused = now, t.subRefused, 0
	}
	t.rejMu.Unlock()
	if n > 0 {
		t.n.log.Warn("ignored a non-member's subscription to a table's topic", "table", t.id, "peer", p.String(), "count", n, "disconnected", disconnected)
	}
}

// purgeSubscribers undoes the subscriptions to the table's topic that
// non-members made before the table opened here (gossipsub kept them:
// subFilter applies only to what arrives once the table is open). It runs
// after the table is in n.topics and before this node publishes on the
// topic: a subscription is then either kept out by subFilter or listed
// here. gossipsub forgets a peer's subscriptions when its connection dies,
// so each such peer is disconnected; when it reconnects, its subscription
// is ignored. An honest peer never subscribes to a table it does not sit
// at (a spectator is fed by catch-up).
func (t *TableTransport) purgeSubscribers() { t.purgeTopic(t.topic) }

// purgeTopic is purgeSubscribers for one of the table's topics (the
// table's, or its chat's: protocol.md 7.13).
func (t *TableTransport) purgeTopic(topic *pubsub.Topic) {
	for _, p := range topic.ListPeers() {
		if t.memberSet[p] {
			continue
		}
		t.refuseSubscriber(p, true)
		if err := t.n.h.Network().ClosePeer(p); err != nil {
			t.n.log.Debug("disconnect a non-member subscriber", "table", t.id, "peer", p.String(), "err", err)
		}
	}
}

// spectatorLabel starts a spectator's admission request at a private table
// (protocol.md 7.12): "okey/watch/v1" || the 32-byte spectator proof, sent
// as the request of a sync stream.
const spectatorLabel = "okey/watch/v1"

// SpectatorRequest is the sync request that presents a spectator's proof.
func SpectatorRequest(p invite.Proof) []byte { return append([]byte(spectatorLabel), p[:]...) }

// spectatorProof parses a spectator's admission request.
func spectatorProof(req []byte) (invite.Proof, bool) {
	var p invite.Proof
	if len(req) != len(spectatorLabel)+len(p) || string(req[:len(spectatorLabel)]) != spectatorLabel {
		return p, false
	}
	copy(p[:], req[len(spectatorLabel):])
	return p, true
}

// AdmitSpectatorsBySecret makes this member of a private table admit the
// spectators that prove they hold one of the table's secrets (the one of
// the code it joined by, or the creator's): a peer that presents a valid
// spectator proof (SpectatorRequest) is admitted until the table closes.
func (t *TableTransport) AdmitSpectatorsBySecret(creator peer.ID, secrets ...invite.Secret) {
	t.spectMu.Lock()
	t.spectCreator = creator
	t.spectSecrets = slices.DeleteFunc(slices.Clone(secrets), invite.Secret.IsZero)
	t.spectMu.Unlock()
	t.AdmitSpectators(t.proven)
}

// proves checks a spectator's proof against the table's secrets and, when
// it holds, admits the spectator.
func (t *TableTransport) proves(p peer.ID, pr invite.Proof) bool {
	t.spectMu.Lock()
	defer t.spectMu.Unlock()
	for _, s := range t.spectSecrets {
		if s.CheckSpectator(pr, t.id, []byte(t.spectCreator), []byte(p)) {
			if t.spectProven == nil {
				t.spectProven = map[peer.ID]bool{}
			}
			t.spectProven[p] = true
			return true
		}
	}
	return false
}

// proven reports whether p presented a valid spectator proof.
func (t *TableTransport) proven(p peer.ID) bool {
	t.spectMu.Lock()
	defer t.spectMu.Unlock()
	return t.spectProven[p]
}

// byProof reports whether the table admits spectators by proof.
func (t *TableTransport) byProof() bool {
	t.spectMu.Lock()
	defer t.spectMu.Unlock()
	return len(t.spectSecrets) > 0
}
