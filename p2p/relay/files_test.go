package relay

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// TestLoadKey: a key is drawn once and kept (0600) across loads; renew
// draws another, remove deletes the file and gives no key; a file that
// holds no key is refused with the way out.
func TestLoadKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), KeyFile)
	k, err := LoadKey(path, false, false)
	if err != nil || k.IsZero() {
		t.Fatalf("first load: %v %v", k.IsZero(), err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v %v", st, err)
	}
	if k2, err := LoadKey(path, false, false); err != nil || k2 != k {
		t.Fatalf("a second load changed the key (%v)", err)
	}
	k3, err := LoadKey(path, true, false)
	if err != nil || k3 == k || k3.IsZero() {
		t.Fatalf("renew kept the key or gave none (%v)", err)
	}
	if k4, _ := LoadKey(path, false, false); k4 != k3 {
		t.Fatal("the renewed key was not kept")
	}
	if k5, err := LoadKey(path, false, true); err != nil || !k5.IsZero() {
		t.Fatalf("remove: a key or %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("remove left the file: %v", err)
	}
	if _, err := LoadKey(path, false, true); err != nil {
		t.Fatalf("remove without a file: %v", err)
	}
	os.WriteFile(path, []byte("not hex\n"), 0o600)
	if _, err := LoadKey(path, false, false); err == nil || !strings.Contains(err.Error(), "--new-key") {
		t.Fatalf("a broken key file: %v", err)
	}
}

func testPeer(t *testing.T) peer.ID {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestAllowFile: a missing allow-list is empty; a broken one names its
// file; Allowed admits the fixed peers and the file's, read again at each
// call.
func TestAllowFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), AllowFile)
	if l, err := ReadAllowFile(path); err != nil || len(l) != 0 {
		t.Fatalf("a missing file: %v %v", l, err)
	}
	fixed, listed, other := testPeer(t), testPeer(t), testPeer(t)
	allowed := Allowed(map[peer.ID]bool{fixed: true}, path, nil)
	if !allowed(fixed) || allowed(listed) {
		t.Fatal("before the file: want the fixed peer alone")
	}
	os.WriteFile(path, []byte("# friends\n"+listed.String()+"\n"), 0o600)
	if !allowed(listed) || allowed(other) {
		t.Fatal("the file's peer is not admitted, or another is")
	}
	os.WriteFile(path, []byte("not a peer id\n"), 0o600)
	if _, err := ReadAllowFile(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a broken file: %v", err)
	}
	if allowed(listed) || !allowed(fixed) {
		t.Fatal("a broken file admits its old peers, or refuses the fixed one")
	}
}

// TestLineAddrs: the extra addresses first, the loopback ones only when
// there is nothing else.
func TestLineAddrs(t *testing.T) {
	m := func(s string) ma.Multiaddr { return ma.StringCast(s) }
	lo, lan, pub := m("/ip4/127.0.0.1/tcp/4001"), m("/ip4/192.168.1.2/tcp/4001"), m("/ip4/203.0.113.7/tcp/4001")
	str := func(as []ma.Multiaddr) string {
		var s []string
		for _, a := range as {
			s = append(s, a.String())
		}
		return strings.Join(s, " ")
	}
	if got, want := str(LineAddrs([]ma.Multiaddr{lo, lan}, []ma.Multiaddr{pub})), pub.String()+" "+lan.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := str(LineAddrs([]ma.Multiaddr{lo}, nil)); got != lo.String() {
		t.Errorf("loopback alone: got %q", got)
	}
}
