package lobby

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/relay"
)

// Errors of admission by invite code (protocol.md 7.10).
var (
	// ErrInviteOnly: a join without a proof at a private table.
	ErrInviteOnly = errors.New("p2p: this table admits by invite code only")
	// ErrDenied: a proof that does not hold (a forged code, or one whose
	// secret the creator revoked).
	ErrDenied = errors.New("p2p: the invite code does not admit to this table (revoked or forged)")
	// ErrRateLimited: too many failed admissions from this peer.
	ErrRateLimited = errors.New("p2p: too many failed admissions from this peer: try again later")
)

// maxMemberAddrs bounds the addresses op "addrs" gives per member.
const maxMemberAddrs = 8

// CreatePrivate opens a table for play beyond the LAN: like CreateWithID,
// and only joiners that prove they hold its admission secret (an invite
// code: Invite) are seated. The secret is kept with the node's data.
func (l *Lobby) CreatePrivate(id, preset string, options map[string]string, seats int) (Announcement, error) {
	s, err := invite.NewSecret()
	if err != nil {
		return Announcement{}, err
	}
	return l.create(id, preset, options, seats, s)
}

// Private reports whether table id is a private table this node created.
func (l *Lobby) Private(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.recs[id]
	return r.Created && !r.Secret.IsZero()
}

// Revoke gives open private table id a new admission secret: codes made
// before no longer admit anyone (members already seated keep their seats).
func (l *Lobby) Revoke(id string) error {
	s, err := invite.NewSecret()
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f, rec := l.hosted[id], l.recs[id]
	switch {
	case f == nil || !rec.Created:
		return fmt.Errorf("p2p: table %s is not ours", id)
	case rec.Secret.IsZero():
		return fmt.Errorf("p2p: table %s is not private", id)
	case f.State() != StateOpen:
		return fmt.Errorf("%w: its code admits no one any more", ErrTableStarted)
	}
	rec.Secret, rec.Saved = s, l.now()
	if err := l.records.save(rec); err != nil {
		return err
	}
	l.recs[id] = rec
	l.registerRelays(id, s) // the new token replaces the old at each relay
	return nil
}

// Invite returns the invite code of private table id, which this node
// created, with the given addresses of this node (in order of preference;
// those that do not fit in the code are left out, from the end) and relays
// (each ending in /p2p/<relay id>). The code lives until the table starts
// or is closed, or Revoke.
func (l *Lobby) Invite(id string, addrs, relays []ma.Multiaddr) (string, error) {
	l.mu.Lock()
	rec, hosted := l.recs[id], l.hosted[id] != nil
	l.mu.Unlock()
	if !hosted || !rec.Created || rec.Secret.IsZero() {
		return "", fmt.Errorf("p2p: table %s is not a private table of ours", id)
	}
	// A relay that refused the table does not reach its creator: the
	// code leaves it out (the creator is told, RelayRefusals).
	refused := l.n.RelayRefusals(id)
	relays = slices.DeleteFunc(slices.Clone(relays), func(r ma.Multiaddr) bool {
		ai, err := peer.AddrInfoFromP2pAddr(r)
		return err == nil && refused[ai.ID] != nil
	})
	c := invite.Code{Table: id, Creator: l.b.Host.ID(), Secret: rec.Secret, Relays: relays}
	if len(c.Relays) > invite.MaxRelays {
		c.Relays = c.Relays[:invite.MaxRelays]
	}
	c.Addrs = p2p.InviteAddrs(addrs)
	for {
		s, err := c.Encode()
		if err == nil || !errors.Is(err, invite.ErrTooLong) {
			return s, err
		}
		switch {
		case len(c.Addrs) > 1:
			c.Addrs = c.Addrs[:len(c.Addrs)-1]
		case len(c.Relays) > 0:
			c.Relays = c.Relays[:len(c.Relays)-1]
		default:
			return "", err
		}
	}
}

// admitLocked is the creator's admission check of a join at a private
// table (protocol.md 7.10); a LAN table admits everyone. nonceOK says
// whether the request's nonce parsed: without one no proof holds. l.mu is
// held.
func (l *Lobby) admitLocked(from peer.ID, req lobbyRequest, nonce Nonce, nonceOK bool) error {
	rec := l.recs[req.Table]
	if !rec.Created || rec.Secret.IsZero() || from == l.b.Host.ID() {
		return nil // a LAN table; or the creator, whose seat the state machine refuses
	}
	now := l.now()
	if ok, wait := l.limiter.Allow(from.String(), now); !ok {
		return fmt.Errorf("%w (in %v)", ErrRateLimited, wait.Round(time.Second))
	}
	if req.Proof == "" {
		return ErrInviteOnly
	}
	p, err := invite.ParseProof(req.Proof)
	if err != nil || !nonceOK || !rec.Secret.Check(p, req.Table, []byte(l.b.Host.ID()), []byte(from), nonce) {
		l.limiter.Fail(from.String(), now)
		return ErrDenied
	}
	return nil
}

// JoinByCode reaches the creator named in an invite code (DialCode) and
// asks for a seat with an admission proof. The table need not be known in
// the lobby (no mDNS); it is learnt from the answer, and its announcements
// come by gossip over the connection to the creator. The nonce and the
// code are kept with the node's data first (TableState).
func (l *Lobby) JoinByCode(ctx context.Context, c invite.Code) (Announcement, error) {
	if c.Creator == l.b.Host.ID() {
		return Announcement{}, errors.New("p2p: this invite code is for a table of this very peer")
	}
	text, err := c.Encode()
	if err != nil {
		return Announcement{}, err
	}
	nonce, err := l.joinNonce(c.Table, text)
	if err != nil {
		return Announcement{}, err
	}
	how, err := l.n.DialCode(ctx, c)
	if err != nil {
		return Announcement{}, err
	}
	if how != p2p.ReachRelay {
		// Reached directly, the token went to no relay: without it the
		// code's relays refuse every circuit between this peer and the
		// other members (7.11), and members behind NATs that cannot dial
		// each other would hear each other only through the creator's
		// gossip. Present it in the background (the join goes on).
		l.presentCodeRelays(c.Table, c)
	}
	proof := c.Secret.Proof(c.Table, []byte(c.Creator), []byte(l.b.Host.ID()), nonce)
	return l.requestTo(ctx, c.Creator, c.Table, lobbyRequest{Op: "join", Name: l.n.DisplayName(), Nonce: nonce.String(), Proof: proof.String()})
}

// answerAddrs answers op "addrs" from a seated member of a hosted table:
// the addresses this node has for each other member (at most
// maxMemberAddrs each), so that members with no discovery can dial each
// other. Anyone else is refused (not-seated, closed).
func (l *Lobby) answerAddrs(s network.Stream, from peer.ID, req lobbyRequest, resp lobbyResponse) {
	l.mu.Lock()
	f := l.hosted[req.Table]
	var a Announcement
	if f != nil {
		a = f.Announcement()
	}
	l.mu.Unlock()
	switch {
	case f == nil:
		resp.Code, resp.Error = "closed", fmt.Sprintf("unknown table %s", req.Table)
	case !slices.Contains(a.Roster(), from):
		resp.Code, resp.Error = "not-seated", ErrNotSeated.Error()
	default:
		resp.Addrs = map[string][]string{}
		for _, m := range a.Roster() {
			if m == from || m == l.b.Host.ID() {
				continue
			}
			var seen []ma.Multiaddr
			for _, c := range l.b.Host.Network().ConnsToPeer(m) {
				seen = append(seen, c.RemoteMultiaddr())
			}
			resp.Addrs[m.String()] = memberAddrs(seen, l.b.Host.Peerstore().Addrs(m))
		}
	}
	l.answer(s, resp)
}

// memberAddrs is what op "addrs" gives for a member (protocol.md 7.10):
// first the remote addresses of this node's direct connections to it (seen:
// what this node sees the member connect from; behind a cone NAT, the
// member's public mapping of its listening port, which the member itself
// may not know: it learns its public address only from a relay), then the
// addresses the peerstore has for it (known, relayed ones included); each
// group sorted, duplicates and relayed connections' addresses left out of
// the first, at most maxMemberAddrs in all.
func memberAddrs(seen, known []ma.Multiaddr) []string {
	var first, rest []string
	for _, a := range seen {
		if len(a) == 0 || slices.ContainsFunc(a, func(c ma.Component) bool { return c.Code() == ma.P_CIRCUIT }) {
			continue
		}
		first = append(first, a.String())
	}
	slices.Sort(first)
	first = slices.Compact(first)
	for _, a := range known {
		if s := a.String(); !slices.Contains(first, s) {
			rest = append(rest, s)
		}
	}
	slices.Sort(rest)
	out := append(first, slices.Compact(rest)...)
	return out[:min(len(out), maxMemberAddrs)]
}

// LearnMemberAddrs asks the creator of table id (where this node is
// seated) for the other members' addresses and keeps them in the peerstore,
// so that the table's members dial each other without discovery (a table
// joined by invite code). It returns how many members it learnt of.
func (l *Lobby) LearnMemberAddrs(ctx context.Context, id string) (int, error) {
	a, ok := l.Table(id)
	if !ok {
		return 0, fmt.Errorf("p2p: table %s is not known in the lobby", id)
	}
	creator, err := peer.Decode(a.Creator)
	if err != nil {
		return 0, err
	}
	if creator == l.b.Host.ID() {
		return 0, nil
	}
	resp, err := l.exchange(ctx, creator, id, lobbyRequest{Op: "addrs"})
	if err != nil {
		return 0, err
	}
	roster := a.Roster()
	n := 0
	for k, vs := range resp.Addrs { // each member on its own: order is irrelevant
		p, err := peer.Decode(k)
		if err != nil || !slices.Contains(roster, p) || p == l.b.Host.ID() || len(vs) > maxMemberAddrs {
			return n, fmt.Errorf("p2p: bad addrs answer for %q", k)
		}
		var addrs []ma.Multiaddr
		for _, v := range vs {
			m, err := ma.NewMultiaddr(v)
			if err != nil {
				return n, fmt.Errorf("p2p: bad addrs answer for %s: %v", k, err)
			}
			addrs = append(addrs, m)
		}
		l.b.Host.Peerstore().AddAddrs(p, addrs, peerstore.AddressTTL)
		n++
	}
	return n, nil
}

// registerRelays registers private table id with every relay this node
// uses (and its own relay service), in the background: a joiner that must
// come through a relay is admitted there with the table's relay token.
func (l *Lobby) registerRelays(id string, s invite.Secret) {
	n := l.n
	var relays []peer.AddrInfo
	if n.RelayService() != nil {
		relays = append(relays, peer.AddrInfo{ID: l.b.Host.ID()})
	}
	relays = append(relays, n.Relays()...)
	l.registerWith(id, s, relays)
}

// registerWith registers private table id with relays, in the background.
func (l *Lobby) registerWith(id string, s invite.Secret, relays []peer.AddrInfo) {
	n := l.n
	if len(relays) == 0 {
		return
	}
	done := l.b.Presenting(id)
	l.wg.Go(func() {
		defer done()
		for _, r := range relays {
			ctx, cancel := context.WithTimeout(l.ctx, 20*time.Second)
			if err := n.UseRelay(ctx, r, id, s.RelayToken(id, []byte(r.ID)), true); err != nil && l.ctx.Err() == nil {
				l.b.Log.Warn("table not registered with a relay yet (retrying)", "table", id, "relay", r.ID.String(), "err", err)
			}
			cancel()
		}
	})
}

// AddRelay uses a relay from now on (Node.AddRelay: a relay line the
// player gives while okey runs) and registers there, in the background,
// every open private table this node created, so that their invite codes
// go through it from then on, as when the relay was given at the start.
func (l *Lobby) AddRelay(info peer.AddrInfo, key relay.Key) error {
	if err := l.n.AddRelay(info, key); err != nil {
		return err
	}
	l.mu.Lock()
	secrets := map[string]invite.Secret{}
	for id, rec := range l.recs {
		if f := l.hosted[id]; f != nil && rec.Created && !rec.Secret.IsZero() && f.State() == StateOpen {
			secrets[id] = rec.Secret
		}
	}
	l.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(secrets)) {
		l.registerWith(id, secrets[id], []peer.AddrInfo{info})
	}
	return nil
}

// resumeRelays, when the node starts, admits it again at the relays of the
// tables in its records: a private table's creator registers the table's
// relay token with its relays, a joiner by code presents it to the code's
// relays, so that a match resumed after a restart is reachable through them
// as before.
func (l *Lobby) resumeRelays() {
	for _, id := range slices.Sorted(maps.Keys(l.recs)) {
		rec := l.recs[id]
		switch {
		case rec.Created && !rec.Secret.IsZero():
			l.registerRelays(id, rec.Secret)
		case rec.Code != "":
			c, err := invite.Parse(rec.Code)
			if err != nil {
				continue
			}
			l.presentCodeRelays(id, c)
		}
	}
}

// presentCodeRelays presents table id's relay token to each relay of code c
// (a joiner by code), in the background; UseRelay keeps presenting it.
func (l *Lobby) presentCodeRelays(id string, c invite.Code) {
	if len(c.Relays) == 0 {
		return
	}
	l.wg.Go(func() {
		for _, r := range c.Relays {
			ai, err := peer.AddrInfoFromP2pAddr(r)
			if err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(l.ctx, 20*time.Second)
			if err := l.n.UseRelay(ctx, *ai, id, c.Secret.RelayToken(id, []byte(ai.ID)), false); err != nil && l.ctx.Err() == nil {
				l.b.Log.Info("relay of a table joined by code not reached yet (retrying)", "table", id, "relay", ai.ID.String(), "err", err)
			}
			cancel()
		}
	})
}
