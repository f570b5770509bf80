package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/relay"
)

// Sizes and bounds of the network layer.
const (
	// MaxMessageSize bounds one table or lobby message's data, and one sync
	// frame.
	MaxMessageSize = wire.MaxMessageSize
	// maxWireMessage is gossipsub's RPC bound: the data plus the pubsub
	// envelope (author, sequence number, topic, signature, key).
	maxWireMessage = MaxMessageSize + 16<<10
	// DefaultQueueSize is the pubsub queue length (subscription buffer,
	// per-peer outbound queue, validation queue) and the Inbox buffer.
	// gossipsub's default of 32 lost a quarter of a 300-message burst here.
	DefaultQueueSize = 1024
)

// RetryPolicy governs dials of discovered peers and reconnects to table
// members. Delays grow from Min, doubling, up to Max, with up to 25% jitter.
type RetryPolicy struct {
	// Attempts is how many times a discovered peer is dialled before giving
	// up. Table members are redialled without limit while a table that
	// contains them is open.
	Attempts int
	Min, Max time.Duration
	// DialTimeout bounds one dial.
	DialTimeout time.Duration
}

// DefaultRetry is the default RetryPolicy.
var DefaultRetry = RetryPolicy{Attempts: 8, Min: 200 * time.Millisecond, Max: 10 * time.Second, DialTimeout: 10 * time.Second}

type nodeConfig struct {
	log         *slog.Logger
	discs       []Discovery
	mdns        string
	useMDNS     bool
	static      []string
	retry       RetryPolicy
	name        string
	queue       int
	syncTimeout time.Duration
	relays      []peer.AddrInfo
	relayKeys   map[peer.ID]relay.Key // WithRelayKey
	serveRelay  *relay.Config
	noForward   bool          // WithoutForwarding
	chatPoll    time.Duration // WithChatPoll
}

// NodeOption configures NewNode.
type NodeOption func(*nodeConfig) error

// WithChatPoll sets how often a spectator asks a member for a table's
// chat (default 2 s; protocol.md 7.13).
func WithChatPoll(d time.Duration) NodeOption {
	return func(c *nodeConfig) error {
		if d <= 0 {
			return errors.New("p2p: WithChatPoll: not positive")
		}
		c.chatPoll = d
		return nil
	}
}

// WithLogger sets the logger (default: discard). The Node never writes to
// stdout or stderr itself.
func WithLogger(l *slog.Logger) NodeOption {
	return func(c *nodeConfig) error {
		if l == nil {
			return errors.New("p2p: WithLogger: nil logger")
		}
		c.log = l
		return nil
	}
}

// WithDiscovery adds a discovery source (repeatable).
func WithDiscovery(d Discovery) NodeOption {
	return func(c *nodeConfig) error {
		if d == nil {
			return errors.New("p2p: WithDiscovery: nil")
		}
		c.discs = append(c.discs, d)
		return nil
	}
}

// WithMDNS turns on mDNS discovery with serviceName ("" means ServiceName).
// Off by default: tests must never multicast on the machine's interfaces.
func WithMDNS(serviceName string) NodeOption {
	return func(c *nodeConfig) error {
		c.useMDNS = true
		c.mdns = serviceName
		return nil
	}
}

// WithStaticPeers dials these multiaddrs (each ending in /p2p/<id>, as
// given with --peer) with retries. A bad address is an error.
func WithStaticPeers(addrs ...string) NodeOption {
	return func(c *nodeConfig) error {
		for _, a := range addrs {
			if _, err := ParsePeerAddr(a); err != nil {
				return err
			}
		}
		c.static = append(c.static, addrs...)
		return nil
	}
}

// WithRetry sets the dial retry policy (default DefaultRetry).
func WithRetry(p RetryPolicy) NodeOption {
	return func(c *nodeConfig) error {
		if p.Attempts < 1 || p.Min <= 0 || p.Max < p.Min || p.DialTimeout <= 0 {
			return fmt.Errorf("p2p: WithRetry: invalid policy %+v", p)
		}
		c.retry = p
		return nil
	}
}

// WithDisplayName sets the name shown in the lobby (default "player-" and
// the last 6 characters of the peer id).
func WithDisplayName(name string) NodeOption {
	return func(c *nodeConfig) error {
		if err := ValidateDisplayName(name); err != nil {
			return err
		}
		c.name = name
		return nil
	}
}

// WithQueueSize sets the pubsub queues and Inbox buffer (default
// DefaultQueueSize).
func WithQueueSize(n int) NodeOption {
	return func(c *nodeConfig) error {
		if n < 32 || n > 1<<16 {
			return fmt.Errorf("p2p: WithQueueSize: %d out of range 32..65536", n)
		}
		c.queue = n
		return nil
	}
}

// WithSyncTimeout bounds one Fetch, and the serving of one (default 30 s).
func WithSyncTimeout(d time.Duration) NodeOption {
	return func(c *nodeConfig) error {
		if d <= 0 {
			return errors.New("p2p: WithSyncTimeout: not positive")
		}
		c.syncTimeout = d
		return nil
	}
}

// WithServeRelay makes the node a relay for the tables it registers itself
// (a player whose host is publicly reachable serving its own table): the
// same service as okey relay, with an allow-list of this node only.
func WithServeRelay(cfg relay.Config) NodeOption {
	return func(c *nodeConfig) error {
		c.serveRelay = &cfg
		return nil
	}
}

// Node is one okey peer on the network: it owns the libp2p host, gossipsub,
// discovery, dialling and reconnection, and the open tables; the services
// beside it (p2p/lobby, p2p/tournament) are built on its Base and closed
// before it. Close stops the node and its tables.
type Node struct {
	h     host.Host
	ps    *pubsub.PubSub
	log   *slog.Logger
	cfg   nodeConfig
	discs []Discovery

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	dialing map[peer.ID]bool
	want    map[peer.ID]int // open tables that contain the peer: keep connected
	direct  map[peer.ID]int // open tables that made the peer a gossipsub direct peer
	tables  map[string]*TableTransport
	watch   map[*TableTransport]struct{}
	syncing map[peer.ID]int // sync streams being served, per remote peer
	relays  map[peer.ID]*nodeRelay
	// relayLists are the member lists of the tables this node registered
	// (SetRelayMembers), for the relays it registers them with later.
	relayLists map[string]relayAdmission
	// presenting counts the background presentations of a table under
	// way (WaitRelayAnswers waits for them).
	presenting map[string]int
	// waiting: Close waits for the node's goroutines; no more start.
	waiting  bool
	heard    map[peer.ID]time.Time // last table message authored by a peer
	punching map[peer.ID]bool      // punchLater running
	wake     chan struct{}         // closed when a lost relay is back (wakeDials)

	relaySvc *relay.Service

	syncOverCap atomic.Uint64 // sync streams reset for going over MaxSyncStreams
	// spectGate holds the places of spectators' sync streams (spectate.go).
	spectGate wire.Gate
	// topics holds the open tables by topic name, for meshFilter (read on
	// pubsub's goroutine, so not under mu).
	topics sync.Map
}

// NewNode starts a Node on h and takes ownership of h: Close closes it, and
// so does a failing NewNode.
func NewNode(h host.Host, opts ...NodeOption) (n *Node, err error) {
	defer func() {
		if err != nil {
			h.Close()
		}
	}()
	c := nodeConfig{log: discardLogger(), retry: DefaultRetry, queue: DefaultQueueSize, syncTimeout: 30 * time.Second, chatPoll: defaultChatPoll}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if c.name == "" {
		id := h.ID().String()
		c.name = "player-" + id[len(id)-6:]
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = &Node{
		h: h, log: c.log, cfg: c, ctx: ctx, cancel: cancel,
		dialing: map[peer.ID]bool{}, want: map[peer.ID]int{}, direct: map[peer.ID]int{},
		tables: map[string]*TableTransport{}, watch: map[*TableTransport]struct{}{}, syncing: map[peer.ID]int{},
		relays: map[peer.ID]*nodeRelay{}, heard: map[peer.ID]time.Time{}, punching: map[peer.ID]bool{},
		wake:      make(chan struct{}),
		spectGate: wire.NewGate(MaxSpectatorPeerStreams, MaxSpectatorStreams),
	}
	psLog := c.log.With("component", "pubsub")
	n.ps, err = pubsub.NewGossipSub(ctx, h,
		pubsub.WithLogger(psLog),
		pubsub.WithRPCLogger(psLog),
		pubsub.WithMaxMessageSize(maxWireMessage),
		pubsub.WithPeerOutboundQueueSize(c.queue),
		pubsub.WithValidateQueueSize(c.queue),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithPeerExchange(false),
		// A LAN table has a handful of peers: sending every message to
		// every subscriber costs nothing and does not wait for the mesh
		// to form at a heartbeat after a peer connects (notes/libp2p.md).
		pubsub.WithFloodPublish(true),
		pubsub.WithRawTracer(&dropTracer{n: n}),
		// Spectators and members never mesh on a table's topic
		// (spectate.go, protocol.md 7.12).
		pubsub.WithPeerFilter(n.meshFilter),
		// Non-members' subscriptions to a table's topic are ignored: they
		// get nothing on it (spectate.go, protocol.md 7.12).
		pubsub.WithSubscriptionFilter(subFilter{n}),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("p2p: start gossipsub: %w", err)
	}
	h.Network().Notify(&netNotifee{n: n})
	// The ping service answers CheckAlive (mocknet hosts have none of
	// their own; on a host that has one this installs the same handler).
	ping.NewPingService(h)
	h.SetStreamHandler(SyncProtocol, n.handleSync)
	if c.serveRelay != nil {
		rc := *c.serveRelay
		rc.Allowed, rc.Key = nil, relay.Key{} // only this node registers tables
		if rc.Log == nil {
			rc.Log = c.log.With("component", "relay")
		}
		if n.relaySvc, err = relay.New(h, rc); err != nil {
			n.Close()
			return nil, err
		}
	}
	for _, r := range c.relays {
		if _, err := n.addRelay(r); err != nil {
			n.Close()
			return nil, err
		}
	}
	n.wg.Add(1)
	go n.pingLoop()
	discs := append([]Discovery(nil), c.discs...)
	if len(c.static) > 0 {
		sd, err := newStaticDiscovery(c.static...)
		if err != nil {
			n.Close()
			return nil, err
		}
		discs = append(discs, sd)
	}
	if c.useMDNS {
		discs = append(discs, newMDNS(h, c.mdns))
	}
	for _, d := range discs {
		if err := d.Start(n.found); err != nil {
			n.Close()
			d.Close()
			return nil, err
		}
		n.mu.Lock()
		n.discs = append(n.discs, d)
		n.mu.Unlock()
	}
	n.log.Info("node started", "peer", h.ID().String(), "addrs", fmt.Sprint(h.Addrs()))
	return n, nil
}

// Host is the libp2p host (owned by the Node).
func (n *Node) Host() host.Host { return n.h }

// ID is this node's peer id.
func (n *Node) ID() peer.ID { return n.h.ID() }

// DisplayName is the name shown in the lobby.
func (n *Node) DisplayName() string { return n.cfg.name }

// Base is what a service built beside the node (p2p/lobby,
// p2p/tournament) uses of it: the services register their own topics and
// stream handlers on Host and PubSub, and remove them in their Close.
type Base struct {
	Host   host.Host
	PubSub *pubsub.PubSub
	Log    *slog.Logger
	// Context is done when the node closes.
	Context context.Context
	// Queue is a subscription's buffer (WithQueueSize).
	Queue int
	// Retry is the node's dial policy (WithRetry).
	Retry RetryPolicy
	// Presenting counts a background presentation of a table at relays
	// (WaitRelayAnswers waits for it) until the returned function is
	// called.
	Presenting func(table string) (done func())
}

// Base is the node's surface for the services built beside it.
func (n *Node) Base() Base {
	return Base{Host: n.h, PubSub: n.ps, Log: n.log, Context: n.ctx, Queue: n.cfg.queue, Retry: n.cfg.retry, Presenting: n.presentingTable}
}

// Addrs are this node's dialable addresses, each ending in /p2p/<id>: what
// another player passes with --peer.
func (n *Node) Addrs() []string {
	ais, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: n.h.ID(), Addrs: n.h.Addrs()})
	if err != nil {
		return nil
	}
	out := make([]string, len(ais))
	for i, a := range ais {
		out[i] = a.String()
	}
	return out
}

// directDialShare bounds the direct part of a dial when a relay can be
// tried after it.
const directDialShare = 4 * time.Second

// Connect dials a peer once, now (discovery and reconnects retry by
// themselves; this is for callers that want the error): directly, and when
// that fails and the node uses relays, through them.
func (n *Node) Connect(ctx context.Context, ai peer.AddrInfo) error {
	if ai.ID == n.h.ID() {
		return errors.New("p2p: cannot connect to self")
	}
	dctx, cancel := ctx, context.CancelFunc(func() {})
	if len(n.relayCircuits(ai.ID)) > 0 {
		// leave time for the relay when the direct dial hangs (a NAT that
		// drops unsolicited packets)
		dctx, cancel = context.WithTimeout(ctx, directDialShare)
	}
	err := n.h.Connect(network.WithForceDirectDial(dctx, "okey connect"), ai)
	cancel()
	if err == nil || ctx.Err() != nil {
		return err
	}
	if rerr := n.connectViaRelay(ctx, ai.ID); rerr == nil {
		return nil
	} else if len(n.relayCircuits(ai.ID)) > 0 {
		return errors.Join(err, fmt.Errorf("p2p: through the relays: %w", rerr))
	}
	return err
}

// CheckAlive pings p over its open connection. When no answer comes within
// d it closes the connections to p (so that presence says so, and table
// members are redialled) and reports false. A peer whose process died can
// look connected until the transport's idle timeout (QUIC notices nothing;
// TCP waits for a keepalive when the machine is gone). It reports false at
// once when p is not connected.
func (n *Node) CheckAlive(ctx context.Context, p peer.ID, d time.Duration) bool {
	if !n.Connected(p) {
		return false
	}
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res, ok := <-ping.Ping(network.WithNoDial(pctx, "okey alive check"), n.h, p)
	if ok && res.Error == nil {
		return true
	}
	if ctx.Err() != nil || n.ctx.Err() != nil {
		return n.Connected(p) // the caller stopped asking: no verdict
	}
	err := pctx.Err()
	if ok && res.Error != nil {
		err = res.Error
	}
	n.log.Info("peer does not answer a ping, closing its connections", "peer", p.String(), "err", err)
	n.h.Network().ClosePeer(p)
	return false
}

// Connected reports whether there is a live connection to p.
func (n *Node) Connected(p peer.ID) bool {
	return n.h.Network().Connectedness(p) == network.Connected
}

// Close stops the tables, discovery, gossipsub and the host, and
// waits for the node's goroutines.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	tables := make([]*TableTransport, 0, len(n.tables))
	for _, t := range n.tables {
		tables = append(tables, t)
	}
	discs := n.discs
	n.discs = nil
	n.mu.Unlock()

	var errs []error
	for _, t := range tables {
		errs = append(errs, t.Close())
	}
	for _, d := range discs {
		errs = append(errs, d.Close())
	}
	n.h.RemoveStreamHandler(SyncProtocol)
	if n.relaySvc != nil {
		errs = append(errs, n.relaySvc.Close())
	}
	n.mu.Lock()
	n.waiting = true
	n.mu.Unlock()
	n.cancel()
	n.wg.Wait()
	observersMu.Lock()
	delete(observers, n.h.ID())
	observersMu.Unlock()
	errs = append(errs, n.h.Close())
	n.log.Info("node closed")
	return errors.Join(errs...)
}

// found is the discovery callback: remember the addresses and dial with
// retries. Safe for concurrent calls, and after Close.
func (n *Node) found(ai peer.AddrInfo) {
	if ai.ID == n.h.ID() || ai.ID == "" {
		return
	}
	n.log.Debug("peer found", "peer", ai.ID.String(), "addrs", fmt.Sprint(ai.Addrs))
	n.h.Peerstore().AddAddrs(ai.ID, ai.Addrs, peerstore.RecentlyConnectedAddrTTL)
	n.startDial(ai.ID)
}

// startDial starts a dial loop for p unless one is running or p is
// connected.
func (n *Node) startDial(p peer.ID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed || n.dialing[p] || n.Connected(p) {
		return
	}
	n.dialing[p] = true
	n.wg.Add(1)
	go n.dialLoop(p)
}

func (n *Node) dialLoop(p peer.ID) {
	defer n.wg.Done()
	defer func() {
		n.mu.Lock()
		delete(n.dialing, p)
		n.mu.Unlock()
	}()
	r := n.cfg.retry
	delay := r.Min
	wake := n.dialWake()
	relayFirst := false
	for attempt := 1; ; attempt++ {
		if n.Connected(p) {
			return
		}
		ctx, cancel := context.WithTimeout(n.ctx, r.DialTimeout)
		var err error
		if relayFirst {
			// woken by a relay that is back: the member was likely
			// reached through it, and a direct dial to a NAT that drops
			// it would take directDialShare first (hole punching makes
			// the link direct again afterwards)
			if err = n.connectViaRelay(ctx, p); err != nil {
				err = n.Connect(ctx, peer.AddrInfo{ID: p})
			}
			relayFirst = false
		} else {
			err = n.Connect(ctx, peer.AddrInfo{ID: p})
		}
		cancel()
		if err == nil {
			n.log.Debug("connected", "peer", p.String(), "attempt", attempt)
			return
		}
		n.mu.Lock()
		keep := n.want[p] > 0
		n.mu.Unlock()
		if n.ctx.Err() != nil {
			return
		}
		if attempt >= r.Attempts && !keep {
			n.log.Warn("giving up dialling peer", "peer", p.String(), "attempts", attempt, "err", err)
			return
		}
		n.log.Debug("dial failed, retrying", "peer", p.String(), "attempt", attempt, "in", delay, "err", err)
		wait := delay + time.Duration(rand.Int64N(int64(delay)/4+1))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
			delay = min(2*delay, r.Max)
		case <-wake:
			// A relay is back: dial through it now. A member that has not
			// reserved its slot there yet refuses; it dials this node when
			// its own relay connection is back, so the delay is not reset:
			// a retry at once would cost a connection for nothing.
			t.Stop()
			relayFirst = true
		case <-n.ctx.Done():
			t.Stop()
			return
		}
		wake = n.dialWake()
	}
}

// dialWake is closed when a relay the node lost is connected again
// (wakeDials): the dial loops then try at once.
func (n *Node) dialWake() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.wake
}

// wakeDials wakes the dial loops (a relay is back).
func (n *Node) wakeDials() {
	n.mu.Lock()
	defer n.mu.Unlock()
	close(n.wake)
	n.wake = make(chan struct{})
}

// netNotifee tracks presence: it wakes the tables that contain a peer whose
// connectedness changed, and starts reconnecting to wanted peers.
type netNotifee struct{ n *Node }

func (nn *netNotifee) Listen(network.Network, ma.Multiaddr)      {}
func (nn *netNotifee) ListenClose(network.Network, ma.Multiaddr) {}
func (nn *netNotifee) Connected(_ network.Network, c network.Conn) {
	nn.n.presenceChanged(c.RemotePeer(), true)
	if isRelayed(c) && c.Stat().Direction == network.DirInbound {
		go nn.n.punchLater(c.RemotePeer())
	}
	go nn.n.closeStale(c)
}

// closeStale closes the older connections to a table member when a new one
// opens. A member that restarted (a crash, a kill) dials again with the same
// peer id while its old connection may still look alive until the
// transport's idle timeout (QUIC notices nothing when a process dies), and
// gossipsub keeps writing to the stream it opened first: the restarted
// member would not hear the table until then. Connections opened less than
// a second before the new one are left alone (simultaneous dials).
func (n *Node) closeStale(c network.Conn) {
	p := c.RemotePeer()
	n.mu.Lock()
	wanted := n.want[p] > 0 && !n.closed
	n.mu.Unlock()
	opened := c.Stat().Opened
	if !wanted || opened.IsZero() {
		return
	}
	for _, old := range n.h.Network().ConnsToPeer(p) {
		if isRelayed(c) && !isRelayed(old) {
			continue // a relayed link never replaces a direct one
		}
		if o := old.Stat().Opened; old != c && !o.IsZero() && o.Before(opened.Add(-time.Second)) {
			n.log.Info("closing an older connection to a member that connected again", "peer", p.String(), "opened", o.Format(time.RFC3339Nano))
			old.Close()
		}
	}
}
func (nn *netNotifee) Disconnected(_ network.Network, c network.Conn) {
	nn.n.presenceChanged(c.RemotePeer(), false)
	nn.n.mu.Lock()
	r := nn.n.relays[c.RemotePeer()]
	nn.n.mu.Unlock()
	if r != nil {
		r.poke()
	}
}

func (n *Node) presenceChanged(p peer.ID, up bool) {
	n.mu.Lock()
	for t := range n.watch {
		if t.isMember(p) {
			t.notifyPresence()
		}
	}
	wanted := n.want[p] > 0 && !n.closed
	n.mu.Unlock()
	if !up && !n.Connected(p) {
		n.linkDropped(p)
	}
	if !up && wanted && !n.Connected(p) {
		n.log.Info("table member disconnected, reconnecting", "peer", p.String())
		n.startDial(p)
	}
}

// markWanted counts ps as peers to keep connected, with their addresses
// through each relay, and with direct also as gossipsub direct peers; it
// returns the peers counted as direct for the first time.
func (n *Node) markWanted(ps []peer.ID, direct bool) ([]peer.ID, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, ErrClosed
	}
	var first []peer.ID
	for _, p := range ps {
		for _, r := range n.relays {
			if r.info.ID != p {
				n.h.Peerstore().AddAddrs(p, circuitAddrs(r.info, p), peerstore.RecentlyConnectedAddrTTL)
			}
		}
		n.want[p]++
		if direct {
			if n.direct[p]++; n.direct[p] == 1 {
				first = append(first, p)
			}
		}
	}
	return first, nil
}

// wantPeers marks peers as table members to keep connected (reconnect when
// a link drops) and makes them gossipsub direct peers.
func (n *Node) wantPeers(ps []peer.ID) error {
	first, err := n.markWanted(ps, true)
	if err != nil {
		return err
	}
	for _, p := range first {
		if err := n.ps.AddDirectPeer(peer.AddrInfo{ID: p, Addrs: n.h.Peerstore().Addrs(p)}); err != nil {
			return fmt.Errorf("p2p: add direct peer %s: %w", p, err)
		}
	}
	for _, p := range ps {
		n.startDial(p)
	}
	return nil
}

// unwantPeers undoes wantPeers.
func (n *Node) unwantPeers(ps []peer.ID) {
	for _, p := range ps {
		n.mu.Lock()
		if n.want[p]--; n.want[p] <= 0 {
			delete(n.want, p)
		}
		last := false
		if n.direct[p]--; n.direct[p] <= 0 {
			delete(n.direct, p)
			last = true
		}
		n.mu.Unlock()
		if last && n.ctx.Err() == nil {
			if err := n.ps.RemoveDirectPeer(p); err != nil {
				n.log.Debug("remove direct peer", "peer", p.String(), "err", err)
			}
		}
	}
}

// dropTracer counts and logs messages that pubsub drops or rejects, with
// the reason, per topic.
type dropTracer struct {
	n *Node
}

func (d *dropTracer) OnNewOutboundStream(peer.ID, protocol.ID) {}
func (d *dropTracer) OnClosedOutboundStream(peer.ID)           {}
func (d *dropTracer) Join(string)                              {}
func (d *dropTracer) Leave(string)                             {}
func (d *dropTracer) Graft(peer.ID, string)                    {}
func (d *dropTracer) Prune(peer.ID, string)                    {}
func (d *dropTracer) ValidateMessage(*pubsub.Message)          {}
func (d *dropTracer) DeliverMessage(*pubsub.Message)           {}
func (d *dropTracer) DuplicateMessage(*pubsub.Message)         {}
func (d *dropTracer) ThrottlePeer(peer.ID)                     {}
func (d *dropTracer) RecvRPC(*pubsub.RPC)                      {}
func (d *dropTracer) SendRPC(*pubsub.RPC, peer.ID)             {}
func (d *dropTracer) DropRPC(_ *pubsub.RPC, p peer.ID) {
	d.n.log.Warn("pubsub dropped an outbound RPC (queue full)", "peer", p.String())
}
func (d *dropTracer) RejectMessage(m *pubsub.Message, reason string) {
	if reason == pubsub.RejectValidationFailed {
		return // counted, with its reason, by the topic validator
	}
	if t := d.n.tableByTopic(m.GetTopic()); t != nil {
		if reason == pubsub.RejectValidationIgnored && t.local != nil {
			return // kept, not forwarded (WithoutForwarding)
		}
		t.countReject(reason)
	}
	d.n.log.Debug("pubsub rejected a message", "topic", m.GetTopic(), "reason", reason)
}
func (d *dropTracer) UndeliverableMessage(m *pubsub.Message) {
	if t := d.n.tableByTopic(m.GetTopic()); t != nil {
		t.stats.dropped.Add(1)
	}
	d.n.log.Warn("pubsub dropped a message for a slow subscriber", "topic", m.GetTopic(), "from", m.GetFrom().String())
}

func (n *Node) tableByTopic(topic string) *TableTransport {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, t := range n.tables {
		if t.topicName == topic {
			return t
		}
	}
	return nil
}
