package netplay

import (
	"path/filepath"
	"testing"

	"github.com/okey-game/okey/p2p/relay"
)

// TestServeRelay: a relay keeps its identity and key in its data
// directory, so a restarted one has the same address and line; --no-key
// removes the key.
func TestServeRelay(t *testing.T) {
	data := filepath.Join(t.TempDir(), "relay")
	o := RelayOptions{Data: data, Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Rate: relay.DefaultRate, Log: testLogger(t)}
	r, err := ServeRelay(o)
	if err != nil {
		t.Fatal(err)
	}
	id, key := r.Host.ID(), r.Key
	if len(r.Host.Addrs()) == 0 || key.IsZero() || r.Service.Tables() != 0 {
		t.Fatalf("addrs %v, key set %v", r.Host.Addrs(), !key.IsZero())
	}
	r.Close()
	again, err := ServeRelay(o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Host.ID() != id || again.Key != key {
		t.Errorf("restarted: id %s (was %s), same key %v", again.Host.ID(), id, again.Key == key)
	}
	again.Close()
	o.NoKey = true
	nokey, err := ServeRelay(o)
	if err != nil {
		t.Fatal(err)
	}
	defer nokey.Close()
	if !nokey.Key.IsZero() {
		t.Error("--no-key kept a key")
	}
}
