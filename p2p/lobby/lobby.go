package lobby

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/p2p/invite"
)

// Protocol is the stream protocol for join, leave and ready requests
// to a table's creator (protocol.md section 7).
const Protocol = "/okey/lobby/1.0.0"

// Bounds of the lobby protocol (protocol.md 7.6).
const (
	// MaxRequest bounds a request frame.
	MaxRequest = 1 << 10
	// maxLobbyResponse bounds a response frame: an announcement and a
	// little more.
	maxLobbyResponse = MaxAnnouncementSize + 1024
	// MaxPeerStreams is the most lobby streams a creator serves at
	// once for one remote peer; a further stream is reset unread.
	MaxPeerStreams = 2
	// MaxStreams is the most lobby streams a creator serves at once in
	// all. When they are all taken, a new stream takes the place of one
	// still waiting for its request, from a peer holding more streams than
	// the newcomer's peer (wire.Gate); failing that it is reset unread.
	MaxStreams = 64
	// lobbyDiscard is the most a creator reads (and drops) after an
	// over-size request's length prefix before it closes the stream.
	lobbyDiscard = 64 << 10
	// DefaultFirstFrame is how long a creator waits for a request's
	// whole frame after the stream opens.
	DefaultFirstFrame = 2 * time.Second
)

// Config tunes the lobby.
type Config struct {
	// AnnounceInterval is how often a creator re-announces its tables.
	AnnounceInterval time.Duration
	// Expiry drops a table not re-announced for this long.
	Expiry time.Duration
	// RequestTimeout bounds one join/leave/ready request, on both sides.
	RequestTimeout time.Duration
	// FirstFrameTimeout is how long a creator waits for the request frame
	// of a stream it serves: 0 means DefaultFirstFrame; never more
	// than RequestTimeout.
	FirstFrameTimeout time.Duration

	// States keeps the lobby's per-table states (TableState) in this
	// directory, one file per table id, read back when the lobby starts.
	// Empty: they live in memory only.
	States string
	// Check is a check of other peers' announcements beyond their
	// encoding (netplay: the preset and options name a ruleset, and the
	// seats fit it). An announcement that fails it is rejected with its
	// reason logged, as a forged one is. Nil: none.
	Check func(Announcement) error
}

// DefaultConfig re-announces every 2 s, forgets a table after 7 s, and
// waits 2 s for a request to come and 10 s for a request to end.
var DefaultConfig = Config{AnnounceInterval: 2 * time.Second, Expiry: 7 * time.Second, RequestTimeout: 10 * time.Second}

// firstFrame is the creator's wait for a request frame.
func (c Config) firstFrame() time.Duration {
	d := c.FirstFrameTimeout
	if d == 0 {
		d = DefaultFirstFrame
	}
	return min(d, c.RequestTimeout)
}

// Lobby lists the tables announced on the LAN, announces the tables this
// node creates, and forms them: joins, leaves and readiness are requests
// to the creator over Protocol; the creator's Formation decides and
// re-announces at once. Everyone learns the final roster (seat order) from
// the creator's "started" announcement, which WaitStarted returns.
type Lobby struct {
	n   *p2p.Node
	b   p2p.Base
	cfg Config

	topic *pubsub.Topic
	sub   *pubsub.Subscription

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	known   map[string]knownTable
	overCap uint64 // tables ignored over MaxTablesPerCreator
	// closed are the last tables their creator announced closed while
	// known (at most maxClosedKept, oldest dropped first), so that a member
	// can tell a table closed from one expired.
	closed []string
	hosted map[string]*Formation
	// recs is this node's record per table id it created or asked to join
	// (its nonce; a private table's secret), kept in records (TableState).
	recs    map[string]TableState
	records *stateStore
	limiter *invite.Limiter // failed admissions per peer (private tables)
	now     func() time.Time
	gen     chan struct{} // closed and replaced at every change
	changes chan struct{}

	rejected atomic.Uint64
	limited  atomic.Uint64
	accepted atomic.Uint64
	gate     wire.Gate
	guard    *lobbyGuard // rate limits and caps on what others announce (lobby_guard.go)

	spectators atomic.Pointer[func(table string) int] // SetSpectatorCount

	closeOnce sync.Once
	closeErr  error
}

type knownTable struct {
	a    Announcement
	seen time.Time
}

// New starts node's lobby with cfg (timings left zero take DefaultConfig's):
// it joins the lobby topic and registers the lobby protocol's handler on the
// node's host; Close removes both. Close the lobby before the node.
func New(node *p2p.Node, cfg Config) (*Lobby, error) {
	if cfg.AnnounceInterval == 0 && cfg.Expiry == 0 && cfg.RequestTimeout == 0 {
		cfg.AnnounceInterval, cfg.Expiry, cfg.RequestTimeout = DefaultConfig.AnnounceInterval, DefaultConfig.Expiry, DefaultConfig.RequestTimeout
	}
	if cfg.AnnounceInterval <= 0 || cfg.Expiry <= cfg.AnnounceInterval || cfg.RequestTimeout <= 0 || cfg.FirstFrameTimeout < 0 {
		return nil, fmt.Errorf("p2p: lobby: invalid timing %v %v %v %v", cfg.AnnounceInterval, cfg.Expiry, cfg.RequestTimeout, cfg.FirstFrameTimeout)
	}
	b := node.Base()
	l := &Lobby{n: node, b: b, cfg: cfg, known: map[string]knownTable{}, hosted: map[string]*Formation{},
		limiter: invite.DefaultLimiter(), now: time.Now, gen: make(chan struct{}), changes: make(chan struct{}, 1),
		gate: wire.NewGate(MaxPeerStreams, MaxStreams), guard: newLobbyGuard(cfg.Check)}
	if cfg.States != "" {
		l.records = &stateStore{dir: cfg.States}
	}
	l.recs = l.records.load(time.Now(), func(path string, err error) {
		b.Log.Warn("unreadable table record, skipped", "path", path, "err", err)
	})
	if err := b.PubSub.RegisterTopicValidator(Topic, l.validator); err != nil {
		return nil, fmt.Errorf("p2p: lobby validator: %w", err)
	}
	t, err := b.PubSub.Join(Topic)
	if err != nil {
		b.PubSub.UnregisterTopicValidator(Topic)
		return nil, fmt.Errorf("p2p: join lobby: %w", err)
	}
	l.topic = t
	l.sub, err = t.Subscribe(pubsub.WithBufferSize(b.Queue))
	if err != nil {
		t.Close()
		b.PubSub.UnregisterTopicValidator(Topic)
		return nil, fmt.Errorf("p2p: subscribe lobby: %w", err)
	}
	evt, err := t.EventHandler()
	if err != nil {
		l.sub.Cancel()
		wire.CloseTopic(b.Context, t)
		b.PubSub.UnregisterTopicValidator(Topic)
		return nil, fmt.Errorf("p2p: lobby events: %w", err)
	}
	l.ctx, l.cancel = context.WithCancel(b.Context)
	b.Host.SetStreamHandler(Protocol, l.handleRequest)
	l.wg.Add(3)
	go l.read()
	go l.tick()
	go l.greet(evt)
	l.resumeRelays()
	return l, nil
}

// greet announces this node's tables at once to a peer that joins the
// lobby, rather than at the next tick: a newcomer sees the open tables as
// soon as it can hear them.
func (l *Lobby) greet(evt *pubsub.TopicEventHandler) {
	defer l.wg.Done()
	defer evt.Cancel()
	for {
		ev, err := evt.NextPeerEvent(l.ctx)
		if err != nil {
			return
		}
		if ev.Type == pubsub.PeerJoin {
			l.announceAll()
		}
	}
}

// Close leaves the lobby: it announces this node's tables closed, removes
// the protocol handler and leaves the topic. A second Close does nothing.
func (l *Lobby) Close() error {
	l.closeOnce.Do(func() { l.closeErr = l.close() })
	return l.closeErr
}

func (l *Lobby) close() error {
	l.b.Host.RemoveStreamHandler(Protocol)
	l.mu.Lock()
	var last [][]byte
	var closed []string
	for id, f := range l.hosted {
		open := f.State() == StateOpen
		f.Close()
		if b, err := f.Announcement().Encode(); err == nil {
			last = append(last, b)
		}
		if open {
			closed = append(closed, id)
		}
	}
	l.mu.Unlock()
	for _, id := range closed {
		// A table that had not started is gone with this node: its
		// relays forget it now (a started one stays for the resumption).
		l.n.ForgetTable(id)
	}
	for _, b := range last { // tell the others at once rather than let the tables expire
		ctx, cancel := context.WithTimeout(l.ctx, time.Second)
		_ = l.topic.Publish(ctx, b)
		cancel()
	}
	l.cancel()
	l.wg.Wait()
	l.sub.Cancel()
	l.b.PubSub.UnregisterTopicValidator(Topic)
	return wire.CloseTopic(l.b.Context, l.topic)
}

func (l *Lobby) validator(_ context.Context, _ peer.ID, m *pubsub.Message) pubsub.ValidationResult {
	from := m.GetFrom()
	if from != l.b.Host.ID() && !l.guard.allow(from, time.Now()) {
		// Over the author's rate: dropped unread, not forwarded.
		l.limited.Add(1)
		if n, ok := l.guard.logDue(from, time.Now()); ok {
			l.b.Log.Warn("lobby announcements rate-limited", "author", from.String(), "dropped", n)
		}
		return pubsub.ValidationIgnore
	}
	a, err := DecodeAnnouncement(m.Data)
	if err == nil && a.Creator != from.String() {
		err = errors.New("p2p: announcement not published by its creator")
	}
	if err == nil && l.guard.check != nil {
		err = l.guard.check(a)
	}
	if err != nil {
		l.rejected.Add(1)
		if n, ok := l.guard.logDue(from, time.Now()); ok {
			l.b.Log.Warn("rejected lobby announcement", "author", from.String(), "err", err, "rejected_since_last_log", n)
		}
		return pubsub.ValidationReject
	}
	m.ValidatorData = a
	l.accepted.Add(1)
	return pubsub.ValidationAccept
}

// Accepted counts lobby messages that passed validation (this node's own
// included).
func (l *Lobby) Accepted() uint64 { return l.accepted.Load() }

// Limited counts lobby messages dropped over their author's rate.
func (l *Lobby) Limited() uint64 { return l.limited.Load() }

// SetSpectatorCount sets the function that gives, for a table this node
// created, how many spectators it serves: the count goes into the table's
// announcements (0 without one).
func (l *Lobby) SetSpectatorCount(f func(table string) int) {
	if f == nil {
		l.spectators.Store(nil)
		return
	}
	l.spectators.Store(&f)
}

// SetProgress records the progress of a started table this node created
// (hand being played, from 1; the match scores after the hands before it,
// one per seat) and announces it at once when it changed. Other tables are
// ignored (nil error).
func (l *Lobby) SetProgress(id string, hand int, scores []int) error {
	l.mu.Lock()
	f := l.hosted[id]
	if f == nil {
		l.mu.Unlock()
		return nil
	}
	seq := f.a.Seq
	err := f.SetProgress(hand, scores)
	changed := f.a.Seq != seq
	l.mu.Unlock()
	if changed {
		l.announce(id)
	}
	return err
}

// Rejected counts lobby messages that failed validation.
func (l *Lobby) Rejected() uint64 { return l.rejected.Load() }

func (l *Lobby) read() {
	defer l.wg.Done()
	for {
		m, err := l.sub.Next(l.ctx)
		if err != nil {
			return
		}
		a, ok := m.ValidatorData.(Announcement)
		if !ok {
			continue
		}
		l.heard(a)
	}
}

// heard takes an announcement read on the topic. This node's own tables are
// learnt as they change (hosted), never from the topic: pubsub delivers a
// node its own messages too, and an announcement published just before
// CloseTable would otherwise list the closed table again.
func (l *Lobby) heard(a Announcement) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, mine := l.hosted[a.Table]; !mine && a.Creator != l.b.Host.ID().String() {
		l.learnLocked(a)
	}
}

// learnLocked records an announcement; l.mu is held.
func (l *Lobby) learnLocked(a Announcement) {
	old, had := l.known[a.Table]
	if had && old.a.Creator != a.Creator {
		// First creator wins a table id; ids are random, so a clash is an
		// attack or a bug.
		l.b.Log.Warn("lobby table id announced by two creators", "table", a.Table, "creator", a.Creator)
		return
	}
	if had && a.Seq < old.a.Seq {
		return // stale: gossipsub does not keep order
	}
	if !had && a.State != StateClosed && a.Creator != l.b.Host.ID().String() {
		if n := l.tablesOfLocked(a.Creator); n >= MaxTablesPerCreator || len(l.known) >= MaxKnownTables {
			l.overCap++
			if l.overCap&(l.overCap-1) == 0 { // 1, 2, 4, 8...: a flood is not a flood of log lines
				l.b.Log.Warn("lobby table ignored: its creator announces too many tables, or the list is full", "table", a.Table, "creator", a.Creator, "tables", n, "ignored", l.overCap)
			}
			return
		}
	}
	if a.State == StateClosed {
		if had {
			delete(l.known, a.Table)
			if !slices.Contains(l.closed, a.Table) {
				l.closed = append(l.closed, a.Table)
				if len(l.closed) > maxClosedKept {
					l.closed = slices.Delete(l.closed, 0, len(l.closed)-maxClosedKept)
				}
			}
			l.changedLocked()
		}
		return
	}
	l.known[a.Table] = knownTable{a: a, seen: time.Now()}
	if !had || !announcementEqual(old.a, a) {
		l.changedLocked()
	}
}

// tablesOfLocked counts the known tables of creator; l.mu is held.
func (l *Lobby) tablesOfLocked(creator string) int {
	n := 0
	for _, k := range l.known {
		if k.a.Creator == creator {
			n++
		}
	}
	return n
}

func announcementEqual(x, y Announcement) bool {
	bx, err1 := encodeCanonical(x)
	by, err2 := encodeCanonical(y)
	return err1 == nil && err2 == nil && string(bx) == string(by)
}

func (l *Lobby) changedLocked() {
	close(l.gen)
	l.gen = make(chan struct{})
	select {
	case l.changes <- struct{}{}:
	default:
	}
}

func (l *Lobby) tick() {
	defer l.wg.Done()
	t := time.NewTicker(l.cfg.AnnounceInterval)
	defer t.Stop()
	for {
		l.announceAll()
		select {
		case <-t.C:
		case <-l.ctx.Done():
			return
		}
		l.mu.Lock()
		now := time.Now()
		for id, k := range l.known {
			if _, mine := l.hosted[id]; !mine && now.Sub(k.seen) > l.cfg.Expiry {
				delete(l.known, id)
				l.changedLocked()
			}
		}
		l.mu.Unlock()
	}
}

func (l *Lobby) announceAll() {
	l.mu.Lock()
	ids := slices.Sorted(maps.Keys(l.hosted))
	l.mu.Unlock()
	for _, id := range ids {
		l.announce(id)
	}
}

// announce publishes hosted table id's current announcement.
func (l *Lobby) announce(id string) {
	spectators := 0
	if f := l.spectators.Load(); f != nil {
		spectators = (*f)(id)
	}
	l.mu.Lock()
	f := l.hosted[id]
	if f == nil {
		l.mu.Unlock()
		return
	}
	if err := f.SetSpectators(min(max(spectators, 0), MaxSpectators)); err != nil {
		l.b.Log.Error("internal error: spectator count", "table", id, "err", err)
	}
	a := f.Announcement()
	l.learnLocked(a)
	l.mu.Unlock()
	b, err := a.Encode()
	if err != nil {
		l.b.Log.Error("internal error: cannot encode own announcement", "table", id, "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(l.ctx, l.cfg.AnnounceInterval)
	defer cancel()
	if err := l.topic.Publish(ctx, b); err != nil && l.ctx.Err() == nil {
		l.b.Log.Warn("lobby announce failed", "table", id, "err", err)
	}
}

// Tables lists the known tables (open or started, not expired), by id.
func (l *Lobby) Tables() []Announcement {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Announcement, 0, len(l.known))
	for _, id := range slices.Sorted(maps.Keys(l.known)) {
		out = append(out, l.known[id].a.clone())
	}
	return out
}

// maxClosedKept bounds the tables Closed remembers.
const maxClosedKept = 64

// Closed reports whether the table id was known and then announced closed
// by its creator (one of the last 64 so closed), rather than expired.
func (l *Lobby) Closed(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.closed, id)
}

// Table returns one known table.
func (l *Lobby) Table(id string) (Announcement, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.known[id]
	if !ok {
		return Announcement{}, false
	}
	return k.a.clone(), true
}

// Changes receives a value (coalesced) whenever Tables changes.
func (l *Lobby) Changes() <-chan struct{} { return l.changes }

// Create opens a new table with this node in seat 0 and announces it. The
// table id is 16 random hex digits.
func (l *Lobby) Create(preset string, options map[string]string, seats int) (Announcement, error) {
	return l.CreateWithID(RandomTableID(""), preset, options, seats)
}

// RandomTableID returns prefix followed by 16 random hex digits.
func RandomTableID(prefix string) string {
	var rnd [8]byte
	rand.Read(rnd[:]) // never fails (crypto/rand)
	return prefix + hex.EncodeToString(rnd[:])
}

// CreateWithID is Create with a table id chosen by the caller (a valid
// table id, not known in the lobby yet). Use random ids: the first creator
// to announce an id keeps it.
func (l *Lobby) CreateWithID(id, preset string, options map[string]string, seats int) (Announcement, error) {
	return l.create(id, preset, options, seats, invite.Secret{})
}

// create opens a table; a non-zero secret makes it private (admission by
// invite code only).
func (l *Lobby) create(id, preset string, options map[string]string, seats int, secret invite.Secret) (Announcement, error) {
	nonce := NewNonce()
	f, err := NewFormation(id, preset, options, seats, l.b.Host.ID(), l.n.DisplayName(), nonce)
	if err != nil {
		return Announcement{}, err
	}
	l.mu.Lock()
	if l.ctx.Err() != nil {
		l.mu.Unlock()
		return Announcement{}, p2p.ErrClosed
	}
	if _, known := l.known[id]; known || l.hosted[id] != nil {
		l.mu.Unlock()
		return Announcement{}, fmt.Errorf("p2p: table id %s is already taken", id)
	}
	rec := TableState{Table: id, Nonce: nonce, Secret: secret, Created: true, Saved: l.now()}
	if err := l.records.save(rec); err != nil {
		l.mu.Unlock()
		return Announcement{}, err
	}
	f.a.Private = !secret.IsZero()
	l.hosted[id] = f
	l.recs[id] = rec
	l.mu.Unlock()
	if !secret.IsZero() {
		l.registerRelays(id, secret)
	}
	l.announce(id)
	return f.Announcement(), nil
}

// CloseTable closes a table this node created: it is announced closed
// (others drop it) and no longer announced. A started table is just no
// longer announced.
func (l *Lobby) CloseTable(id string) error {
	l.mu.Lock()
	f := l.hosted[id]
	if f == nil {
		l.mu.Unlock()
		return fmt.Errorf("p2p: table %s is not ours", id)
	}
	f.Close()
	delete(l.hosted, id)
	delete(l.known, id)
	delete(l.recs, id)
	l.changedLocked()
	a := f.Announcement()
	rerr := l.records.remove(id)
	l.mu.Unlock()
	if rerr != nil {
		l.b.Log.Warn("table record not removed", "table", id, "err", rerr)
	}
	l.n.ForgetTable(id) // the relays where it is registered forget it
	if a.State == StateClosed {
		if b, err := a.Encode(); err == nil {
			ctx, cancel := context.WithTimeout(l.ctx, time.Second)
			_ = l.topic.Publish(ctx, b)
			cancel()
		}
	}
	return nil
}

// Join asks the table's creator for a seat and returns the new
// announcement. The table must be known (announced). The request carries
// this node's nonce for the table: drawn fresh (crypto/rand) the first time
// this node asks for a seat at that table id, the same for later attempts
// (a join whose answer was lost may have seated it), until ForgetNonce. The
// nonce is kept with the node's data (WithTableStates) before it is sent,
// so that a restarted node still has its seat.
func (l *Lobby) Join(ctx context.Context, id string) (Announcement, error) {
	nonce, err := l.joinNonce(id, "")
	if err != nil {
		return Announcement{}, err
	}
	a, err := l.request(ctx, id, lobbyRequest{Op: "join", Name: l.n.DisplayName(), Nonce: nonce.String()})
	if errors.Is(err, ErrInviteOnly) {
		l.mu.Lock()
		rec := l.recs[id]
		l.mu.Unlock()
		if rec.Code == "" && !rec.Created {
			// A private table: no seat to keep a nonce for (unless the
			// nonce is a seat's taken by code).
			l.ForgetTable(id)
		}
	}
	return a, err
}

// joinNonce is this node's nonce for table id, drawn and kept now if it has
// none (with code, the invite code it joins by).
func (l *Lobby) joinNonce(id, code string) (Nonce, error) {
	if err := p2p.ValidTableID(id); err != nil {
		return Nonce{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rec, ok := l.recs[id]
	if ok && rec.Nonce != (Nonce{}) && (code == "" || rec.Code == code) {
		return rec.Nonce, nil
	}
	if !ok {
		rec = TableState{Table: id}
	}
	if rec.Nonce == (Nonce{}) {
		rec.Nonce = NewNonce()
	}
	if code != "" {
		rec.Code = code
	}
	rec.Saved = l.now()
	if err := l.records.save(rec); err != nil {
		return Nonce{}, err
	}
	l.recs[id] = rec
	return rec.Nonce, nil
}

// Nonce is this node's nonce for table id: the one it created the table
// with or asked to join it with. A started table's config is this node's to
// sign only if its seat carries this nonce.
func (l *Lobby) Nonce(id string) (Nonce, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.recs[id]
	return r.Nonce, ok && r.Nonce != (Nonce{})
}

// ForgetNonce drops this node's nonce for table id, once its match has
// begun: should the id be formed again, this node joins with a new nonce.
// A private table's creator keeps the table's secret, and a peer that
// joined by code keeps the code, until the match is over (ForgetTable):
// after a restart they reach the table again with it.
func (l *Lobby) ForgetNonce(id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	rec, ok := l.recs[id]
	if !ok {
		return nil
	}
	if rec.Created && !rec.Secret.IsZero() || rec.Code != "" {
		rec.Nonce, rec.Saved = Nonce{}, l.now()
		if err := l.records.save(rec); err != nil {
			return err
		}
		l.recs[id] = rec
		return nil
	}
	if err := l.records.remove(id); err != nil {
		return err
	}
	delete(l.recs, id)
	return nil
}

// ForgetTable drops this node's whole record of table id (its match is
// over, or it gave the table up).
func (l *Lobby) ForgetTable(id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.records.remove(id); err != nil {
		return err
	}
	delete(l.recs, id)
	return nil
}

// TableState is what this node keeps of table id (TableState).
func (l *Lobby) TableState(id string) (TableState, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.recs[id]
	return r, ok
}

// Leave gives up this node's seat.
func (l *Lobby) Leave(ctx context.Context, id string) error {
	_, err := l.request(ctx, id, lobbyRequest{Op: "leave"})
	return err
}

// SetReady tells the creator this node is (not) ready.
func (l *Lobby) SetReady(ctx context.Context, id string, ready bool) (Announcement, error) {
	return l.request(ctx, id, lobbyRequest{Op: "ready", Ready: ready})
}

// WaitStarted waits until table id is announced started and returns that
// announcement: Members is the final roster in seat order.
func (l *Lobby) WaitStarted(ctx context.Context, id string) (Announcement, error) {
	for {
		l.mu.Lock()
		k, ok := l.known[id]
		gen := l.gen
		l.mu.Unlock()
		if ok && k.a.State == StateStarted {
			return k.a.clone(), nil
		}
		select {
		case <-gen:
		case <-ctx.Done():
			return Announcement{}, fmt.Errorf("p2p: table %s did not start: %w", id, ctx.Err())
		}
	}
}

type lobbyRequest struct {
	V     int    `json:"v"`
	Table string `json:"table"`
	Op    string `json:"op"`
	Name  string `json:"name,omitempty"`
	Nonce string `json:"nonce,omitempty"`
	// Proof is a joiner's admission proof for a private table (7.10).
	Proof string `json:"proof,omitempty"`
	Ready bool   `json:"ready,omitempty"`
}

type lobbyResponse struct {
	V     int           `json:"v"`
	Code  string        `json:"code,omitempty"`
	Error string        `json:"error,omitempty"`
	Table *Announcement `json:"table,omitempty"`
	// Addrs answers op "addrs": the other members' addresses.
	Addrs map[string][]string `json:"addrs,omitempty"`
}

var errCodes = map[string]error{
	"full": ErrTableFull, "started": ErrTableStarted, "closed": ErrTableClosed,
	"not-seated": ErrNotSeated, "seated": ErrAlreadySeated, "creator": ErrCreatorLeave,
	"invite-only": ErrInviteOnly, "denied": ErrDenied, "rate": ErrRateLimited,
}

func errCode(err error) string {
	for c, e := range errCodes {
		if errors.Is(err, e) {
			return c
		}
	}
	return "invalid"
}

// apply runs a request against a hosted formation.
func (l *Lobby) apply(from peer.ID, req lobbyRequest) (Announcement, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.hosted[req.Table]
	if f == nil {
		return Announcement{}, fmt.Errorf("%w: unknown table %s", ErrTableClosed, req.Table)
	}
	var err error
	switch req.Op {
	case "join":
		// A private table's admission check comes first (7.10); a
		// malformed nonce is then refused as 7.6 says.
		nonce, nerr := ParseNonce(req.Nonce)
		if err = l.admitLocked(from, req, nonce, nerr == nil); err == nil {
			err = nerr
		}
		if err == nil {
			err = f.Join(from, req.Name, nonce)
		}
	case "leave":
		err = f.Leave(from)
	case "ready":
		_, err = f.SetReady(from, req.Ready)
	default:
		err = fmt.Errorf("p2p: unknown lobby op %q", req.Op)
	}
	if err != nil {
		return Announcement{}, err
	}
	return f.Announcement(), nil
}

func (l *Lobby) request(ctx context.Context, id string, req lobbyRequest) (Announcement, error) {
	a, ok := l.Table(id)
	if !ok {
		return Announcement{}, fmt.Errorf("p2p: table %s is not known in the lobby", id)
	}
	creator, err := peer.Decode(a.Creator)
	if err != nil {
		return Announcement{}, err
	}
	if creator == l.b.Host.ID() {
		req.V, req.Table = AnnouncementVersion, id
		a, err := l.apply(creator, req)
		if err == nil {
			l.tellRelays(id)
			l.announce(id)
		}
		return a, err
	}
	return l.requestTo(ctx, creator, id, req)
}

// tellRelays gives the relays where hosted private table id is registered
// its seated members and whether it started (protocol.md 7.11).
func (l *Lobby) tellRelays(id string) {
	l.mu.Lock()
	f, rec := l.hosted[id], l.recs[id]
	if f == nil || !rec.Created || rec.Secret.IsZero() {
		l.mu.Unlock()
		return
	}
	a := f.Announcement()
	l.mu.Unlock()
	seated := make([]peer.ID, 0, len(a.Members))
	for _, m := range a.Members {
		if p, err := peer.Decode(m.ID); err == nil {
			seated = append(seated, p)
		}
	}
	l.n.SetRelayMembers(id, seated, a.State == StateStarted)
}

// requestTo sends a request about table id to its creator, known or not in
// the lobby (a table joined by invite code), and learns the table from the
// answer.
func (l *Lobby) requestTo(ctx context.Context, creator peer.ID, id string, req lobbyRequest) (Announcement, error) {
	resp, err := l.exchange(ctx, creator, id, req)
	if err != nil {
		return Announcement{}, err
	}
	if resp.Table == nil || resp.Table.Validate() != nil || resp.Table.Table != id || resp.Table.Creator != creator.String() {
		return Announcement{}, errors.New("p2p: lobby response without a valid table")
	}
	l.mu.Lock()
	l.learnLocked(*resp.Table)
	l.mu.Unlock()
	return resp.Table.clone(), nil
}

// exchange sends one request to creator and reads its answer; a refusal
// is an error wrapping the code's sentinel.
func (l *Lobby) exchange(ctx context.Context, creator peer.ID, id string, req lobbyRequest) (lobbyResponse, error) {
	req.V, req.Table = AnnouncementVersion, id
	ctx, cancel := context.WithTimeout(ctx, l.cfg.RequestTimeout)
	defer cancel()
	s, err := l.b.Host.NewStream(ctx, creator, Protocol)
	if err != nil {
		return lobbyResponse{}, fmt.Errorf("p2p: lobby request to %s: %w", creator, err)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	resp, err := func() (lobbyResponse, error) {
		var resp lobbyResponse
		dl, _ := ctx.Deadline()
		if err := s.SetDeadline(dl); err != nil {
			return resp, err
		}
		b, err := json.Marshal(req)
		if err != nil {
			return resp, err
		}
		if len(b) > MaxRequest {
			return resp, fmt.Errorf("%w: lobby request of %d bytes, at most %d", p2p.ErrFrameTooLarge, len(b), MaxRequest)
		}
		w := bufio.NewWriter(s)
		if err := wire.WriteFrame(w, b); err != nil {
			return resp, err
		}
		if err := w.Flush(); err != nil {
			return resp, err
		}
		if err := s.CloseWrite(); err != nil {
			return resp, err
		}
		rb, err := wire.ReadFrame(bufio.NewReader(s), maxLobbyResponse)
		if err != nil {
			return resp, err
		}
		if err := strictUnmarshal(rb, &resp); err != nil {
			return resp, fmt.Errorf("bad response: %w", err)
		}
		return resp, nil
	}()
	if err != nil {
		s.Reset()
		return lobbyResponse{}, fmt.Errorf("p2p: lobby request to %s: %w", creator, err)
	}
	s.Close()
	if resp.V != AnnouncementVersion {
		return lobbyResponse{}, fmt.Errorf("p2p: lobby response version %d, this okey speaks %d (%s)", resp.V, AnnouncementVersion, versionHint(resp.V))
	}
	if resp.Code != "" {
		if e, ok := errCodes[resp.Code]; ok {
			return lobbyResponse{}, fmt.Errorf("%w (%s)", e, resp.Error)
		}
		return lobbyResponse{}, fmt.Errorf("p2p: table %s refused %s: %s", id, req.Op, resp.Error)
	}
	return resp, nil
}

// handleRequest is the creator's Protocol handler. A stream gets a
// place from the gate (at most MaxPeerStreams of one peer,
// MaxStreams in all) or is reset unread; its request frame must come
// whole within the first-frame timeout, the whole exchange ends within
// RequestTimeout. Timers reset the stream too, for transports whose streams
// ignore deadlines.
func (l *Lobby) handleRequest(s network.Stream) {
	from := s.Conn().RemotePeer()
	tk, why := l.gate.Enter(from, func() { s.Reset() })
	if tk == nil {
		s.Reset()
		l.b.Log.Debug("lobby request refused", "peer", from.String(), "reason", why)
		return
	}
	defer l.gate.Leave(tk)
	start := time.Now()
	first := l.cfg.firstFrame()
	if err := s.SetDeadline(start.Add(l.cfg.RequestTimeout)); err != nil {
		s.Reset()
		return
	}
	if err := s.SetReadDeadline(start.Add(first)); err != nil {
		s.Reset()
		return
	}
	whole := time.AfterFunc(l.cfg.RequestTimeout, func() { s.Reset() })
	defer whole.Stop()
	firstTimer := time.AfterFunc(first, func() { s.Reset() })
	defer firstTimer.Stop()
	const maxRequestBytes = binary.MaxVarintLen64 + MaxRequest
	b, err := wire.ReadFrame(bufio.NewReaderSize(io.LimitReader(s, maxRequestBytes), maxRequestBytes), MaxRequest)
	if errors.Is(err, p2p.ErrFrameTooLarge) {
		l.b.Log.Warn("lobby request refused", "peer", from.String(), "err", err)
		l.refuseLarge(s, err)
		return
	}
	if err != nil {
		l.b.Log.Debug("lobby request not received", "peer", from.String(), "err", err, "after", time.Since(start))
		s.Reset()
		return
	}
	// Past the first-frame deadline, or evicted meanwhile: the stream is
	// being reset, and the request changes nothing.
	if !firstTimer.Stop() || !l.gate.Served(tk) {
		s.Reset()
		return
	}
	var req lobbyRequest
	err = strictUnmarshal(b, &req)
	if err == nil && req.V != AnnouncementVersion {
		// Another okey's lobby (7.6): refused clearly, in this version's
		// response, so that the requester can say why.
		l.b.Log.Warn("lobby request of another version", "peer", from.String(), "version", req.V)
		l.answer(s, lobbyResponse{V: AnnouncementVersion, Code: "invalid",
			Error: fmt.Sprintf("p2p: lobby version %d, this okey speaks %d (%s)", req.V, AnnouncementVersion, versionHint(req.V))})
		return
	}
	if err != nil {
		l.b.Log.Warn("bad lobby request", "peer", from.String(), "err", err)
		s.Reset()
		return
	}
	resp := lobbyResponse{V: AnnouncementVersion}
	if req.Op == "addrs" {
		l.answerAddrs(s, from, req, resp)
		return
	}
	a, err := l.apply(from, req)
	if err != nil {
		resp.Code, resp.Error = errCode(err), err.Error()
		l.b.Log.Info("lobby request refused", "peer", from.String(), "table", req.Table, "op", req.Op, "err", err)
	} else {
		resp.Table = &a
		l.b.Log.Info("lobby request", "peer", from.String(), "table", req.Table, "op", req.Op, "state", a.State)
	}
	if resp.Table != nil {
		l.tellRelays(req.Table)
	}
	if l.answer(s, resp) && resp.Table != nil {
		l.gate.Leave(tk) // the stream is done: its place is free during the publish
		l.announce(req.Table)
	}
}

// answer writes resp and closes the stream, or resets it on an error.
func (l *Lobby) answer(s network.Stream, resp lobbyResponse) bool {
	out, err := json.Marshal(resp)
	if err == nil {
		w := bufio.NewWriter(s)
		if err = wire.WriteFrame(w, out); err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		s.Reset()
		return false
	}
	s.Close()
	return true
}

// refuseLarge refuses a request whose frame is over MaxRequest: what
// else the requester sends, up to the close of its write side, is read and
// dropped (at most lobbyDiscard bytes, within the first-frame deadline;
// otherwise the stream is reset), then the answer is code invalid with the
// reason. Draining first lets the answer through on every transport; the
// body is never kept.
func (l *Lobby) refuseLarge(s network.Stream, why error) {
	n, err := io.Copy(io.Discard, io.LimitReader(s, lobbyDiscard+1))
	if err != nil || n > lobbyDiscard {
		s.Reset()
		return
	}
	l.answer(s, lobbyResponse{V: AnnouncementVersion, Code: "invalid", Error: fmt.Sprintf("p2p: lobby request too large: %v", why)})
}
