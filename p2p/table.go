package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
)

// tableTopic is the gossipsub topic of table id.
func tableTopic(id string) string { return TableTopicPrefix + id }

// ValidTableID checks a table id: 1 to 64 characters of [A-Za-z0-9_-].
func ValidTableID(id string) error { return wire.ValidTableID(id) }

// TableTransport is one table's network: a gossipsub topic shared by its
// members, and the sync stream for catch-up. It implements table.Transport.
type TableTransport struct {
	n         *Node
	id        string
	topicName string
	members   []peer.ID
	others    []peer.ID
	memberSet map[peer.ID]bool
	validate  func(peer.ID, []byte) error

	topic *pubsub.Topic
	sub   *pubsub.Subscription

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	inbox  chan table.Packet
	local  chan *pubsub.Message // WithoutForwarding: valid messages kept from pubsub

	serve    atomic.Pointer[func(table.PeerID, []byte) [][]byte]
	presence chan struct{}

	wanted, reading bool // set by open (before the reader starts)

	// Roll calls (rollcall.go): who this node has heard (a message they
	// authored arrived) and who the topic reported joined.
	selfIndex     int
	rcMu          sync.Mutex
	heard, joined map[peer.ID]bool
	heardCh, owed chan struct{}
	calling       atomic.Bool

	closeOnce sync.Once
	closeErr  error

	chat *tableChat // the table's chat (tablechat.go)

	stats   tableStats
	rejMu   sync.Mutex
	rejects map[string]uint64
	// Non-members' subscriptions refused since the last log (subFilter).
	subRefused uint64
	subLogAt   time.Time

	// spectator: this node watches the table without a seat (spectate.go).
	spectator bool
	// admit decides which peers that are not members may catch up from
	// this member (spectate.go); nil: none. spectSeen: when each
	// spectator was last served.
	admit     atomic.Pointer[func(peer.ID) bool]
	spectMu   sync.Mutex
	spectSeen map[peer.ID]time.Time
	// A private table's spectator admission (AdmitSpectatorsBySecret):
	// the creator, the secrets, the spectators that proved one.
	spectCreator peer.ID
	spectSecrets []invite.Secret
	spectProven  map[peer.ID]bool
}

type tableStats struct {
	delivered, rejected, dropped, served, refused atomic.Uint64
	subsRefused                                   atomic.Uint64
}

// Stats counts what happened on a table, for logs and tests.
type Stats struct {
	// Delivered messages reached Inbox.
	Delivered uint64
	// Rejected messages failed validation (not a member, invalid, too big);
	// RejectReasons has them by reason.
	Rejected      uint64
	RejectReasons map[string]uint64
	// Dropped messages were lost to a full pubsub subscription queue.
	Dropped uint64
	// Served and Refused count sync requests answered and refused.
	Served, Refused uint64
	// SubscribersRefused counts the subscriptions to the table's topic of
	// peers that are not members, ignored (protocol.md 7.12).
	SubscribersRefused uint64
}

var _ table.Transport = (*TableTransport)(nil)

// TableOption configures JoinTable.
type TableOption func(*tableOptions) error

type tableOptions struct {
	readyTimeout time.Duration
}

// WithReadyTimeout makes JoinTable return after d even when some members
// have not joined the table's topic yet (default: wait until all have, or
// ctx ends).
func WithReadyTimeout(d time.Duration) TableOption {
	return func(o *tableOptions) error {
		if d <= 0 {
			return errors.New("p2p: WithReadyTimeout: not positive")
		}
		o.readyTimeout = d
		return nil
	}
}

// JoinTable opens table tableID with the given members (which must include
// this node; their order is kept by Members). validate checks every message
// from another member before it is delivered or forwarded: an error rejects
// it (pubsub.ValidationReject), and it never reaches Inbox. Messages whose
// signed pubsub author is not a member are rejected before validate is
// called; this node's own messages are not passed to validate.
//
// Every other member becomes a gossipsub direct peer and is dialled (and
// redialled while the table is open). While the table is open, a peer that
// is not a member and subscribes to its topic is sent nothing on it (its
// subscription is ignored; one made before JoinTable costs it its
// connections: protocol.md 7.12). JoinTable returns when every other
// member has been reached: the topic reported it joined (a direct
// connection), or a message it authored arrived, through anyone's gossip
// (its roll call, protocol.md 7.4), because messages published before that
// are lost; it gives up when ctx ends, naming the missing members.
//
// With WithReadyTimeout, JoinTable stops waiting after that long and
// returns the table anyway, logging the members that have not joined: the
// caller's protocol then decides what their absence means (the table
// protocol waits, catches them up when they come, and blames a seat that
// stays silent).
func (n *Node) JoinTable(ctx context.Context, tableID string, members []peer.ID, validate func(from peer.ID, data []byte) error, opts ...TableOption) (*TableTransport, error) {
	return n.openTable(ctx, tableID, members, validate, false, opts)
}

// openTable is JoinTable, or WatchTable for a spectator (spectate.go).
func (n *Node) openTable(ctx context.Context, tableID string, members []peer.ID, validate func(from peer.ID, data []byte) error, spectator bool, opts []TableOption) (*TableTransport, error) {
	var to tableOptions
	for _, o := range opts {
		if err := o(&to); err != nil {
			return nil, err
		}
	}
	if err := ValidTableID(tableID); err != nil {
		return nil, err
	}
	if validate == nil {
		return nil, errors.New("p2p: JoinTable: nil validate")
	}
	self := n.h.ID()
	set := make(map[peer.ID]bool, len(members))
	var others []peer.ID
	for _, m := range members {
		if _, err := peer.IDFromBytes([]byte(m)); err != nil {
			return nil, fmt.Errorf("p2p: JoinTable: bad member id %q: %w", m, err)
		}
		if set[m] {
			return nil, fmt.Errorf("p2p: JoinTable: member %s listed twice", m)
		}
		set[m] = true
		if m != self {
			others = append(others, m)
		}
	}
	switch {
	case !set[self] && !spectator:
		return nil, errors.New("p2p: JoinTable: this node is not among the members")
	case set[self] && spectator:
		return nil, errors.New("p2p: WatchTable: this node is a member: it joins the table, it does not watch it")
	}
	t := &TableTransport{
		n: n, id: tableID, topicName: tableTopic(tableID),
		members: slices.Clone(members), others: others, memberSet: set, validate: validate,
		inbox: make(chan table.Packet, n.cfg.queue), presence: make(chan struct{}, 1),
		rejects:   map[string]uint64{},
		selfIndex: slices.Index(members, self),
		heard:     map[peer.ID]bool{}, joined: map[peer.ID]bool{},
		heardCh: make(chan struct{}, 1), owed: make(chan struct{}, 1),
		spectator: spectator, chat: newTableChat(tableID),
	}
	if n.cfg.noForward {
		t.local = make(chan *pubsub.Message, n.cfg.queue)
	}
	t.ctx, t.cancel = context.WithCancel(n.ctx)

	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		t.cancel()
		return nil, ErrClosed
	}
	if _, dup := n.tables[tableID]; dup {
		n.mu.Unlock()
		t.cancel()
		return nil, fmt.Errorf("p2p: table %s is already open", tableID)
	}
	n.tables[tableID] = t
	n.watch[t] = struct{}{}
	n.mu.Unlock()
	if !spectator {
		n.topics.Store(t.topicName, t)
		n.topics.Store(t.chat.topicName, t)
	}

	start := time.Now()
	// Close (of the table or the node) waits for open and ends its wait.
	t.wg.Add(1)
	openCtx, stop := context.WithCancel(ctx)
	unhook := context.AfterFunc(t.ctx, stop)
	var err error
	if spectator {
		err = t.openWatch(openCtx, to.readyTimeout)
	} else {
		err = t.open(openCtx, to.readyTimeout)
	}
	unhook()
	stop()
	t.wg.Done()
	if err == nil && spectator {
		t.wg.Add(1)
		go t.pollChat()
	}
	if err != nil {
		t.Close()
		return nil, err
	}
	n.log.Info("table ready", "table", tableID, "members", len(members), "spectator", spectator, "took", time.Since(start))
	return t, nil
}

func (t *TableTransport) open(ctx context.Context, readyTimeout time.Duration) error {
	n := t.n
	if err := n.ps.RegisterTopicValidator(t.topicName, t.validator); err != nil {
		return fmt.Errorf("p2p: table %s: register validator: %w", t.id, err)
	}
	topic, err := n.ps.Join(t.topicName)
	if err != nil {
		return fmt.Errorf("p2p: table %s: join topic: %w", t.id, err)
	}
	t.topic = topic
	t.purgeSubscribers()
	evt, err := topic.EventHandler()
	if err != nil {
		return fmt.Errorf("p2p: table %s: topic events: %w", t.id, err)
	}
	defer evt.Cancel()
	// The chat's topic first (protocol.md 7.13): a member seen on the
	// table's topic is on the chat's already.
	if err := t.openChat(); err != nil {
		return err
	}
	sub, err := topic.Subscribe(pubsub.WithBufferSize(n.cfg.queue))
	if err != nil {
		return fmt.Errorf("p2p: table %s: subscribe: %w", t.id, err)
	}
	t.sub = sub
	t.wanted = true
	if err := n.wantPeers(t.others); err != nil {
		return err
	}
	waitCtx := ctx
	if readyTimeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, readyTimeout)
		defer cancel()
	}
	// The topic's peer events, pumped so that roll calls are waited for too.
	evCtx, stopEv := context.WithCancel(waitCtx)
	events := make(chan pubsub.PeerEvent)
	var evWG sync.WaitGroup
	evWG.Go(func() {
		for {
			ev, err := evt.NextPeerEvent(evCtx)
			if err != nil {
				return
			}
			select {
			case events <- ev:
			case <-evCtx.Done():
				return
			}
		}
	})
	defer evWG.Wait()
	defer stopEv()
	t.calling.Store(true)
	defer t.calling.Store(false)
	t.wg.Add(1)
	go t.rollCalls()
	for {
		missing := t.missing()
		if len(missing) == 0 {
			break
		}
		select {
		case ev := <-events:
			if t.memberSet[ev.Peer] {
				t.setJoined(ev.Peer, ev.Type == pubsub.PeerJoin)
			}
			continue
		case <-t.heardCh:
			continue
		case <-waitCtx.Done():
		}
		names := make([]string, len(missing))
		for i, p := range missing {
			names[i] = p.String()
		}
		if ctx.Err() == nil && readyTimeout > 0 {
			n.log.Warn("table opened without every member", "table", t.id, "missing", names, "waited", readyTimeout)
			break
		}
		return fmt.Errorf("p2p: table %s: members not ready %v: %w", t.id, names, waitCtx.Err())
	}
	t.reading = true
	t.wg.Add(1)
	go t.read()
	return nil
}

// validator is the topic validator.
func (t *TableTransport) validator(_ context.Context, _ peer.ID, m *pubsub.Message) pubsub.ValidationResult {
	author := m.GetFrom()
	if author == t.n.h.ID() {
		return pubsub.ValidationAccept
	}
	if !t.memberSet[author] {
		t.reject(author, "author is not a member", nil)
		return pubsub.ValidationReject
	}
	if len(m.Data) > MaxMessageSize {
		t.reject(author, "message too large", fmt.Errorf("%d bytes", len(m.Data)))
		return pubsub.ValidationReject
	}
	if isRollCall(m.Data) {
		heard, err := decodeRollCall(m.Data, len(t.members))
		if err != nil {
			t.reject(author, "invalid roll call", err)
			return pubsub.ValidationReject
		}
		t.rollCallFrom(author, heard)
		return t.accepted(m)
	}
	if err := t.validate(author, m.Data); err != nil {
		t.reject(author, "invalid", err)
		return pubsub.ValidationReject
	}
	t.markHeard(author)
	return t.accepted(m)
}

func (t *TableTransport) reject(author peer.ID, reason string, err error) {
	t.countReject(reason)
	args := []any{"table", t.id, "author", author.String(), "reason", reason}
	if err != nil {
		args = append(args, "err", err)
	}
	t.n.log.Warn("rejected table message", args...)
}

func (t *TableTransport) countReject(reason string) {
	t.stats.rejected.Add(1)
	t.rejMu.Lock()
	t.rejects[reason]++
	t.rejMu.Unlock()
}

func (t *TableTransport) read() {
	defer t.wg.Done()
	defer close(t.inbox)
	self := t.n.h.ID()
	sub := t.subMessages()
	for {
		m := t.next(sub)
		if m == nil {
			return
		}
		if m.GetFrom() == self {
			continue
		}
		t.n.heardFrom(m.GetFrom())
		if isRollCall(m.Data) {
			continue // validated: not for the table protocol
		}
		select {
		case t.inbox <- table.Packet{From: table.PeerID(m.GetFrom().String()), Data: m.Data}:
			t.stats.delivered.Add(1)
		case <-t.ctx.Done():
			return
		}
	}
}

// ID is the table id.
func (t *TableTransport) ID() string { return t.id }

// Self implements table.Transport.
func (t *TableTransport) Self() table.PeerID { return table.PeerID(t.n.h.ID().String()) }

// Broadcast implements table.Transport: it publishes data on the table's
// topic. data larger than MaxMessageSize is an error.
func (t *TableTransport) Broadcast(ctx context.Context, data []byte) error {
	if t.ctx.Err() != nil {
		return ErrClosed
	}
	if t.spectator {
		return ErrSpectator
	}
	if len(data) > MaxMessageSize {
		return fmt.Errorf("p2p: message of %d bytes exceeds %d", len(data), MaxMessageSize)
	}
	if isRollCall(data) {
		return errors.New("p2p: Broadcast: data starts with the roll call magic")
	}
	if err := t.topic.Publish(ctx, data); err != nil {
		if t.ctx.Err() != nil {
			return ErrClosed
		}
		return fmt.Errorf("p2p: table %s: publish: %w", t.id, err)
	}
	return nil
}

// Inbox implements table.Transport. It is closed by Close.
func (t *TableTransport) Inbox() <-chan table.Packet { return t.inbox }

// MemberStatus is one member's presence.
type MemberStatus struct {
	ID        table.PeerID
	Self      bool
	Connected bool
}

// Members lists the table's members in JoinTable's order with whether each
// is connected now (this node is always connected).
func (t *TableTransport) Members() []MemberStatus {
	self := t.n.h.ID()
	out := make([]MemberStatus, len(t.members))
	for i, m := range t.members {
		out[i] = MemberStatus{ID: table.PeerID(m.String()), Self: m == self, Connected: m == self || t.n.Connected(m)}
	}
	return out
}

// PresenceChanged receives a value (coalesced) when a member connects or
// disconnects: call Members for the new view.
func (t *TableTransport) PresenceChanged() <-chan struct{} { return t.presence }

func (t *TableTransport) notifyPresence() {
	select {
	case t.presence <- struct{}{}:
	default:
	}
}

func (t *TableTransport) isMember(p peer.ID) bool { return t.memberSet[p] }

// Stats returns the table's counters.
func (t *TableTransport) Stats() Stats {
	t.rejMu.Lock()
	reasons := make(map[string]uint64, len(t.rejects))
	for k, v := range t.rejects {
		reasons[k] = v
	}
	t.rejMu.Unlock()
	return Stats{
		Delivered: t.stats.delivered.Load(), Rejected: t.stats.rejected.Load(), RejectReasons: reasons,
		Dropped: t.stats.dropped.Load(), Served: t.stats.served.Load(), Refused: t.stats.refused.Load(),
		SubscribersRefused: t.stats.subsRefused.Load(),
	}
}

// Close implements table.Transport: it leaves the topic, stops serving
// sync requests for the table, closes Inbox and stops reconnecting to the
// members (unless another open table has them).
func (t *TableTransport) Close() error {
	t.closeOnce.Do(func() {
		n := t.n
		n.mu.Lock()
		if n.tables[t.id] == t {
			delete(n.tables, t.id)
			n.topics.CompareAndDelete(t.topicName, t)
			n.topics.CompareAndDelete(t.chat.topicName, t)
		}
		delete(n.watch, t)
		n.mu.Unlock()
		t.cancel()
		t.wg.Wait()
		if !t.reading {
			close(t.inbox)
		}
		var errs []error
		if t.sub != nil {
			t.sub.Cancel()
		}
		if t.topic != nil {
			errs = append(errs, wire.CloseTopic(n.ctx, t.topic))
		}
		errs = append(errs, t.closeChat())
		if err := n.ps.UnregisterTopicValidator(t.topicName); err != nil && n.ctx.Err() == nil {
			n.log.Debug("unregister validator", "table", t.id, "err", err)
		}
		if t.wanted {
			if t.spectator {
				n.unkeepPeers(t.others)
			} else {
				n.unwantPeers(t.others)
			}
		}
		t.closeErr = errors.Join(errs...)
		n.log.Info("table closed", "table", t.id)
	})
	return t.closeErr
}
