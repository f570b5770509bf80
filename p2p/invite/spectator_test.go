package invite

import (
	"testing"
)

// TestSpectatorProof: the vector of protocol.md 7.12 (the secret, table,
// creator and spectator of 7.10's vectors, the spectator being 7.10's
// joiner), and a proof that admits no one else.
func TestSpectatorProof(t *testing.T) {
	s := secretN(0)
	creator, spect := []byte(peerN(t, 1)), []byte(peerN(t, 2))
	p := s.SpectatorProof("3f9a0c12d4e5b6a7", creator, spect)
	t.Logf("spectator proof %s", p)
	const want = "2d46bc04d5cdf3e12b7df7e2aeea23414fa701e544bb7ecc68ca557715891493"
	if p.String() != want {
		t.Fatalf("spectator proof %s, want %s", p, want)
	}
	if !s.CheckSpectator(p, "3f9a0c12d4e5b6a7", creator, spect) {
		t.Fatal("own proof refused")
	}
	var nonce [32]byte
	for name, ok := range map[string]bool{
		"other secret":    secretN(1).CheckSpectator(p, "3f9a0c12d4e5b6a7", creator, spect),
		"other table":     s.CheckSpectator(p, "3f9a0c12d4e5b6a8", creator, spect),
		"other creator":   s.CheckSpectator(p, "3f9a0c12d4e5b6a7", spect, spect),
		"other spectator": s.CheckSpectator(p, "3f9a0c12d4e5b6a7", creator, creator),
		"zero secret":     Secret{}.CheckSpectator(Secret{}.SpectatorProof("3f9a0c12d4e5b6a7", creator, spect), "3f9a0c12d4e5b6a7", creator, spect),
		"a join proof":    s.CheckSpectator(s.Proof("3f9a0c12d4e5b6a7", creator, spect, nonce), "3f9a0c12d4e5b6a7", creator, spect),
	} {
		if ok {
			t.Errorf("%s: proof accepted", name)
		}
	}
}
