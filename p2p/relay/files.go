package relay

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// The files of a relay's data directory (okey relay --data), beside its
// identity: the operator's allow-list, the registered tables
// (Config.State) and the relay's key.
const (
	// AllowFile is the allow-list of creators: one peer id a line
	// (ParseAllowList), read again at each registration.
	AllowFile = "relay-allow"
	// StateFile is the registered tables, kept across restarts.
	StateFile = "relay-tables.json"
	// KeyFile is the relay's key (its line's secret): 32 hex digits and a
	// newline, mode 0600.
	KeyFile = "relay-key"
)

// LoadKey loads the relay's key from path, or draws one and keeps it
// there (mode 0600, written whole or not at all) when there is none or
// renew is set; remove deletes the file and returns the zero Key (no key:
// the allow-list alone registers tables). A file that holds no key is an
// error that says how to start again.
func LoadKey(path string, renew, remove bool) (Key, error) {
	if remove {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Key{}, err
		}
		return Key{}, nil
	}
	if !renew {
		b, err := os.ReadFile(path)
		if err == nil {
			k, err := ParseKey(strings.TrimSpace(string(b)))
			if err != nil {
				return k, fmt.Errorf("%s: %w (remove it, or start with --new-key)", path, err)
			}
			return k, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return Key{}, err
		}
	}
	k, err := NewKey()
	if err != nil {
		return k, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(k.Text()+"\n"), 0o600); err != nil {
		return Key{}, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return Key{}, err
	}
	return k, nil
}

// ReadAllowFile reads the allow-list file at path (a missing file is an
// empty list).
func ReadAllowFile(path string) (map[peer.ID]bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[peer.ID]bool{}, nil
	}
	if err != nil {
		return map[peer.ID]bool{}, err
	}
	l, err := ParseAllowList(string(b))
	if err != nil {
		return map[peer.ID]bool{}, fmt.Errorf("%s: %w", path, err)
	}
	out := map[peer.ID]bool{}
	for _, p := range l {
		out[p] = true
	}
	return out, nil
}

// Allowed is a Config.Allowed: the peers of fixed (the operator's --allow),
// then those of the allow-list file at path, read again at each call, so
// that an edit takes effect at the next registration without a restart
// (an unreadable file is logged and admits no one more).
func Allowed(fixed map[peer.ID]bool, path string, log *slog.Logger) func(peer.ID) bool {
	return func(p peer.ID) bool {
		if fixed[p] {
			return true
		}
		l, err := ReadAllowFile(path)
		if err != nil && log != nil {
			log.Warn("relay: unreadable allow-list", "err", err)
		}
		return l[p]
	}
}

// LineAddrs are the addresses a relay gives out: extra (the addresses it
// cannot see itself, a forwarded port on a router) first, then its own
// but the loopback ones, which only a machine with nothing else gets.
func LineAddrs(own, extra []ma.Multiaddr) []ma.Multiaddr {
	out := append([]ma.Multiaddr(nil), extra...)
	var loop []ma.Multiaddr
	for _, a := range own {
		if manet.IsIPLoopback(a) {
			loop = append(loop, a)
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = loop
	}
	return out
}
