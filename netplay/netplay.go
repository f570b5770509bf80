// Package netplay is the player's side of network play. It joins okey's
// network layer (package p2p) to its table protocol (package table): it
// opens a peer with the user's persistent identity, forms tables in the
// lobby, and plays a started table's match with a table.Mover choosing
// this seat's moves, persisting every step so that a restarted process
// resumes where it stopped; it runs the house bots that fill a player's
// table, gives the tournament topic to a participant as its Net and
// enters okey tournament's seats into one (TournamentEntry), keeps the
// lasting identities of a match against bots (LocalIdentities), and says
// a network error in a player's words (Explain).
//
// Both `okey bot` and the terminal UI's `okey play` use it. Tests that need
// no real network hand Open a mocknet host (Options.Host).
package netplay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/p2p/relay"
)

// Options configures Open. Zero values get the documented defaults.
type Options struct {
	// Data is the data directory: identity key, profile and match state
	// (default p2p.DefaultConfigDir()).
	Data string
	// Name is the display name ("" = the profile's, else a default made
	// from the peer id). A name given here is saved as the profile when
	// there is none yet.
	Name string
	// Listen are the multiaddrs to listen on (default p2p.DefaultListenAddrs:
	// every interface, TCP and QUIC, random ports).
	Listen []string
	// NoMDNS turns LAN discovery off (use Peers then).
	NoMDNS bool
	// Peers are static peer multiaddrs, each ending in /p2p/<id>.
	Peers []string
	// Log receives one line per event (default: discard).
	Log *slog.Logger
	// Reach turns on NAT traversal (p2p.WithReach: port mapping, AutoNAT
	// v2, hole punching, the relay client).
	Reach bool
	// Relays are relay multiaddrs, each ending in /p2p/<relay id>, or relay
	// lines (okey relay's, with the relay's key: relay.ParseLine) (--relay;
	// see ResolveRelays for the setting kept in Data): this peer's invite
	// codes carry them (Client.Invite), the tables it creates are
	// registered with them, and members are dialled through them when a
	// direct dial fails. They imply Reach.
	Relays []string
	// ServeRelay makes this peer a relay for the tables it creates (a
	// player whose host is publicly reachable).
	ServeRelay bool

	// Bandwidth, when set, counts the bytes the new host sends and receives
	// (not used with Host).
	Bandwidth *metrics.BandwidthCounter

	// Host, when set, is used instead of a new libp2p host (tests: a mocknet
	// host). Its identity must be the one in Data. Open takes ownership.
	Host host.Host
	// NodeOptions are passed to p2p.NewNode after Open's own (discovery for
	// tests, retry).
	NodeOptions []p2p.NodeOption
	// Lobby is the lobby's timing (zero: lobby.DefaultConfig's); Open sets
	// its table states directory and announcement check.
	Lobby lobby.Config
}

// Client is one okey peer on the LAN.
type Client struct {
	data  string
	name  string
	key   crypto.PrivKey
	node  *p2p.Node
	lobby *lobby.Lobby
	log   *slog.Logger

	release func() // the data directory's lock
	unlock  sync.Once

	playMu sync.Mutex // admission of a started table (the record of played configs)
}

// Open starts a peer: it loads (or creates) the identity in o.Data, starts
// the libp2p host, discovery and the lobby. Close stops it.
func Open(ctx context.Context, o Options) (*Client, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.Data == "" {
		d, err := p2p.DefaultConfigDir()
		if err != nil {
			if o.Host != nil {
				o.Host.Close()
			}
			return nil, err
		}
		o.Data = d
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c, err := open(o, log)
	if err != nil && o.Host != nil && c == nil {
		o.Host.Close()
	}
	return c, err
}

// ErrDataInUse is returned (wrapped) by Open when another process (or
// Client) has the data directory open.
var ErrDataInUse = errors.New("lan: the data directory is in use by another okey process (use another --data)")

func open(o Options, log *slog.Logger) (c *Client, err error) {
	release, err := lockData(o.Data)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			release()
		}
	}()
	key, err := p2p.LoadOrCreateIdentity(o.Data)
	if err != nil {
		return nil, err
	}
	name := o.Name
	if name != "" {
		if err := p2p.ValidateDisplayName(name); err != nil {
			return nil, fmt.Errorf("lan: name %q: %w", name, err)
		}
		if _, err := p2p.LoadProfile(o.Data); errors.Is(err, fs.ErrNotExist) {
			if err := p2p.SaveProfile(o.Data, name); err != nil {
				return nil, err
			}
		}
	} else {
		n, err := p2p.LoadProfile(o.Data)
		switch {
		case err == nil:
			name = n
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	var relayInfos []peer.AddrInfo
	var relayKeys []p2p.NodeOption
	for _, r := range o.Relays {
		ai, key, err := relay.ParseLine(r)
		if err != nil {
			return nil, err
		}
		relayInfos = append(relayInfos, ai)
		if !key.IsZero() {
			relayKeys = append(relayKeys, p2p.WithRelayKey(ai.ID, key))
		}
	}
	h := o.Host
	if h == nil {
		listen := o.Listen
		if len(listen) == 0 {
			listen = p2p.DefaultListenAddrs
		}
		hopts := []p2p.HostOption{p2p.WithIdentity(key), p2p.WithListenAddrs(listen...)}
		if o.Reach || o.ServeRelay {
			hopts = append(hopts, p2p.WithReach())
		}
		if len(relayInfos) > 0 {
			hopts = append(hopts, p2p.WithRelays(relayInfos...))
		}
		if o.Bandwidth != nil {
			hopts = append(hopts, p2p.WithBandwidthCounter(o.Bandwidth))
		}
		if h, err = p2p.NewHost(hopts...); err != nil {
			return nil, err
		}
	} else if want, err := peerID(key); err != nil || h.ID() != want {
		return nil, fmt.Errorf("lan: Options.Host has peer id %s, but the identity in %s is another", h.ID(), o.Data)
	}
	opts := []p2p.NodeOption{p2p.WithLogger(log)}
	if name != "" {
		opts = append(opts, p2p.WithDisplayName(name))
	}
	if !o.NoMDNS {
		opts = append(opts, p2p.WithMDNS(""))
	}
	if len(o.Peers) > 0 {
		opts = append(opts, p2p.WithStaticPeers(o.Peers...))
	}
	if len(relayInfos) > 0 {
		opts = append(opts, p2p.WithNodeRelays(relayInfos...))
		opts = append(opts, relayKeys...)
	}
	if o.ServeRelay {
		opts = append(opts, p2p.WithServeRelay(relay.Config{State: filepath.Join(o.Data, RelayStateFile)}))
	}
	opts = append(opts, o.NodeOptions...)
	node, err := p2p.NewNode(h, opts...) // closes h on error
	if err != nil {
		if !o.NoMDNS && strings.Contains(err.Error(), "mdns") {
			err = fmt.Errorf("%w (no multicast-capable interface? use --no-mdns with --peer)", err)
		}
		return nil, err
	}
	lcfg := o.Lobby
	lcfg.States, lcfg.Check = filepath.Join(o.Data, TablesDir), CheckAnnouncement
	lob, err := lobby.New(node, lcfg)
	if err != nil {
		node.Close()
		return nil, err
	}
	return &Client{data: o.Data, name: node.DisplayName(), key: key, node: node, lobby: lob, log: log, release: release}, nil
}

// Close stops the peer: tables, lobby, discovery and host, and releases
// the data directory.
func (c *Client) Close() error {
	err := errors.Join(c.lobby.Close(), c.node.Close())
	c.unlock.Do(c.release)
	return err
}

// ID is this peer's libp2p peer id.
func (c *Client) ID() string { return c.node.ID().String() }

// Name is the display name shown in the lobby.
func (c *Client) Name() string { return c.name }

// Addrs are the addresses other players can pass with --peer.
func (c *Client) Addrs() []string { return c.node.Addrs() }

// ReachableAddrs are the addresses others can reach this player at with
// --peer from beyond its LAN: a relay's circuit, or one AutoNAT v2
// confirmed (p2p.Node.ReachableAddrs); often none.
func (c *Client) ReachableAddrs() []string { return c.node.ReachableAddrs() }

// Lobby is the LAN's table list and this peer's table formation.
func (c *Client) Lobby() *lobby.Lobby { return c.lobby }

// Node is the underlying network node.
func (c *Client) Node() *p2p.Node { return c.node }

// Data is the data directory.
func (c *Client) Data() string { return c.data }

// Files inside Data.
const (
	// MatchesDir holds one directory per table played: the started
	// announcement, the table.DirStore state, and a done marker.
	MatchesDir       = "matches"
	announcementFile = "announcement.json"
	lockFile         = "lock"
	doneFile         = "done"
	// TablesDir holds the lobby's record per table this peer forms or
	// plays (lobby.TableState): its nonce, a private table's secret.
	TablesDir = "tables"
	// playedFile is the record of the table configs this peer has signed
	// under: one config hash a line, 64 lowercase hex digits.
	playedFile = "played"
)

func (c *Client) matchDir(tableID string) string {
	return filepath.Join(c.data, MatchesDir, tableID)
}

// Unfinished lists the tables this peer started playing and did not finish
// (a crash, a kill, an interrupt), by table id: Play resumes each of them.
func (c *Client) Unfinished() ([]lobby.Announcement, error) {
	ids, err := c.matchIDs()
	if err != nil {
		return nil, err
	}
	var out []lobby.Announcement
	for _, id := range ids {
		dir := c.matchDir(id)
		if _, err := os.Stat(filepath.Join(dir, doneFile)); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, announcementFile)); errors.Is(err, fs.ErrNotExist) {
			continue // not a LAN match (the terminal's matches against bots live here too)
		}
		if _, err := os.Stat(filepath.Join(dir, spectatorFile)); err == nil {
			continue // a match this peer watches: no seat to resume (Watch resumes it)
		}
		a, err := readAnnouncement(filepath.Join(dir, announcementFile))
		if err != nil {
			c.log.Warn("unreadable match state, skipped", "dir", dir, "err", err)
			continue
		}
		if a.Table != id || !slices.Contains(a.Roster(), c.node.ID()) {
			c.log.Warn("match state for another table or peer, skipped", "dir", dir)
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// matchIDs lists the match folders under the data directory, by table id
// (folders whose name is not a table id are not this package's).
func (c *Client) matchIDs() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(c.data, MatchesDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && p2p.ValidTableID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

func readAnnouncement(path string) (lobby.Announcement, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return lobby.Announcement{}, err
	}
	return lobby.DecodeAnnouncement(b)
}

// peerID is the peer id of an identity.
func peerID(k crypto.PrivKey) (peer.ID, error) { return peer.IDFromPrivateKey(k) }
