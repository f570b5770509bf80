package netplay

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/okey-game/okey/p2p/relay"
)

// Files inside Data for relays.
const (
	// RelaysFile is the relay setting: one relay multiaddr a line.
	RelaysFile = "relays"
	// RelayStateFile is the registrations of the relay this peer serves
	// (ServeRelay).
	RelayStateFile = "relay-tables.json"
)

// NoRelay given as the only --relay clears the setting.
const NoRelay = "none"

// ResolveRelays returns the relays to use: the ones given (--relay), which
// then become the setting kept in data, or, when none is given, the
// setting. NoRelay alone clears the setting. A bad address is an error and
// changes nothing.
func ResolveRelays(data string, given []string) ([]string, error) {
	path := filepath.Join(data, RelaysFile)
	if len(given) == 1 && given[0] == NoRelay {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lan: relay setting: %w", err)
		}
		return nil, nil
	}
	if len(given) > 0 {
		for _, r := range given {
			if _, _, err := relay.ParseLine(r); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(data, 0o700); err != nil {
			return nil, fmt.Errorf("lan: relay setting: %w", err)
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(strings.Join(given, "\n")+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("lan: relay setting: %w", err)
		}
		if err := os.Rename(tmp, path); err != nil {
			return nil, fmt.Errorf("lan: relay setting: %w", err)
		}
		return given, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lan: relay setting: %w", err)
	}
	var out []string
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if _, _, err := relay.ParseLine(l); err != nil {
			return nil, fmt.Errorf("lan: relay setting %s line %d: %w", path, i+1, err)
		}
		out = append(out, l)
	}
	return out, nil
}
