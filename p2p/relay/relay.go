package relay

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
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
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
	"golang.org/x/time/rate"
	protobuf "google.golang.org/protobuf/proto"

	"github.com/okey-game/okey/p2p/internal/wire"
)

// Protocol is okey's relay admission protocol (protocol.md section
// 7.8): a table's creator registers the table's relay token with a relay,
// and each joiner presents it, before reserving a slot.
const Protocol = "/okey/relay/1"

// Relay request kinds (the first byte of a request).
const (
	relayRegister    = 1 // a creator registers (table, token)
	relayJoin        = 2 // a joiner presents (table, token)
	relayUnregister  = 3 // the creator closes the table at the relay
	relayRegisterKey = 4 // a creator registers (table, token) with the relay's key
	relayMembers     = 5 // the creator's signed list of the table's seated members
)

// Relay response statuses (the one byte of a response).
const (
	StatusOK           = 0
	StatusNotAllowed   = 1 // registration by a peer not on the allow-list
	StatusUnknownTable = 2
	StatusBadToken     = 3
	StatusMalformed    = 4
	StatusFull         = 5 // too many tables, or members of one table
	StatusRateLimited  = 6 // too many failed presentations from this peer
	StatusTaken        = 7 // the table is registered by another creator
	StatusStale        = 8 // a member list not newer than the one the relay has
)

// Bounds of the relay service.
const (
	// MaxTables is the most tables one relay keeps.
	MaxTables = 1024
	// MaxMembers is the most peers admitted to one table: 4 seats and
	// room for a seat that comes back with another identity is not a thing
	// okey does, so 8 is generous.
	MaxMembers = 8
	// TableTTL is how long a registration lives after its last use
	// (a registration, a presentation, or a reservation by a member).
	TableTTL = 7 * 24 * time.Hour
	// relayMaxFailures failed presentations from one peer within
	// relayFailureWindow make the relay refuse that peer's requests until
	// the window has passed.
	relayMaxFailures   = 5
	relayFailureWindow = time.Minute
	// StreamTimeout bounds one request to a relay, and a relay's wait
	// for a request.
	StreamTimeout = 10 * time.Second
	// relayRequestLen bounds a request: the longest is a member list
	// (kind, table, seq, started, count, 8 peer ids of up to 64 bytes, a
	// signature of up to 128 bytes).
	relayRequestLen = 2 + 64 + 8 + 1 + 1 + MaxMembers*(1+64) + 1 + 128
	// MaxSpectators is the most spectators (peers that present the
	// token after the table started) one started table admits.
	MaxSpectators = 4
	// PendingGrace is how long a peer admitted by the token before
	// the start, and not on the creator's list of seated members, keeps
	// its place against a newcomer when the table has no room left.
	PendingGrace = time.Minute
)

// DefaultRate is the relay's data-rate cap per peer (bytes per second
// that the relay forwards from one peer, over all its circuits), and
// DefaultBurst the burst above it. Measured (lan's
// BenchmarkMatchBytes, protocol.md 7.11): a 4-seat classic match of 10
// hands sends about 3.9 MB per seat, 0.4 MB a hand, most of it in the
// shuffle and deal at each hand's start; a seat of bots that move at once
// peaks at 241 KB in one second. The cap is above that peak, so it never
// slows a real match, and it bounds what an admitted peer can make the
// relay carry to 256 KiB/s.
const (
	DefaultRate  = 256 << 10
	DefaultBurst = 1 << 20
)

// Key is a relay's registration secret: whoever holds it (okey
// relay's line, protocol.md 7.11) registers tables with the relay. It is
// never logged: it formats redacted; Text gives the digits for the line.
type Key [16]byte

// NewKey draws a relay key from crypto/rand.
func NewKey() (Key, error) {
	var k Key
	if _, err := rand.Read(k[:]); err != nil {
		return k, fmt.Errorf("p2p: relay key: %w", err)
	}
	if k.IsZero() {
		return k, errors.New("p2p: relay key: the random source gave zeros")
	}
	return k, nil
}

// ParseKey reads a relay key: 32 lowercase hex digits, not all zero.
func ParseKey(s string) (Key, error) {
	var k Key
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(k) || s != strings.ToLower(s) {
		return k, errors.New("p2p: a relay key is 32 lowercase hex digits")
	}
	copy(k[:], b)
	if k.IsZero() {
		return k, errors.New("p2p: a relay key is not all zero")
	}
	return k, nil
}

// IsZero reports whether k is no key.
func (k Key) IsZero() bool { return k == Key{} }

// Text is the key's 32 hex digits (for the relay line only).
func (k Key) Text() string { return hex.EncodeToString(k[:]) }

// String hides the key.
func (Key) String() string { return "Key(redacted)" }

// GoString hides the key.
func (Key) GoString() string { return "Key(redacted)" }

// LogValue hides the key.
func (Key) LogValue() slog.Value { return slog.StringValue("Key(redacted)") }

// relayLP appends u16be(len(b)) || b.
func relayLP(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(b)))
	return append(dst, b...)
}

// ID names the key in the relay's state file without revealing it: the
// first 8 bytes of HMAC(key, lp("okey/relay/v1/key-id")), in hex.
func (k Key) ID() string {
	m := hmac.New(sha256.New, k[:])
	m.Write(relayLP(nil, []byte("okey/relay/v1/key-id")))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// registration is the proof that a registration's sender holds the key:
// HMAC(key, lp("okey/relay/v1/register") || lp(relay) || lp(creator) ||
// lp(table) || token), with the raw bytes of the peer ids.
func (k Key) registration(relay, creator peer.ID, table string, token [32]byte) [32]byte {
	var b []byte
	b = relayLP(b, []byte("okey/relay/v1/register"))
	b = relayLP(b, []byte(relay))
	b = relayLP(b, []byte(creator))
	b = relayLP(b, []byte(table))
	b = append(b, token[:]...)
	m := hmac.New(sha256.New, k[:])
	m.Write(b)
	return [32]byte(m.Sum(nil))
}

// Config configures a relay service.
type Config struct {
	// Allowed reports whether a peer may register tables (besides the
	// relay's own host, which always may). Nil: only the relay's own host.
	Allowed func(peer.ID) bool
	// Key, when not zero, lets any peer that proves it holds it register
	// tables (besides the allow-list). Tables registered with another key
	// (a key the operator replaced) are dropped when the state is loaded.
	Key Key
	// State is the file where the registrations are kept ("" = memory
	// only): a restarted relay keeps its tables.
	State string
	// Rate and Burst cap the bytes per second the relay forwards from one
	// peer (default DefaultRate and DefaultBurst).
	Rate, Burst int
	// Log receives one line per event (default: discard).
	Log *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

// Service is a circuit relay v2 service that serves only peers
// admitted to the tables registered with it: reservations only for
// admitted peers, circuits only between peers admitted to one table, with
// no duration or data limit (so the connections are not Limited and
// gossipsub and okey's streams run over them) but a data-rate cap per
// peer. When a table's admissions shrink (the creator's member list, a new
// token, the table's end) the circuits they no longer allow are closed and
// the reservations of peers admitted nowhere are dropped.
type Service struct {
	h     host.Host
	cfg   Config
	log   *slog.Logger
	relay *relayv2.Relay
	lim   *peerLimiters

	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	tables   map[string]*relayTable
	failures map[peer.ID][]time.Time
	refused  uint64 // reservations and circuits refused by the ACL
	reserved map[peer.ID]bool
	circuits map[*circuitStream]bool
}

// relayTable is one registered table. A peer is admitted to it when it is
// the creator, on the creator's signed list of seated members, admitted by
// the token before the start (pending), or a spectator (admitted by the
// token after the start).
type relayTable struct {
	Token   [32]byte
	Creator peer.ID
	Key     string // ID of the key that registered it; "" by the allow-list or the relay's host
	Pending map[peer.ID]time.Time
	Seated  map[peer.ID]bool
	Watch   map[peer.ID]bool
	Former  map[peer.ID]bool // admitted before the start, left out by the list: never again
	Started bool
	Seq     uint64
	Used    time.Time
}

func (t *relayTable) admits(p peer.ID) bool {
	_, pending := t.Pending[p]
	return p == t.Creator || t.Seated[p] || pending || t.Watch[p]
}

// New starts a relay service on h (the caller keeps owning h;
// Close stops the service only).
func New(h host.Host, cfg Config) (*Service, error) {
	if cfg.Rate == 0 {
		cfg.Rate = DefaultRate
	}
	if cfg.Burst == 0 {
		cfg.Burst = DefaultBurst
	}
	if cfg.Rate < 1 || cfg.Burst < 4096 {
		return nil, fmt.Errorf("p2p: relay: rate %d or burst %d too small", cfg.Rate, cfg.Burst)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{h: h, cfg: cfg, log: log, ctx: ctx, cancel: cancel,
		tables: map[string]*relayTable{}, failures: map[peer.ID][]time.Time{},
		reserved: map[peer.ID]bool{}, circuits: map[*circuitStream]bool{}}
	if err := s.load(); err != nil {
		cancel()
		return nil, err
	}
	s.lim = newPeerLimiters(ctx, rate.Limit(cfg.Rate), cfg.Burst)
	rc := relayv2.DefaultResources()
	rc.Limit = nil // no duration or data limit: not Limited (pubsub needs that)
	rc.MaxReservations = MaxTables
	var err error
	s.relay, err = relayv2.New(&limitedHost{Host: h, lim: s.lim, svc: s}, relayv2.WithResources(rc), relayv2.WithACL(relayACL{s}),
		// A reservation's addresses are not used by okey (a member dials
		// the relay address it was given); leave them all in.
		relayv2.WithReservationAddressFilter(func(ma.Multiaddr) bool { return true }))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("p2p: relay: %w", err)
	}
	h.SetStreamHandler(Protocol, s.handle)
	go s.gcLoop()
	return s, nil
}

// Close stops the relay service (not the host).
func (s *Service) Close() error {
	s.h.RemoveStreamHandler(Protocol)
	s.cancel()
	return s.relay.Close()
}

// Refused is how many reservations and circuits the ACL refused.
func (s *Service) Refused() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Register registers a table with this relay for its own host's use (a
// player serving its table as the relay): the same as a registration by
// the relay's host.
func (s *Service) Register(table string, token [32]byte) error {
	if st := s.register(s.h.ID(), table, token, ""); st != StatusOK {
		return relayStatusErr(st)
	}
	return nil
}

// SetMembers sets the seated members of a table the relay's own host
// registered (a player serving its table as the relay), as a signed list
// does for another creator.
func (s *Service) SetMembers(table string, seated []peer.ID, started bool) error {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil || t.Creator != s.h.ID() {
		s.mu.Unlock()
		return ErrUnknownTable
	}
	t.setMembers(seated, started, t.Seq+1)
	s.mu.Unlock()
	s.changed()
	return nil
}

// Unregister forgets a table.
func (s *Service) Unregister(table string) {
	s.mu.Lock()
	delete(s.tables, table)
	s.mu.Unlock()
	s.changed()
}

// Tables is how many tables are registered.
func (s *Service) Tables() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

// Admits reports whether the relay admits p together with other (a table
// admits both; other "" asks for p alone), as its reservations and
// circuits do, without counting the question as a use.
func (s *Service) Admits(p, other peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allowedLocked(p, other)
}

// Seated is the list of seated members the relay holds for a table (the
// creator's signed list, protocol.md 7.8), whether the table started, and
// whether the relay knows the table at all.
func (s *Service) Seated(table string) (seated []peer.ID, started, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[table]
	if t == nil {
		return nil, false, false
	}
	for p, in := range t.Seated {
		if in {
			seated = append(seated, p)
		}
	}
	slices.Sort(seated)
	return seated, t.Started, true
}

type relayACL struct{ s *Service }

func (a relayACL) AllowReserve(p peer.ID, _ ma.Multiaddr) bool {
	ok := a.s.member(p, "")
	a.s.mu.Lock()
	if ok {
		a.s.reserved[p] = true
	} else {
		a.s.refused++
	}
	a.s.mu.Unlock()
	if !ok {
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
// when other is not empty: two spectators are not served), and marks the
// tables used.
func (s *Service) member(p, other peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.cfg.Now()
	ok := false
	for _, t := range s.tables {
		if s.pairLocked(t, p, other) {
			t.Used = now
			ok = true
		}
	}
	return ok
}

func (s *Service) pairLocked(t *relayTable, p, other peer.ID) bool {
	if !t.admits(p) {
		return false
	}
	return other == "" || t.admits(other) && !(t.Watch[p] && t.Watch[other])
}

// allowedLocked is member without marking anything.
func (s *Service) allowedLocked(p, other peer.ID) bool {
	for _, t := range s.tables {
		if s.pairLocked(t, p, other) {
			return true
		}
	}
	return false
}

// changed saves the state and closes what the tables no longer admit: each
// circuit between two peers that no table admits together, and the
// relay's connections to the peers holding a reservation that no table
// admits any more (their reservations go with them).
func (s *Service) changed() {
	s.save()
	s.mu.Lock()
	var cut []*circuitStream
	for c := range s.circuits {
		if src, ok := c.source(); ok && !s.allowedLocked(src, c.dest) {
			cut = append(cut, c)
		}
	}
	var drop []peer.ID
	for p := range s.reserved {
		if !s.allowedLocked(p, "") {
			drop = append(drop, p)
			delete(s.reserved, p)
		}
	}
	s.mu.Unlock()
	for _, c := range cut {
		src, _ := c.source()
		s.log.Info("relay: circuit closed: no table admits both peers any more", "src", src.String(), "dest", c.dest.String())
		c.Reset()
	}
	for _, p := range drop {
		s.log.Info("relay: reservation dropped: the peer is admitted to no table any more", "peer", p.String())
		s.h.Network().ClosePeer(p)
	}
}

func (s *Service) handle(st network.Stream) {
	defer st.Close()
	st.SetDeadline(time.Now().Add(StreamTimeout))
	p := st.Conn().RemotePeer()
	req, err := wire.ReadFrame(bufio.NewReader(st), relayRequestLen)
	status := byte(StatusMalformed)
	if err == nil {
		status = s.request(p, req)
	}
	if _, err := st.Write([]byte{status}); err != nil {
		st.Reset()
	}
}

// request serves one decoded request frame from p.
func (s *Service) request(p peer.ID, b []byte) byte {
	req, err := decodeRelayRequest(b)
	if err != nil {
		return StatusMalformed
	}
	if s.limited(p) {
		return StatusRateLimited
	}
	var st byte
	switch req.Kind {
	case relayRegister:
		st = s.register(p, req.Table, req.Token, s.registrar(p, nil, req))
	case relayRegisterKey:
		st = s.register(p, req.Table, req.Token, s.registrar(p, &req.MAC, req))
	case relayJoin:
		st = s.join(p, req.Table, req.Token)
	case relayUnregister:
		st = s.unregister(p, req.Table, req.Token)
	case relayMembers:
		st = s.members(req)
	}
	if st == StatusBadToken || st == StatusUnknownTable || st == StatusNotAllowed || st == StatusTaken {
		s.fail(p)
	}
	s.log.Info("relay request", "peer", p.String(), "kind", req.Kind, "table", req.Table, "status", st)
	return st
}

// registrar says how p may register: "" by the allow-list (or as the
// relay's host), the key's ID by the key (mac: the proof it sent), or
// relayNoRight.
func (s *Service) registrar(p peer.ID, mac *[32]byte, req relayRequest) string {
	if p == s.h.ID() || (s.cfg.Allowed != nil && s.cfg.Allowed(p)) {
		return ""
	}
	if mac != nil && !s.cfg.Key.IsZero() {
		want := s.cfg.Key.registration(s.h.ID(), p, req.Table, req.Token)
		if hmac.Equal(want[:], mac[:]) {
			return s.cfg.Key.ID()
		}
	}
	return relayNoRight
}

// relayNoRight is registrar's answer for a peer that may not register.
const relayNoRight = "\x00"

func (s *Service) register(p peer.ID, table string, token [32]byte, by string) byte {
	if by == relayNoRight {
		return StatusNotAllowed
	}
	s.mu.Lock()
	t := s.tables[table]
	revoked := false
	switch {
	case t != nil && t.Creator != p:
		s.mu.Unlock()
		return StatusTaken
	case t == nil && len(s.tables) >= MaxTables:
		s.mu.Unlock()
		return StatusFull
	case t == nil:
		t = &relayTable{Creator: p, Token: token}
		s.tables[table] = t
	}
	if subtle.ConstantTimeCompare(t.Token[:], token[:]) != 1 {
		// A new token (the creator revoked its code): whoever the old
		// one admitted goes; the creator's seated members stay.
		t.Token, t.Pending, t.Watch = token, nil, nil
		revoked = true
	}
	t.Key = by
	t.Used = s.cfg.Now()
	s.mu.Unlock()
	if revoked {
		s.changed()
	} else {
		s.save()
	}
	return StatusOK
}

func (s *Service) join(p peer.ID, table string, token [32]byte) byte {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil {
		s.mu.Unlock()
		return StatusUnknownTable
	}
	if subtle.ConstantTimeCompare(t.Token[:], token[:]) != 1 {
		s.mu.Unlock()
		return StatusBadToken
	}
	now := s.cfg.Now()
	t.Used = now
	if t.admits(p) {
		s.mu.Unlock()
		return StatusOK
	}
	evicted := false
	switch {
	case t.Former[p]:
		s.mu.Unlock()
		return StatusNotAllowed
	case t.Started:
		if len(t.Watch) >= MaxSpectators {
			s.mu.Unlock()
			return StatusFull
		}
		if t.Watch == nil {
			t.Watch = map[peer.ID]bool{}
		}
		t.Watch[p] = true
	default:
		// The creator and MaxMembers-1 pending peers; seated
		// members take no place. When there is no room, the pending
		// peer admitted longest ago gives its place if the creator has
		// not seated it within PendingGrace.
		if 1+len(t.Pending) >= MaxMembers {
			var old peer.ID
			for q, at := range t.Pending {
				if now.Sub(at) >= PendingGrace && (old == "" || at.Before(t.Pending[old])) {
					old = q
				}
			}
			if old == "" {
				s.mu.Unlock()
				return StatusFull
			}
			delete(t.Pending, old)
			evicted = true
		}
		if t.Pending == nil {
			t.Pending = map[peer.ID]time.Time{}
		}
		t.Pending[p] = now
	}
	s.mu.Unlock()
	if evicted {
		s.changed()
	} else {
		s.save()
	}
	return StatusOK
}

func (s *Service) unregister(p peer.ID, table string, token [32]byte) byte {
	s.mu.Lock()
	t := s.tables[table]
	if t == nil {
		s.mu.Unlock()
		return StatusUnknownTable
	}
	if t.Creator != p || subtle.ConstantTimeCompare(t.Token[:], token[:]) != 1 {
		s.mu.Unlock()
		return StatusBadToken
	}
	delete(s.tables, table)
	s.mu.Unlock()
	s.changed()
	return StatusOK
}

// members applies a creator's signed member list.
func (s *Service) members(req relayRequest) byte {
	s.mu.Lock()
	t := s.tables[req.Table]
	if t == nil {
		s.mu.Unlock()
		return StatusUnknownTable
	}
	creator := t.Creator
	s.mu.Unlock()
	pub, err := creator.ExtractPublicKey()
	if err != nil {
		return StatusNotAllowed
	}
	if ok, err := pub.Verify(relayMembersMessage(s.h.ID(), req), req.Sig); err != nil || !ok {
		return StatusNotAllowed
	}
	s.mu.Lock()
	if t = s.tables[req.Table]; t == nil || t.Creator != creator {
		s.mu.Unlock()
		return StatusUnknownTable
	}
	if req.Seq <= t.Seq {
		s.mu.Unlock()
		return StatusStale
	}
	t.setMembers(req.Members, req.Started, req.Seq)
	t.Used = s.cfg.Now()
	s.mu.Unlock()
	s.changed()
	return StatusOK
}

// setMembers replaces the seated members; once started, only they (and the
// creator, and spectators) are admitted.
func (t *relayTable) setMembers(seated []peer.ID, started bool, seq uint64) {
	before := t.Seated
	t.Seated = map[peer.ID]bool{}
	for _, p := range seated {
		t.Seated[p] = true
		delete(t.Pending, p)
	}
	t.Seq = seq
	if !started {
		return
	}
	// Whoever was admitted as a player and is not seated at the start
	// is a former member: refused from now on, as a spectator too.
	if t.Former == nil {
		t.Former = map[peer.ID]bool{}
	}
	for p := range t.Pending {
		t.Former[p] = true
	}
	for p := range before {
		if !t.Seated[p] && p != t.Creator {
			t.Former[p] = true
		}
	}
	t.Started, t.Pending = true, nil
}

// relayMembersMessage is what a creator signs for a member list:
// lp("okey/relay/v1/members") || lp(relay) || lp(table) || u64be(seq) ||
// u8 started || u8 count || lp(member)..., peer ids as raw bytes.
func relayMembersMessage(relay peer.ID, req relayRequest) []byte {
	var b []byte
	b = relayLP(b, []byte("okey/relay/v1/members"))
	b = relayLP(b, []byte(relay))
	b = relayLP(b, []byte(req.Table))
	b = binary.BigEndian.AppendUint64(b, req.Seq)
	b = append(b, boolByte(req.Started), byte(len(req.Members)))
	for _, m := range req.Members {
		b = relayLP(b, []byte(m))
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// limited reports whether p has failed too often lately.
func (s *Service) limited(p peer.ID) bool {
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

func (s *Service) fail(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) > 4096 {
		clear(s.failures) // a flood of identities: forget, stay bounded
	}
	s.failures[p] = append(s.failures[p], s.cfg.Now())
}

// gcLoop drops registrations unused for TableTTL and the rate
// limiters of peers that are gone.
func (s *Service) gcLoop() {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.gc()
	}
}

func (s *Service) gc() {
	connected := func(p peer.ID) bool { return s.h.Network().Connectedness(p) == network.Connected }
	s.mu.Lock()
	cut := s.cfg.Now().Add(-TableTTL)
	n := len(s.tables)
	for id, tb := range s.tables {
		if tb.Used.Before(cut) {
			delete(s.tables, id)
		}
	}
	for p := range s.reserved {
		if !connected(p) {
			delete(s.reserved, p)
		}
	}
	changed := n != len(s.tables)
	s.mu.Unlock()
	if changed {
		s.changed()
	}
	s.lim.gc(connected)
}

// relayState is the state file's form. Version 1 files without the
// fields added later (key, seated, watch, former, started, seq) load as tables
// registered by the allow-list whose members are all pending.
type relayState struct {
	V      int                        `json:"v"`
	Tables map[string]relayStateTable `json:"tables"`
}

type relayStateTable struct {
	Token   string    `json:"token"`
	Creator string    `json:"creator"`
	Key     string    `json:"key,omitempty"`
	Members []string  `json:"members"`
	Seated  []string  `json:"seated,omitempty"`
	Watch   []string  `json:"watch,omitempty"`
	Former  []string  `json:"former,omitempty"`
	Started bool      `json:"started,omitempty"`
	Seq     uint64    `json:"seq,omitempty"`
	Used    time.Time `json:"used"`
}

func decodePeers(ss []string) map[peer.ID]bool {
	out := map[peer.ID]bool{}
	for _, m := range ss {
		if p, err := peer.Decode(m); err == nil {
			out[p] = true
		}
	}
	return out
}

func encodePeers(m map[peer.ID]bool) []string {
	var out []string
	for p := range m {
		out = append(out, p.String())
	}
	slices.Sort(out)
	return out
}

func (s *Service) load() error {
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
	keyID := ""
	if !s.cfg.Key.IsZero() {
		keyID = s.cfg.Key.ID()
	}
	revoked := 0
	for id, t := range st.Tables {
		tok, err := hex.DecodeString(t.Token)
		c, cerr := peer.Decode(t.Creator)
		if wire.ValidTableID(id) != nil || err != nil || len(tok) != 32 || cerr != nil {
			return fmt.Errorf("p2p: relay state %s: bad table %q", s.cfg.State, id)
		}
		if t.Key != "" && t.Key != keyID {
			revoked++ // registered with a key the operator replaced
			continue
		}
		rt := &relayTable{Token: [32]byte(tok), Creator: c, Key: t.Key, Seated: decodePeers(t.Seated),
			Started: t.Started, Seq: t.Seq, Used: t.Used, Watch: decodePeers(t.Watch), Former: decodePeers(t.Former), Pending: map[peer.ID]time.Time{}}
		for p := range decodePeers(t.Members) {
			if p != c && !rt.Seated[p] && !rt.Watch[p] && !rt.Started {
				rt.Pending[p] = t.Used
			}
		}
		s.tables[id] = rt
	}
	if revoked > 0 {
		s.log.Info("relay: tables registered with a replaced key dropped", "tables", revoked)
		defer s.save()
	}
	return nil
}

// save writes the state file (write to a temporary file, then rename).
func (s *Service) save() {
	if s.cfg.State == "" {
		return
	}
	s.mu.Lock()
	st := relayState{V: 1, Tables: map[string]relayStateTable{}}
	for id, t := range s.tables {
		pending := map[peer.ID]bool{}
		for p := range t.Pending {
			pending[p] = true
		}
		st.Tables[id] = relayStateTable{Token: hex.EncodeToString(t.Token[:]), Creator: t.Creator.String(), Key: t.Key,
			Members: encodePeers(pending), Seated: encodePeers(t.Seated), Watch: encodePeers(t.Watch), Former: encodePeers(t.Former),
			Started: t.Started, Seq: t.Seq, Used: t.Used}
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

// relayRequest is one request of /okey/relay/1 (protocol.md 7.11).
type relayRequest struct {
	Kind    byte
	Table   string
	Token   [32]byte // kinds 1-4
	MAC     [32]byte // kind 4
	Seq     uint64   // kind 5
	Started bool     // kind 5
	Members []peer.ID
	Sig     []byte // kind 5
}

// encode is kind || u8 len(table) || table, then for kinds 1-3 token, for
// kind 4 token || mac, for kind 5 u64be(seq) || u8 started || u8 count ||
// (u8 len || peer id)... || u8 len(sig) || sig.
func (r relayRequest) encode() ([]byte, error) {
	if err := wire.ValidTableID(r.Table); err != nil {
		return nil, err
	}
	b := []byte{r.Kind, byte(len(r.Table))}
	b = append(b, r.Table...)
	switch r.Kind {
	case relayRegister, relayJoin, relayUnregister:
		b = append(b, r.Token[:]...)
	case relayRegisterKey:
		b = append(b, r.Token[:]...)
		b = append(b, r.MAC[:]...)
	case relayMembers:
		if len(r.Members) > MaxMembers || len(r.Sig) == 0 || len(r.Sig) > 128 {
			return nil, fmt.Errorf("p2p: relay member list of %d members, signature of %d bytes", len(r.Members), len(r.Sig))
		}
		b = binary.BigEndian.AppendUint64(b, r.Seq)
		b = append(b, boolByte(r.Started), byte(len(r.Members)))
		for _, m := range r.Members {
			if len(m) == 0 || len(m) > 64 {
				return nil, errors.New("p2p: relay member list: a peer id of more than 64 bytes")
			}
			b = append(b, byte(len(m)))
			b = append(b, m...)
		}
		b = append(b, byte(len(r.Sig)))
		b = append(b, r.Sig...)
	default:
		return nil, fmt.Errorf("p2p: relay request kind %d", r.Kind)
	}
	return b, nil
}

func decodeRelayRequest(b []byte) (relayRequest, error) {
	var r relayRequest
	if len(b) < 2 {
		return r, errors.New("p2p: relay request too short")
	}
	r.Kind = b[0]
	n := int(b[1])
	if r.Kind < relayRegister || r.Kind > relayMembers {
		return r, fmt.Errorf("p2p: relay request kind %d", r.Kind)
	}
	if len(b) < 2+n {
		return r, errors.New("p2p: relay request cut short")
	}
	r.Table = string(b[2 : 2+n])
	if err := wire.ValidTableID(r.Table); err != nil {
		return r, err
	}
	rest := b[2+n:]
	short := fmt.Errorf("p2p: relay request kind %d cut short or too long", r.Kind)
	switch r.Kind {
	case relayRegister, relayJoin, relayUnregister:
		if len(rest) != 32 {
			return r, short
		}
		r.Token = [32]byte(rest)
	case relayRegisterKey:
		if len(rest) != 64 {
			return r, short
		}
		r.Token, r.MAC = [32]byte(rest[:32]), [32]byte(rest[32:])
	case relayMembers:
		if len(rest) < 10 {
			return r, short
		}
		r.Seq = binary.BigEndian.Uint64(rest)
		if rest[8] > 1 {
			return r, errors.New("p2p: relay member list: started is 0 or 1")
		}
		r.Started = rest[8] == 1
		count := int(rest[9])
		if count > MaxMembers {
			return r, fmt.Errorf("p2p: relay member list of %d members, at most %d", count, MaxMembers)
		}
		rest = rest[10:]
		for range count {
			if len(rest) < 1 || rest[0] == 0 || rest[0] > 64 || len(rest) < 1+int(rest[0]) {
				return r, short
			}
			p, err := peer.IDFromBytes(rest[1 : 1+int(rest[0])])
			if err != nil || slices.Contains(r.Members, p) {
				return r, errors.New("p2p: relay member list: a bad or repeated peer id")
			}
			r.Members = append(r.Members, p)
			rest = rest[1+int(rest[0]):]
		}
		if len(rest) < 1 || rest[0] == 0 || rest[0] > 128 || len(rest) != 1+int(rest[0]) {
			return r, short
		}
		r.Sig = slices.Clone(rest[1:])
	}
	return r, nil
}

// Errors of the relay client, one per refusal.
var (
	ErrNotAllowed   = errors.New("p2p: the relay does not let this peer register tables (ask its operator for the line okey relay prints, and start with --relay LINE)")
	ErrUnknownTable = errors.New("p2p: the relay does not know this table")
	ErrBadToken     = errors.New("p2p: the relay refused the table's token")
	ErrFull         = errors.New("p2p: the relay is full")
	ErrRateLimited  = errors.New("p2p: the relay refuses this peer for a minute after failed attempts")
	ErrTaken        = errors.New("p2p: another peer registered this table id at the relay")
	ErrMalformed    = errors.New("p2p: the relay could not read the request")
	ErrStale        = errors.New("p2p: the relay has a newer member list of this table")
)

func relayStatusErr(st byte) error {
	switch st {
	case StatusOK:
		return nil
	case StatusNotAllowed:
		return ErrNotAllowed
	case StatusUnknownTable:
		return ErrUnknownTable
	case StatusBadToken:
		return ErrBadToken
	case StatusFull:
		return ErrFull
	case StatusRateLimited:
		return ErrRateLimited
	case StatusTaken:
		return ErrTaken
	case StatusMalformed:
		return ErrMalformed
	case StatusStale:
		return ErrStale
	}
	return fmt.Errorf("p2p: the relay answered status %d", st)
}

// relayCall sends one request to the relay and reads its status.
func relayCall(ctx context.Context, h host.Host, relay peer.AddrInfo, r relayRequest) error {
	req, err := r.encode()
	if err != nil {
		return err
	}
	if relay.ID == h.ID() {
		return errors.New("p2p: a host is not its own relay client (use Service.Register)")
	}
	if len(relay.Addrs) > 0 {
		h.Peerstore().AddAddrs(relay.ID, relay.Addrs, 2*time.Hour)
	}
	ctx, cancel := context.WithTimeout(ctx, StreamTimeout)
	defer cancel()
	if err := h.Connect(network.WithForceDirectDial(ctx, "okey relay"), peer.AddrInfo{ID: relay.ID, Addrs: relay.Addrs}); err != nil {
		return fmt.Errorf("p2p: reach relay %s: %w", relay.ID, err)
	}
	st, err := h.NewStream(ctx, relay.ID, protocol.ID(Protocol))
	if err != nil {
		return fmt.Errorf("p2p: relay %s: %w", relay.ID, err)
	}
	defer st.Close()
	if dl, ok := ctx.Deadline(); ok {
		st.SetDeadline(dl)
	}
	if err := wire.WriteFrame(st, req); err != nil {
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

// Register registers a table with a relay: the relay then admits to
// reservations and circuits the peers that present the same token for the
// table (Join), and h itself. h must be on the relay's allow-list,
// or key must be the relay's key (not zero).
func Register(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte, key Key) error {
	if key.IsZero() {
		return relayCall(ctx, h, relay, relayRequest{Kind: relayRegister, Table: table, Token: token})
	}
	mac := key.registration(relay.ID, h.ID(), table, token)
	return relayCall(ctx, h, relay, relayRequest{Kind: relayRegisterKey, Table: table, Token: token, MAC: mac})
}

// Join presents a table's token to a relay, which then admits h to
// reservations and to circuits with the table's other admitted members.
func Join(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte) error {
	return relayCall(ctx, h, relay, relayRequest{Kind: relayJoin, Table: table, Token: token})
}

// Unregister closes a table at a relay (its creator only).
func Unregister(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, token [32]byte) error {
	return relayCall(ctx, h, relay, relayRequest{Kind: relayUnregister, Table: table, Token: token})
}

// Members sends a relay the seated members of a table h registered,
// signed with h's key; seq must grow from one list to the next. Once
// started, the relay admits only them, h, and a few spectators.
func Members(ctx context.Context, h host.Host, relay peer.AddrInfo, table string, seq uint64, started bool, seated []peer.ID) error {
	r := relayRequest{Kind: relayMembers, Table: table, Seq: seq, Started: started, Members: seated}
	key := h.Peerstore().PrivKey(h.ID())
	if key == nil {
		return errors.New("p2p: relay member list: no private key for this host")
	}
	sig, err := key.Sign(relayMembersMessage(relay.ID, r))
	if err != nil {
		return fmt.Errorf("p2p: relay member list: %w", err)
	}
	r.Sig = sig
	return relayCall(ctx, h, relay, r)
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
	svc *Service
}

func (h *limitedHost) SetStreamHandler(pid protocol.ID, handler network.StreamHandler) {
	h.Host.SetStreamHandler(pid, func(s network.Stream) { handler(h.lim.wrap(s)) })
}

func (h *limitedHost) NewStream(ctx context.Context, p peer.ID, pids ...protocol.ID) (network.Stream, error) {
	s, err := h.Host.NewStream(ctx, p, pids...)
	if err != nil {
		return nil, err
	}
	ls := h.lim.wrap(s)
	if slices.Contains(pids, proto.ProtoIDv2Stop) {
		// The relay opens a stop stream to a circuit's destination: keep
		// it, to close the circuit when no table admits its two ends.
		c := &circuitStream{Stream: ls, svc: h.svc, dest: p}
		h.svc.mu.Lock()
		h.svc.circuits[c] = true
		h.svc.mu.Unlock()
		return c, nil
	}
	return ls, nil
}

// circuitStream is the relay's stop stream of one circuit: its first
// message (StopMessage CONNECT) names the circuit's source.
type circuitStream struct {
	network.Stream
	svc  *Service
	dest peer.ID

	mu   sync.Mutex
	head []byte
	src  peer.ID
	done bool
}

// source is the circuit's source, once the relay wrote it.
func (c *circuitStream) source() (peer.ID, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.src, c.src != ""
}

func (c *circuitStream) Write(b []byte) (int, error) {
	c.mu.Lock()
	if !c.done {
		c.head = append(c.head, b...)
		if n, k := binary.Uvarint(c.head); k > 0 && len(c.head) >= k+int(n) {
			var m pbv2.StopMessage
			if protobuf.Unmarshal(c.head[k:k+int(n)], &m) == nil {
				if p, err := peer.IDFromBytes(m.GetPeer().GetId()); err == nil {
					c.src = p
				}
			}
			c.done, c.head = true, nil
		} else if len(c.head) > 4096 || k < 0 {
			c.done, c.head = true, nil
		}
	}
	c.mu.Unlock()
	return c.Stream.Write(b)
}

func (c *circuitStream) forget() {
	c.svc.mu.Lock()
	delete(c.svc.circuits, c)
	c.svc.mu.Unlock()
}

func (c *circuitStream) Close() error {
	c.forget()
	return c.Stream.Close()
}

func (c *circuitStream) Reset() error {
	c.forget()
	return c.Stream.Reset()
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

// KeyMarker separates a relay line's address from its key:
// MULTIADDR/p2p/ID/okey-key/KEY (protocol.md 7.11).
const KeyMarker = "/okey-key/"

// ParseLine parses a relay line, as okey relay prints it: a relay
// multiaddr ending in /p2p/<id>, then optionally KeyMarker and the
// relay's key (zero when the line has none).
func ParseLine(s string) (peer.AddrInfo, Key, error) {
	s = strings.TrimSpace(s)
	addr, keyText, withKey := strings.Cut(s, KeyMarker)
	var key Key
	if withKey {
		k, err := ParseKey(keyText)
		if err != nil {
			return peer.AddrInfo{}, key, fmt.Errorf("p2p: relay line: %w", err)
		}
		key = k
	}
	ai, err := ParseAddr(addr)
	return ai, key, err
}

// FormatLine is the relay line of relay address addr (ending in
// /p2p/<id>) and key.
func FormatLine(addr string, key Key) string {
	if key.IsZero() {
		return addr
	}
	return addr + KeyMarker + key.Text()
}

// ParseAddr parses a relay multiaddr ending in /p2p/<id> (a relay
// line's key, if any, is left out).
func ParseAddr(s string) (peer.AddrInfo, error) {
	if addr, _, ok := strings.Cut(strings.TrimSpace(s), KeyMarker); ok {
		s = addr
	}
	ai, err := wire.ParsePeerAddr(s)
	if err != nil {
		return peer.AddrInfo{}, err
	}
	if len(ai.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("p2p: relay address %q has no transport part", s)
	}
	for _, a := range ai.Addrs {
		if _, err := a.ValueForProtocol(ma.P_CIRCUIT); err == nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: relay address %q is itself a circuit", s)
		}
	}
	return ai, nil
}
