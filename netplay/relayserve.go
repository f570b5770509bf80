package netplay

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/relay"
)

// RelayOptions are a relay's of its own (okey relay).
type RelayOptions struct {
	// Data keeps the relay's identity, its key, its allow-list file and
	// the tables registered (made 0700): a restarted relay keeps its
	// address, its line and its tables.
	Data   string
	Listen []string
	Rate   int
	// NewKey replaces the key (the old line registers nothing any more);
	// NoKey removes it (the allow-list alone registers).
	NewKey, NoKey bool
	// Allowed are players who may register tables besides the allow-list
	// file's (read again at each registration).
	Allowed map[peer.ID]bool
	Log     *slog.Logger
}

// Relay is the relay service on a host of its own.
type Relay struct {
	Host    host.Host
	Service *relay.Service
	Key     relay.Key
}

// ServeRelay starts a relay of its own: its host with the data
// directory's identity, listening on o.Listen, and the relay service.
func ServeRelay(o RelayOptions) (*Relay, error) {
	if err := os.MkdirAll(o.Data, 0o700); err != nil {
		return nil, err
	}
	id, err := p2p.LoadOrCreateIdentity(o.Data)
	if err != nil {
		return nil, err
	}
	key, err := relay.LoadKey(filepath.Join(o.Data, relay.KeyFile), o.NewKey, o.NoKey)
	if err != nil {
		return nil, err
	}
	h, err := p2p.NewHost(p2p.WithIdentity(id), p2p.WithListenAddrs(o.Listen...))
	if err != nil {
		return nil, err
	}
	svc, err := relay.New(h, relay.Config{State: filepath.Join(o.Data, relay.StateFile), Key: key, Rate: o.Rate, Log: o.Log,
		Allowed: relay.Allowed(o.Allowed, filepath.Join(o.Data, relay.AllowFile), o.Log)})
	if err != nil {
		h.Close()
		return nil, err
	}
	return &Relay{Host: h, Service: svc, Key: key}, nil
}

// Close stops the service, then its host.
func (r *Relay) Close() {
	r.Service.Close()
	r.Host.Close()
}
