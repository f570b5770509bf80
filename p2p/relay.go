package p2p

import (
	"bufio"
	"context"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
	"golang.org/x/time/rate"
)

// RelayProtocol is okey's relay admission protocol (protocol.md section
// 7.8): a table's creator registers the table's relay token with a relay,
// and each joiner presents it, before reserving a slot.
const RelayProtocol = "/okey/relay/1"

// Relay request kinds (the first byte of a request).
const (
	relayRegister   = 1 // a creator registers (table, token)
	relayJoin       = 2 // a joiner presents (table, token)
	relayUnregister = 3 // the creator closes the table at the relay
)

// Relay response statuses (the one byte of a response).
const (
	RelayOK           = 0
	RelayNotAllowed   = 1 // registration by a peer not on the allow-list
	RelayUnknownTable = 2
	RelayBadToken     = 3
	RelayMalformed    = 4
	RelayFull         = 5 // too many tables, or members of one table
	RelayRateLimited  = 6 // too many failed presentations from this peer
	RelayTaken        = 7 // the table is registered by another creator
)

// Bounds of the relay service.
const (
	// RelayMaxTables is the most tables one relay keeps.
	RelayMaxTables = 1024
	// RelayMaxMembers is the most peers admitted to one table: 4 seats and
	// room for a seat that comes back with another identity is not a thing
	// okey does, so 8 is generous.
	RelayMaxMembers = 8
	// RelayTableTTL is how long a registration lives after its last use
	// (a registration, a presentation, or a reservation by a member).
	RelayTableTTL = 7 * 24 * time.Hour
	// relayMaxFailures failed presentations from one peer within
	// relayFailureWindow make the relay refuse that peer's requests until
	// the window has passed.
	relayMaxFailures   = 5
	relayFailureWindow = time.Minute
	relayRequestLen    = 1 + 1 + 64 + 32
	relayStreamTimeout = 10 * time.Second
)

// DefaultRelayRate is the relay's data-rate cap per peer (bytes per second
// that the relay forwards from one peer, over all its circuits), and
// DefaultRelayBurst the burst above it. Measured (lan's
// BenchmarkMatchBytes, protocol.md 7.11): a 4-seat classic match of 10
// hands sends about 3.9 MB per seat, 0.4 MB a hand, most of it in the
// shuffle and deal at each hand's start; a seat of bots that move at once
// peaks at 241 KB in one second. The cap is above that peak, so it never
// slows a real match, and it bounds what an admitted peer can make the
// relay carry to 256 KiB/s.
const (
	DefaultRelayRate  = 256 << 10
	DefaultRelayBurst = 1 << 20
)

// RelayConfig configures a relay service.
type RelayConfig struct {
	// Allowed reports whether a peer may register tables (besides the
	// relay's own host, which always may). Nil: only the relay's own host.
	Allowed func(peer.ID) bool
	// State is the file where the registrations are kept ("" = memory
	// only): a restarted relay keeps its tables.
	State string
	// Rate and Burst cap the bytes per second the relay forwards from one
	// peer (default DefaultRelayRate and DefaultRelayBurst).
	Rate, Burst int
	// Log receives one line per event (default: discard).
	Log *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

// RelayService is a circuit relay v2 service that serves only peers
// admitted to the tables registered with it: reservations only for
// admitted peers, circuits only between peers admitted to one table, with
// no duration or data limit (so the connections are not Limited and
// gossipsub and okey's streams run over them) but a data-rate cap per
// peer.
type RelayService struct {
	h     host.Host
	cfg   RelayConfig
	log   *slog.Logger
	relay *relayv2.Relay
	lim   *peerLimiters

	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	tables   map[string]*relayTable
	failures map[peer.ID][]time.Time
	refused  uint64 // reservations and circuits refused by the ACL
}

type relayTable struct {
	Token   [32]byte
	Creator peer.ID
	Members map[peer.ID]bool
	Used    time.Time
}

// NewRelayService starts a relay service on h (the caller keeps owning h;
// Close stops the service only).
func NewRelayService(h host.Host, cfg RelayConfig) (*RelayService, error) {
	if cfg.Rate == 0 {
		cfg.Rate = DefaultRelayRate
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultRelayBurst
	}
	if cfg.Rate < 1 || cfg.Burst < 4096 {
		return nil, fmt.Errorf("p2p: relay: rate %d or burst %d too small", cfg.Rate, cfg.Burst)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Log
	if log == nil {
		log = discardLogger()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &RelayService{h: h, cfg: cfg, log: log, ctx: ctx, cancel: cancel,
		tables: map[string]*relayTable{}, failures: map[peer.ID][]time.Time{}}
	if err := s.load(); err != nil {
		cancel()
		return nil, err
	}
	s.lim = newPeerLimiters(ctx, rate.Limit(cfg.Rate), cfg.Burst)
	rc := relayv2.DefaultResources()
	rc.Limit = nil // no duration or data limit: not Limited (pubsub needs that)
	rc.MaxReservations = RelayMaxTables
	var err error
	s.relay, err = relayv2.New(&limitedHost{Host: h, lim: s.lim}, relayv2.WithResources(rc), relayv2.WithACL(relayACL{s}),
		// A reservation's addresses are not used by okey (a member dials
		// the relay address it was given); leave them all in.
		relayv2.WithReservationAddressFilter(func(ma.Multiaddr) bool { return true }))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("p2p: relay: %w", err)
	}
	h.SetStreamHandler(RelayProtocol, s.handle)
	go s.gcLoop()
	return s, nil
}

// Close stops the relay service (not the host).
func (s *RelayService) Close() error {
	s.h.RemoveStreamHandler(RelayProtocol)
	s.cancel()
	return s.relay.Close()
}

// Refused is how many reservations and circuits the ACL refused.
func (s *RelayService) Refused() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Register registers a table with this relay for its own host's use (a
// player serving its table as the relay): the same as a registration by
// the relay's host.
func (s *RelayService) Register(table string, token [32]byte) error {
	if st := s.register(s.h.ID(), table, token); st != RelayOK {
		return relayStatusErr(st)
	}
	return nil
}

// Unregister forgets a table.
func (s *RelayService) Unregister(table string) {
	s.mu.Lock()
	delete(s.tables, table)
	s.mu.Unlock()
	s.save()
}

// Tables is how many tables are registered.
func (s *RelayService) Tables() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

type relayACL struct{ s *RelayService }

func (a relayACL) AllowReserve(p peer.ID, _ ma.Multiaddr) bool {
	ok := a.s.member(p, "")
	if !ok {
		a.s.mu.Lock()
		a.s.refused++
		a.s.mu.Unlock()
		a.s.log.Debug("relay: reservation refused: not admitted to a table", "peer", p.String())
	}
	return ok
}

func (a relayACL) AllowConnect(src peer.ID, _ ma.Multiaddr, dest peer.ID) bool {
	ok := a.s.member(src, dest)
	if !ok {
		a.s.mu.Lock()
		a.s.refused++
		a.s.mu.Unlock()
		a.s.log.Debug("relay: circuit refused: no table admits both peers", "src", src.String(), "dest", dest.String())
	}
	return ok
}

// member reports whether p is admitted to a table (that also admits other,
// when other is not empty), and marks the tables used.
func (s *RelayService) member(p, other peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	ok := false
	for _, t := range s.tables {
		if t.Members[p] && (other == "" || t.Members[other]) {
			t.Used = now
			ok = true
		}
	}
	return ok
}

func (s *RelayService) handle(st network.Stream) {
	defer st.Close()
	st.SetDeadline(time.Now().Add(relayStreamTimeout))
	p := st.Conn().RemotePeer()
	req, err := readFrame(bufio.NewReader(st), relayRequestLen)
	status := byte(RelayMalformed)
	if err == nil {
		status = s.request(p, req)
	}
	if _, err := st.Write([]byte{status}); err != nil {
		st.Reset()
	}
}

// request serves one decoded request frame from p.
func (s *RelayService) request(p peer.ID, req []byte) byte {
	kind, table, token, err := decodeRelayRequest(req)
	if err != nil {
		return RelayMalformed
	}
	if s.limited(p) {
		return RelayRateLimited
	}
	var st byte
	switch kind {
	case relayRegister:
		st = s.register(p, table, token)
	case relayJoin:
		st = s.join(p, table, token)
	case relayUnregister:
		st = s.unregister(p, table, token)
	}
	if st == RelayBadToken || st == RelayUnknownTable || st == RelayNotAllowed || st == RelayTaken {
		s.fail(p)
	}
	s.log.Info("relay request", "peer", p.String(), "kind", kind, "table", table, "status", st)
	return st
}

func (s *RelayService) allowed(p peer.ID) bool {
	return p == s.h.ID() || (s.cfg.Allowed != nil && s.cfg.Allowed(p))
}

func (s *RelayService) register(p peer.ID, table string, token [32]byte) byte {
	if !s.allowed(p) {
		return RelayNotAllowed
	}
	s.mu.Lock()
	t := s.tables[table]
	switch {
	case t != nil && t.Creator != p:
		s.mu.Unlock()
		return RelayTaken
	case t == nil && len(s.tables) >= RelayMaxTables:
		s.mu.Unlock()
		return RelayFull
	case t == nil:
		t = &relayTable{Creator: p, Members: map[peer.ID]bool{}}
		s.tables[table] = t
	}
	t.Token = token
	t.Members[p] = true
	t.Used = s.cfg.Now()
	s.mu.Unlock()
	s.save()
	return RelayOK
}

func (s *RelayService) join(p peer.ID, table string, token [32]byte) byte {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil {
		s.mu.Unlock()
		return RelayUnknownTable
	}
	if subtle.ConstantTimeCompare(t.Token[:], token[:]) != 1 {
		s.mu.Unlock()
		return RelayBadToken
	}
	if !t.Members[p] && len(t.Members) >= RelayMaxMembers {
		s.mu.Unlock()
		return RelayFull
	}
	fresh := !t.Members[p]
	t.Members[p] = true
	t.Used = s.cfg.Now()
	s.mu.Unlock()
	if fresh {
		s.save()
	}
	return RelayOK
}

func (s *RelayService) unregister(p peer.ID, table string, token [32]byte) byte {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil {
		s.mu.Unlock()
		return RelayUnknownTable
	}
	if t.Creator != p || subtle.ConstantTimeCompare(t.Token[:], token[:]) != 1 {
		s.mu.Unlock()
		return RelayBadToken
	}
	delete(s.tables, table)
	s.mu.Unlock()
	s.save()
	return RelayOK
}

// limited reports whether p has failed too often lately.
func (s *RelayService) limited(p peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cut := s.cfg.Now().Add(-relayFailureWindow)
	f := slices.DeleteFunc(s.failures[p], func(t time.Time) bool { return t.Before(cut) })
	if len(f) == 0 {
		delete(s.failures, p)
		return false
	}
	s.failures[p] = f
	return len(f) >= relayMaxFailures
}

func (s *RelayService) fail(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) > 4096 {
		clear(s.failures) // a flood of identities: forget, stay bounded
	}
	s.failures[p] = append(s.failures[p], s.cfg.Now())
}

// gcLoop drops registrations unused for RelayTableTTL and the rate
// limiters of peers that are gone.
func (s *RelayService) gcLoop() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		cut := s.cfg.Now().Add(-RelayTableTTL)
		n := len(s.tables)
		for id, tb := range s.tables {
			if tb.Used.Before(cut) {
				delete(s.tables, id)
			}
		}
		changed := n != len(s.tables)
		s.mu.Unlock()
		if changed {
			s.save()
		}
		s.lim.gc(func(p peer.ID) bool { return s.h.Network().Connectedness(p) == network.Connected })
	}
}

// relayState is the state file's form.
type relayState struct {
	V      int                        `json:"v"`
	Tables map[string]relayStateTable `json:"tables"`
}

type relayStateTable struct {
	Token   string    `json:"token"`
	Creator string    `json:"creator"`
	Members []string  `json:"members"`
	Used    time.Time `json:"used"`
}

func (s *RelayService) load() error {
	if s.cfg.State == "" {
		return nil
	}
	b, err := os.ReadFile(s.cfg.State)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("p2p: relay state: %w", err)
	}
	var st relayState
	if err := json.Unmarshal(b, &st); err != nil || st.V != 1 {
		return fmt.Errorf("p2p: relay state %s: not a version 1 state file", s.cfg.State)
	}
	for id, t := range st.Tables {
		tok, err := hex.DecodeString(t.Token)
		c, cerr := peer.Decode(t.Creator)
		if ValidTableID(id) != nil || err != nil || len(tok) != 32 || cerr != nil {
			return fmt.Errorf("p2p: relay state %s: bad table %q", s.cfg.State, id)
		}
		rt := &relayTable{Token: [32]byte(tok), Creator: c, Members: map[peer.ID]bool{}, Used: t.Used}
		for _, m := range t.Members {
			if p, err := peer.Decode(m); err == nil {
				rt.Members[p] = true
			}
		}
		s.tables[id] = rt
	}
	return nil
}

// save writes the state file (write to a temporary file, then rename).
func (s *RelayService) save() {
	if s.cfg.State == "" {
		return
	}
	s.mu.Lock()
	st := relayState{V: 1, Tables: map[string]relayStateTable{}}
	for id, t := range s.tables {
		var ms []string
		for m := range t.Members {
			ms = append(ms, m.String())
		}
		slices.Sort(ms)
		st.Tables[id] = relayStateTable{Token: hex.EncodeToString(t.Token[:]), Creator: t.Creator.String(), Members: ms, Used: t.Used}
	}
	s.mu.Unlock()
	b, err := json.Marshal(st)
	if err == nil {
		tmp := s.cfg.State + ".tmp"
		if err = os.WriteFile(tmp, b, 0o600); err == nil {
			err = os.Rename(tmp, s.cfg.State)
		}
	}
	if err != nil {
		s.log.Warn("relay: cannot save the registrations", "file", filepath.Base(s.cfg.State), "err", err)
	}
}

// encodeRelayRequest is kind || u8 len(table) || table || token.
func encodeRelayRequest(kind byte, table string, token [32]byte) ([]byte, error) {
	if err := ValidTableID(table); err != nil {
		return nil, err
	}
	b := []byte{kind, byte(len(table))}
	b = append(b, table...)
	return append(b, token[:]...), nil
}

func decodeRelayRequest(b []byte) (kind byte, table string, token [32]byte, err error) {
	if len(b) < 2 {
		return 0, "", token, errors.New("p2p: relay request too short")
	}
	kind, n := b[0], int(b[1])
	if kind < relayRegister || kind > relayUnregister {
		return 0, "", token, fmt.Errorf("p2p: relay request kind %d", kind)
	}
	if len(b) != 2+n+32 {
		return 0, "", token, fmt.Errorf("p2p: relay request of %d bytes, want %d", len(b), 2+n+32)
	}
	table = string(b[2 : 2+n])
	if err := ValidTableID(table); err != nil {
		return 0, "", token, err
	}
	return kind, table, [32]byte(b[2+n:]), nil
}

// Errors of the relay client, one per refusal.
var (
	ErrRelayNotAllowed   = errors.New("p2p: the relay does not let this peer register tables (ask its operator to add this peer id with okey relay --allow)")
	ErrRelayUnknownTable = errors.New("p2p: the relay does not know this table")
	ErrRelayBadToken     = errors.New("p2p: the relay refused the table's token")
	ErrRelayFull         = errors.New("p2p: the relay is full")
	ErrRelayRateLimited  = errors.New("p2p: the relay refuses this peer for a minute after failed attempts")
	ErrRelayTaken        = errors.New("p2p: another peer registered this table id at the relay")
	ErrRelayMalformed    = errors.New("p2p: the relay could not read the request")
)

func relayStatusErr(st byte) error {
	switch st {
	case RelayOK:
		return nil
	case RelayNotAllowed:
		return ErrRelayNotAllowed
	case RelayUnknownTable:
		return ErrRelayUnknownTable
	case RelayBadToken:
		return ErrRelayBadToken
	case RelayFull:
		return ErrRelayFull
	case RelayRateLimited:
		return ErrRelayRateLimited
	case RelayTaken:
		return ErrRelayTaken
	case RelayMalformed:
		return ErrRelayMalformed
	}
	return fmt.Errorf("p2p: the relay answered status %d", st)
}

// relayRequest sends one request to the relay and reads its status.
func relayRequest(ctx context.Context, h host.Host, relay peer.AddrInfo, kind byte, table string, token [32]byte) error {
	req, err := encodeRelayRequest(kind, table, token)
	if err != nil {
		return err
	}
	if relay.ID == h.ID() {
		return errors.New("p2p: a host is not its own relay client (use RelayService.Register)")
	}
	if len(relay.Addrs) > 0 {
		h.Peerstore().AddAddrs(relay.ID, relay.Addrs, 2*time.Hour)
	}
	ctx, cancel := context.WithTimeout(ctx, relayStreamTimeout)
	defer cancel()
	if err := h.Connect(network.WithForceDirectDial(ctx, "okey relay"), peer.AddrInfo{ID: relay.ID, Addrs: relay.Addrs}); err != nil {
		return fmt.Errorf("p2p: reach relay %s: %w", relay.ID, err)
	}
	st, err := h.NewStream(ctx, relay.ID, protocol.ID(RelayProtocol))
	if err != nil {
		return fmt.Errorf("p2p: relay %s: %w", relay.ID, err)
	}
	defer st.Close()
	if dl, ok := ctx.Deadline(); ok {
		st.SetDeadline(dl)
	}
	if err := writeFrame(st, req); err != nil {
		st.Reset()
		return fmt.Errorf("p2p: relay %s: %w", relay.ID, err)
	}
	// The request is whole: say so (over QUIC the relay's Close would
	// otherwise stop the answer from arriving; issue 23's lab found it).
	if err := st.CloseWrite(); err != nil {
		st.Reset()
		return fmt.Errorf("p2p: relay %s: %w", relay.ID, err)
	}
	var resp [1]byte
	if _, err := io.ReadFull(st, resp[:]); err != nil {
		st.Reset()
		return fmt.Errorf("p2p: relay %s: no answer: %w", relay.ID, err)
	}
	return relayStatusErr(resp[0])
}

// RelayRegister registers a table with a relay: the relay then admits to
// reservations and circuits the peers that present the same token for the
// table (RelayJoin), and h itself. h must be on the relay's allow-list.
func RelayRegister(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte) error {
	return relayRequest(ctx, h, relay, relayRegister, table, token)
}

// RelayJoin presents a table's token to a relay, which then admits h to
// reservations and to circuits with the table's other admitted members.
func RelayJoin(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte) error {
	return relayRequest(ctx, h, relay, relayJoin, table, token)
}

// RelayUnregister closes a table at a relay (its creator only).
func RelayUnregister(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte) error {
	return relayRequest(ctx, h, relay, relayUnregister, table, token)
}

// ParseAllowList reads an allow-list: one peer id per line, blank lines
// and lines starting with # ignored.
func ParseAllowList(text string) ([]peer.ID, error) {
	var out []peer.ID
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p, err := peer.Decode(l)
		if err != nil {
			return nil, fmt.Errorf("p2p: allow-list line %d: %q is not a peer id", i+1, l)
		}
		out = append(out, p)
	}
	return out, nil
}

// limitedHost hands the relay streams whose reads wait for the remote
// peer's rate limiter: what the relay forwards from a peer is capped.
type limitedHost struct {
	host.Host
	lim *peerLimiters
}

func (h *limitedHost) SetStreamHandler(pid protocol.ID, handler network.StreamHandler) {
	h.Host.SetStreamHandler(pid, func(s network.Stream) { handler(h.lim.wrap(s)) })
}

func (h *limitedHost) NewStream(ctx context.Context, p peer.ID, pids ...protocol.ID) (network.Stream, error) {
	s, err := h.Host.NewStream(ctx, p, pids...)
	if err != nil {
		return nil, err
	}
	return h.lim.wrap(s), nil
}

type peerLimiters struct {
	ctx   context.Context
	r     rate.Limit
	burst int
	mu    sync.Mutex
	m     map[peer.ID]*rate.Limiter
}

func newPeerLimiters(ctx context.Context, r rate.Limit, burst int) *peerLimiters {
	return &peerLimiters{ctx: ctx, r: r, burst: burst, m: map[peer.ID]*rate.Limiter{}}
}

func (l *peerLimiters) get(p peer.ID) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.m[p]
	if lim == nil {
		lim = rate.NewLimiter(l.r, l.burst)
		l.m[p] = lim
	}
	return lim
}

func (l *peerLimiters) gc(alive func(peer.ID) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for p := range l.m {
		if !alive(p) {
			delete(l.m, p)
		}
	}
}

func (l *peerLimiters) wrap(s network.Stream) network.Stream {
	return &limitedStream{Stream: s, l: l, p: s.Conn().RemotePeer()}
}

type limitedStream struct {
	network.Stream
	l *peerLimiters
	p peer.ID
}

func (s *limitedStream) Read(b []byte) (int, error) {
	if len(b) > s.l.burst {
		b = b[:s.l.burst]
	}
	n, err := s.Stream.Read(b)
	if n > 0 {
		if werr := s.l.get(s.p).WaitN(s.l.ctx, n); werr != nil && err == nil {
			err = werr
		}
	}
	return n, err
}
