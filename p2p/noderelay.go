package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p/relay"
)

// How the node keeps its relay reservations.
const (
	relayCheckEvery = 15 * time.Second
	relayRenewAhead = 10 * time.Minute
)

// nodeRelay is one relay the node uses: the tables it presented there, and
// its reservation.
type nodeRelay struct {
	info    peer.AddrInfo
	key     relay.Key // the relay's key, from its line (zero: none); under mu
	kick    chan struct{}
	mu      sync.Mutex
	adm     map[string]relayAdmission
	expires time.Time
	lastErr error
	next    int // the address redialRelay tries next
}

type relayAdmission struct {
	token    [32]byte
	register bool
	ok       bool  // the relay accepted it since the last connection
	err      error // the relay's last refusal
	tried    bool  // the relay answered (or could not be reached) once

	// The creator's list of seated members (register only): sent after
	// each accepted registration until the relay took it.
	seated      []peer.ID
	started     bool
	seq         uint64
	hasMembers  bool
	membersSent bool
}

// WithNodeRelays are relays the node knows from the start (--relay): it
// dials members through them once it presented a table's token there.
func WithNodeRelays(relays ...peer.AddrInfo) NodeOption {
	return func(c *nodeConfig) error {
		for _, r := range relays {
			if r.ID == "" || len(r.Addrs) == 0 {
				return errors.New("p2p: WithNodeRelays: a relay needs a peer id and an address")
			}
		}
		c.relays = append(c.relays, relays...)
		return nil
	}
}

// WithRelayKey gives the key of a relay (from its line, relay.ParseLine):
// the node registers its private tables there with it.
func WithRelayKey(id peer.ID, key relay.Key) NodeOption {
	return func(c *nodeConfig) error {
		if id == "" || key.IsZero() {
			return errors.New("p2p: WithRelayKey: a relay id and a key")
		}
		if c.relayKeys == nil {
			c.relayKeys = map[peer.ID]relay.Key{}
		}
		c.relayKeys[id] = key
		return nil
	}
}

// AddRelay uses relay info from now on, as WithNodeRelays (and
// WithRelayKey, with a key that is not zero) do from the start: a relay
// line the player gives while the node runs. A relay the node knows
// already takes the new key (its operator made a new one). The relay is
// trusted as an observer of this host's address from then on. Registering
// tables there is the lobby's (Lobby.AddRelay).
func (n *Node) AddRelay(info peer.AddrInfo, key relay.Key) error {
	if info.ID == "" || len(info.Addrs) == 0 {
		return errors.New("p2p: AddRelay: a relay needs a peer id and an address")
	}
	if info.ID == n.h.ID() {
		return errors.New("p2p: AddRelay: a node cannot use itself as a relay")
	}
	n.mu.Lock()
	if !key.IsZero() {
		if n.cfg.relayKeys == nil {
			n.cfg.relayKeys = map[peer.ID]relay.Key{}
		}
		n.cfg.relayKeys[info.ID] = key
	}
	r := n.relays[info.ID]
	n.mu.Unlock()
	if r == nil {
		_, err := n.addRelay(info)
		return err
	}
	if !key.IsZero() {
		r.mu.Lock()
		r.key = key
		r.mu.Unlock()
	}
	return nil
}

// Relays are the relays this node knows (configured or used), in no
// particular order.
func (n *Node) Relays() []peer.AddrInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]peer.AddrInfo, 0, len(n.relays))
	for _, r := range n.relays {
		out = append(out, r.info)
	}
	slices.SortFunc(out, func(a, b peer.AddrInfo) int { return cmpString(string(a.ID), string(b.ID)) })
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// RelayService is the relay this node serves (WithServeRelay), or nil.
func (n *Node) RelayService() *relay.Service { return n.relaySvc }

// UseRelay admits this node at a relay for a table: it registers the table
// (register: the creator) or presents its token (a joiner), then keeps a
// reservation there for as long as the node runs, presenting the token
// again whenever the relay connection comes back, and dials table members
// through the relay when a direct dial fails. The first attempt's error is
// returned; the node keeps trying in the background either way (a relay
// that restarts, an allow-list that the operator completes later).
func (n *Node) UseRelay(ctx context.Context, relay peer.AddrInfo, table string, token [32]byte, register bool) error {
	if err := ValidTableID(table); err != nil {
		return err
	}
	if relay.ID == n.h.ID() {
		if n.relaySvc == nil {
			return errors.New("p2p: this node serves no relay")
		}
		if register {
			return n.relaySvc.Register(table, token)
		}
		return errors.New("p2p: a node cannot join its own relay")
	}
	r, err := n.addRelay(relay)
	if err != nil {
		return err
	}
	a := relayAdmission{token: token, register: register}
	n.mu.Lock()
	if l, ok := n.relayLists[table]; ok && register {
		// The list of seated members goes to the relay after each
		// registration (a new token: a revoked code).
		a.seated, a.started, a.seq, a.hasMembers = l.seated, l.started, l.seq, true
	}
	n.mu.Unlock()
	r.mu.Lock()
	r.adm[table] = a
	r.mu.Unlock()
	// Only this table's answer counts: another table the relay refuses
	// (one that is gone, a revoked code) keeps no one from this one.
	n.presentAll(ctx, r)
	r.mu.Lock()
	a = r.adm[table]
	r.mu.Unlock()
	if err = a.err; a.ok {
		err = n.reserve(ctx, r)
	}
	r.poke()
	return err
}

// ForgetTable stops presenting a table at every relay (the reservation
// stays while another table needs it); at a relay where this node
// registered the table (its creator) it unregisters it, in the background
// (at most relay.StreamTimeout; Close waits for it).
func (n *Node) ForgetTable(table string) {
	n.mu.Lock()
	delete(n.relayLists, table)
	n.mu.Unlock()
	for _, r := range n.relayList() {
		r.mu.Lock()
		a, ok := r.adm[table]
		delete(r.adm, table)
		r.mu.Unlock()
		if !ok || !a.register {
			continue
		}
		n.mu.Lock()
		if n.waiting {
			n.mu.Unlock()
			continue
		}
		n.wg.Add(1)
		n.mu.Unlock()
		go func() {
			defer n.wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), relay.StreamTimeout)
			defer cancel()
			if err := relay.Unregister(ctx, n.h, r.info, table, a.token); err != nil && !errors.Is(err, relay.ErrUnknownTable) {
				n.log.Info("relay: the table was not unregistered (it ends there unused)", "relay", r.info.ID.String(), "table", table, "err", err)
				return
			}
			n.log.Info("relay: table unregistered", "relay", r.info.ID.String(), "table", table)
		}()
	}
	if n.relaySvc != nil {
		n.relaySvc.Unregister(table)
	}
}

func (n *Node) relayList() []*nodeRelay {
	n.mu.Lock()
	defer n.mu.Unlock()
	rs := make([]*nodeRelay, 0, len(n.relays))
	for _, r := range n.relays {
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b *nodeRelay) int { return cmpString(string(a.info.ID), string(b.info.ID)) })
	return rs
}

// SetRelayMembers tells the relays where this node registered table (its
// creator) who is seated, and whether the table started (protocol.md
// 7.11): a relay then keeps the seated members admitted whatever the token,
// and once started admits only them, this node and a few spectators. The
// list is signed with this node's key and sent in the background, again
// after each new registration, until the relay took it.
func (n *Node) SetRelayMembers(table string, seated []peer.ID, started bool) {
	seated = slices.Clone(seated)
	seq := uint64(time.Now().UnixNano())
	n.mu.Lock()
	if l, ok := n.relayLists[table]; ok {
		if l.started == started && slices.Equal(l.seated, seated) {
			n.mu.Unlock()
			return
		}
		seq = max(seq, l.seq+1)
	}
	if n.relayLists == nil {
		n.relayLists = map[string]relayAdmission{}
	}
	n.relayLists[table] = relayAdmission{seated: seated, started: started, seq: seq, hasMembers: true}
	n.mu.Unlock()
	for _, r := range n.relayList() {
		r.mu.Lock()
		a, ok := r.adm[table]
		if ok && a.register {
			a.seq, a.seated, a.started, a.hasMembers, a.membersSent = seq, seated, started, true, false
			r.adm[table] = a
		}
		r.mu.Unlock()
		if ok {
			r.poke()
		}
	}
	if n.relaySvc != nil {
		_ = n.relaySvc.SetMembers(table, seated, started) // not registered there: nothing to do
	}
}

// RelayRefusals are the relays that refused table (a registration or a
// token) at their last answer, with the reason: a code of the table does
// not reach its creator through them.
func (n *Node) RelayRefusals(table string) map[peer.ID]error {
	out := map[peer.ID]error{}
	for _, r := range n.relayList() {
		r.mu.Lock()
		if a, ok := r.adm[table]; ok && relayRefusal(a.err) {
			out[r.info.ID] = a.err
		}
		r.mu.Unlock()
	}
	return out
}

// relayRefusal reports whether err is a relay's answer refusing a table
// (not a relay that could not be reached).
func relayRefusal(err error) bool {
	for _, e := range []error{relay.ErrNotAllowed, relay.ErrUnknownTable, relay.ErrBadToken, relay.ErrFull, relay.ErrRateLimited, relay.ErrTaken, relay.ErrMalformed} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// presentingTable counts a background presentation of table until the
// returned function is called.
func (n *Node) presentingTable(table string) func() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.presenting == nil {
		n.presenting = map[string]int{}
	}
	n.presenting[table]++
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if n.presenting[table]--; n.presenting[table] <= 0 {
			delete(n.presenting, table)
		}
	}
}

// WaitRelayAnswers waits until every relay presented table answered once
// (or could not be reached), or ctx is done, and returns RelayRefusals.
func (n *Node) WaitRelayAnswers(ctx context.Context, table string) map[peer.ID]error {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		n.mu.Lock()
		waiting := n.presenting[table] > 0
		n.mu.Unlock()
		for _, r := range n.relayList() {
			r.mu.Lock()
			if a, ok := r.adm[table]; ok && !a.tried {
				waiting = true
			}
			r.mu.Unlock()
		}
		if !waiting {
			break
		}
		select {
		case <-ctx.Done():
			return n.RelayRefusals(table)
		case <-t.C:
		}
	}
	return n.RelayRefusals(table)
}

// addRelay adds a relay (once) and starts its loop.
func (n *Node) addRelay(info peer.AddrInfo) (*nodeRelay, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, ErrClosed
	}
	if r := n.relays[info.ID]; r != nil {
		return r, nil
	}
	r := &nodeRelay{info: info, key: n.cfg.relayKeys[info.ID], kick: make(chan struct{}, 1), adm: map[string]relayAdmission{}}
	n.relays[info.ID] = r
	n.h.Peerstore().AddAddrs(info.ID, info.Addrs, peerstore.PermanentAddrTTL)
	if o := observersOf(n.h.ID()); o != nil {
		o.trust(info.ID)
	}
	// Members already wanted can be reached through the new relay.
	for p := range n.want {
		n.h.Peerstore().AddAddrs(p, circuitAddrs(info, p), peerstore.RecentlyConnectedAddrTTL)
	}
	n.wg.Add(1)
	go n.relayLoop(r)
	return r, nil
}

func (r *nodeRelay) poke() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// relayRedial are the delays between a node's attempts to reach a relay
// it lost, from the loss on: the first attempt at once, the last delay
// repeated while the relay stays away. Each attempt dials one of the
// relay's addresses (they take turns), so each costs one connection
// against the relay's address in a connection rate limit (libp2p's
// default, which a relay applies to the connections it receives: 0.2 a
// second after a burst of 16 per IPv4 address): 16 attempts in the first
// minute of an outage, then one every 5 s, 0.2 a second, which the limit
// allows for ever, with 12 of the burst left for the relay connection and
// the circuits when it is back. A relay that comes back is reached within
// 5 s. (TestRelayOutageRedialWithinBudget checks this on loopback.)
var relayRedial = []time.Duration{0, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}

// relayDialTimeout bounds one attempt to reach a relay. A relay whose host
// is frozen (its kernel accepts TCP connections that its process never
// serves) keeps a dial waiting: that dial completes when the relay wakes.
const relayDialTimeout = 15 * time.Second

// redialDelay is the wait before redial attempt k (0: the first).
func redialDelay(k int) time.Duration {
	return relayRedial[min(k, len(relayRedial)-1)]
}

// relayLoop keeps the relay connected, the tables presented and the
// reservation fresh. While the relay is away it redials on relayRedial's
// schedule, nothing else; when the connection is back it presents the
// tables, reserves, and wakes the dial loops of the members not connected,
// which dial through a relay only while it is connected (connectViaRelay).
func (n *Node) relayLoop(r *nodeRelay) {
	defer n.wg.Done()
	redial := -1 // the next redial attempt; -1: the relay is not lost
	wait := relayCheckEvery
	for {
		t := time.NewTimer(wait)
		kick := r.kick
		if redial > 0 {
			kick = nil // a lost relay is redialled on the schedule only
		}
		select {
		case <-n.ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-kick:
			t.Stop()
		}
		wait = relayCheckEvery
		r.mu.Lock()
		empty := len(r.adm) == 0
		renew := time.Until(r.expires) < relayRenewAhead
		r.mu.Unlock()
		if empty {
			redial = -1
			continue
		}
		back := false
		if n.h.Network().Connectedness(r.info.ID) != network.Connected {
			r.mu.Lock()
			for k, a := range r.adm {
				a.ok, a.membersSent = false, false
				r.adm[k] = a
			}
			r.mu.Unlock()
			renew = true
			if redial < 0 {
				redial = 0
				if d := redialDelay(0); d > 0 {
					wait = d
					continue
				}
			}
			err := n.redialRelay(r)
			redial++
			if err != nil {
				if n.ctx.Err() != nil {
					return
				}
				n.log.Debug("relay: not reached, will retry", "relay", r.info.ID.String(), "attempt", redial, "in", redialDelay(redial), "err", err)
				wait = redialDelay(redial)
				continue
			}
			n.log.Info("relay: reached again", "relay", r.info.ID.String(), "attempts", redial)
			back = true
		}
		redial = -1
		ctx, cancel := context.WithTimeout(n.ctx, 30*time.Second)
		err := n.presentAll(ctx, r)
		if renew && r.admitted() {
			err = errors.Join(err, n.reserve(ctx, r))
		}
		cancel()
		if err != nil && n.ctx.Err() == nil {
			n.log.Info("relay: not admitted yet, will retry", "relay", r.info.ID.String(), "err", err)
		}
		if back {
			n.wakeDials()
		}
	}
}

// redialRelay makes one attempt to reach a lost relay, on one of its
// addresses (they take turns): one new connection, where libp2p's dial
// would try them all. The host's own dial backoff for the relay is cleared
// first: the schedule is relayLoop's.
func (n *Node) redialRelay(r *nodeRelay) error {
	r.mu.Lock()
	addr := r.info.Addrs[r.next%len(r.info.Addrs)]
	r.next++
	r.mu.Unlock()
	ps := n.h.Peerstore()
	ps.ClearAddrs(r.info.ID)
	ps.AddAddrs(r.info.ID, []ma.Multiaddr{addr}, peerstore.TempAddrTTL)
	if sw, ok := n.h.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(r.info.ID)
	}
	ctx, cancel := context.WithTimeout(n.ctx, relayDialTimeout)
	defer cancel()
	err := n.h.Connect(network.WithForceDirectDial(ctx, "okey relay redial"), peer.AddrInfo{ID: r.info.ID})
	if err == nil {
		// libp2p's identify adds what the relay says it listens on; the
		// configured addresses stay known for the next loss.
		ps.AddAddrs(r.info.ID, r.info.Addrs, peerstore.TempAddrTTL)
	}
	return err
}

// presentAll registers or joins every table not yet accepted since the
// relay connection came up, and sends the member lists the relay has not
// taken yet.
func (n *Node) presentAll(ctx context.Context, r *nodeRelay) error {
	r.mu.Lock()
	type item struct {
		table string
		a     relayAdmission
	}
	var todo []item
	key := r.key
	for k, a := range r.adm {
		if !a.ok || a.register && a.hasMembers && !a.membersSent {
			todo = append(todo, item{k, a})
		}
	}
	r.mu.Unlock()
	slices.SortFunc(todo, func(a, b item) int { return cmpString(a.table, b.table) })
	var errs []error
	for _, it := range todo {
		var err error
		switch {
		case it.a.ok:
		case it.a.register:
			err = relay.Register(ctx, n.h, r.info, it.table, it.a.token, key)
		default:
			err = relay.Join(ctx, n.h, r.info, it.table, it.a.token)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("table %s: %w", it.table, err))
			if errors.Is(err, relay.ErrNotAllowed) && it.a.register && !it.a.tried {
				n.log.Warn("relay: the relay refuses this creator's tables", "relay", r.info.ID.String(), "table", it.table)
			}
		}
		sent := false
		if err == nil && it.a.register && it.a.hasMembers {
			merr := relay.Members(ctx, n.h, r.info, it.table, it.a.seq, it.a.started, it.a.seated)
			if sent = merr == nil || errors.Is(merr, relay.ErrStale); !sent {
				errs = append(errs, fmt.Errorf("table %s: members: %w", it.table, merr))
			}
		}
		r.mu.Lock()
		if a, ok := r.adm[it.table]; ok && a.token == it.a.token {
			a.ok, a.err, a.tried = err == nil, err, true
			if sent && a.seq == it.a.seq {
				a.membersSent = true
			}
			r.adm[it.table] = a
		}
		r.mu.Unlock()
	}
	err := errors.Join(errs...)
	r.mu.Lock()
	r.lastErr = err
	r.mu.Unlock()
	return err
}

// admitted reports whether the relay accepted one of the node's tables
// since the last connection (a reservation is refused otherwise).
func (r *nodeRelay) admitted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range r.adm {
		if a.ok {
			return true
		}
	}
	return false
}

func (n *Node) reserve(ctx context.Context, r *nodeRelay) error {
	rsv, err := client.Reserve(ctx, n.h, r.info)
	if err != nil {
		return fmt.Errorf("p2p: reserve a slot at relay %s: %w", r.info.ID, err)
	}
	r.mu.Lock()
	r.expires = rsv.Expiration
	r.mu.Unlock()
	n.log.Info("relay: slot reserved", "relay", r.info.ID.String(), "until", rsv.Expiration.Format(time.RFC3339))
	return nil
}

// circuitAddrs is p's address through relay r (without /p2p/p): one, on
// the relay's first address. A circuit runs over the node's connection to
// the relay, whichever transport that is; an address per relay transport
// would make libp2p open a circuit per address, each a new connection
// against the relay's address in a connection rate limit.
func circuitAddrs(r peer.AddrInfo, _ peer.ID) []ma.Multiaddr {
	for _, a := range r.Addrs {
		c, err := ma.NewMultiaddr(a.String() + "/p2p/" + r.ID.String() + "/p2p-circuit")
		if err == nil {
			return []ma.Multiaddr{c}
		}
	}
	return nil
}

// relayCircuits are p's addresses through every relay the node uses.
func (n *Node) relayCircuits(p peer.ID) []ma.Multiaddr {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []ma.Multiaddr
	for _, r := range n.relays {
		if r.info.ID != p {
			out = append(out, circuitAddrs(r.info, p)...)
		}
	}
	return out
}

// connectedRelayCircuits are p's addresses through the relays the node is
// connected to now.
func (n *Node) connectedRelayCircuits(p peer.ID) []ma.Multiaddr {
	n.mu.Lock()
	rs := make([]peer.AddrInfo, 0, len(n.relays))
	for _, r := range n.relays {
		if r.info.ID != p {
			rs = append(rs, r.info)
		}
	}
	n.mu.Unlock()
	var out []ma.Multiaddr
	for _, r := range rs {
		if n.h.Network().Connectedness(r.ID) == network.Connected {
			out = append(out, circuitAddrs(r, p)...)
		}
	}
	return out
}

// errNoRelayConnected: the node uses relays, but none is connected now.
var errNoRelayConnected = errors.New("p2p: no relay connected (reconnecting to it)")

// connectViaRelay dials p through the relays it is connected to (after a
// direct dial failed). A relay that is away is not dialled here: each
// circuit dial would open a connection to it, and the relay's own loop
// redials it on a schedule (relayLoop), then wakes the dial loops.
func (n *Node) connectViaRelay(ctx context.Context, p peer.ID) error {
	if len(n.relayCircuits(p)) == 0 {
		return errors.New("p2p: no relay")
	}
	addrs := n.connectedRelayCircuits(p)
	if len(addrs) == 0 {
		n.pokeRelays()
		return errNoRelayConnected
	}
	if sw, ok := n.h.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(p)
	}
	return n.h.Connect(ctx, peer.AddrInfo{ID: p, Addrs: addrs})
}

// pokeRelays wakes the relay loops (a relay found away).
func (n *Node) pokeRelays() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range n.relays {
		r.poke()
	}
}

// trusted observers per host (the relays a host believes about its public
// address); NewHost registers them, a Node adds the relays it learns.
var (
	observersMu sync.Mutex
	observers   = map[peer.ID]*observedAddrs{}
)

func observersOf(id peer.ID) *observedAddrs {
	observersMu.Lock()
	defer observersMu.Unlock()
	return observers[id]
}

// punchRetries are the delays, after a relayed connection comes in, at
// which the node asks for a hole punch again while the peer is reachable
// only through a relay.
var punchRetries = []time.Duration{2 * time.Second, 5 * time.Second, 15 * time.Second, 30 * time.Second}

// punchLater retries hole punching to p (the DCUtR initiator is the side
// that received the relayed connection, as in the protocol): libp2p tries
// once, at once, often before p knows its public address.
func (n *Node) punchLater(p peer.ID) {
	rh, ok := n.h.(*reachHost)
	if !ok {
		return
	}
	n.mu.Lock()
	if n.closed || n.punching[p] {
		n.mu.Unlock()
		return
	}
	n.punching[p] = true
	n.wg.Add(1)
	n.mu.Unlock()
	go func() {
		defer n.wg.Done()
		defer func() {
			n.mu.Lock()
			delete(n.punching, p)
			n.mu.Unlock()
		}()
		for _, d := range punchRetries {
			t := time.NewTimer(d)
			select {
			case <-n.ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			direct, relayed := n.connKinds(p)
			if direct || !relayed {
				return
			}
			if len(rh.punch()) == 0 {
				continue // nothing to offer yet
			}
			// DirectConnect cannot be cancelled: it runs on its own and
			// this loop waits for it or for Close.
			done := make(chan error, 1)
			go func() { done <- rh.hps.DirectConnect(p) }()
			select {
			case err := <-done:
				if err == nil {
					n.log.Info("hole punch: direct connection", "peer", p.String())
					return
				}
				n.log.Debug("hole punch failed", "peer", p.String(), "err", err)
			case <-n.ctx.Done():
				return
			}
		}
	}()
}
