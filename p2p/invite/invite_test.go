package invite

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// peerN is a deterministic Ed25519 peer id.
func peerN(t testing.TB, n byte) peer.ID {
	t.Helper()
	seed := bytes.Repeat([]byte{n}, 32)
	priv, _, err := crypto.GenerateEd25519Key(bytes.NewReader(append(seed, seed...)))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func secretN(n byte) Secret {
	var s Secret
	for i := range s {
		s[i] = n + byte(i)
	}
	return s
}

// realistic is a code as a creator at home makes it: a 16-hex-digit table
// id, its peer id, four addresses (public and LAN, TCP and QUIC, one IPv6)
// and one relay with its peer id.
func realistic(t testing.TB) Code {
	relay := peerN(t, 9)
	return Code{
		Table:   "3f9a0c12d4e5b6a7",
		Creator: peerN(t, 1),
		Addrs: []ma.Multiaddr{
			ma.StringCast("/ip4/81.214.37.190/udp/40123/quic-v1"),
			ma.StringCast("/ip4/81.214.37.190/tcp/40123"),
			ma.StringCast("/ip6/2a02:e0:3f9a:1200:4c1e:9bff:fe21:7d33/udp/40123/quic-v1"),
			ma.StringCast("/ip4/192.168.1.23/tcp/40123"),
		},
		Relays: []ma.Multiaddr{ma.StringCast("/ip4/167.99.142.8/udp/4001/quic-v1/p2p/" + relay.String())},
		Secret: secretN(0x51),
	}
}

func codesEqual(a, b Code) bool {
	if a.Table != b.Table || a.Creator != b.Creator || a.Secret != b.Secret || len(a.Addrs) != len(b.Addrs) || len(a.Relays) != len(b.Relays) {
		return false
	}
	for i := range a.Addrs {
		if !a.Addrs[i].Equal(b.Addrs[i]) {
			return false
		}
	}
	for i := range a.Relays {
		if !a.Relays[i].Equal(b.Relays[i]) {
			return false
		}
	}
	return true
}

func TestRealisticCodeLength(t *testing.T) {
	c := realistic(t)
	s, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("realistic code (%d characters): %s", len(s), s)
	if len(s) > MaxLen {
		t.Fatalf("%d characters, at most %d", len(s), MaxLen)
	}
	got, err := Parse("  " + s + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if !codesEqual(got, c) {
		t.Fatalf("round trip: %+v, want %+v", got, c)
	}
	// A non-hex table id and no relay.
	c.Table, c.Relays = "z0123456789abcdef", nil
	s, err = c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Parse(s); err != nil || !codesEqual(got, c) {
		t.Fatalf("round trip: %v %+v", err, got)
	}
}

// TestTyposCaught changes every character of sample codes into every other
// character of the alphabet, and swaps every pair of different neighbours:
// Parse refuses each.
func TestTyposCaught(t *testing.T) {
	var samples []string
	for i := byte(0); i < 6; i++ {
		c := realistic(t)
		c.Secret = secretN(i * 37)
		c.Creator = peerN(t, i+1)
		c.Addrs = c.Addrs[:1+int(i)%4]
		if i%2 == 1 {
			c.Table = fmt.Sprintf("z%015x", uint64(i)*0x9e3779b97f4a7c15>>4)
		}
		s, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, s)
	}
	subs, swaps := 0, 0
	for _, s := range samples {
		for i := 0; i < len(s); i++ {
			for _, r := range alphabet + "0OIl-_ " {
				if byte(r) == s[i] {
					continue
				}
				typo := s[:i] + string(r) + s[i+1:]
				if strings.TrimSpace(typo) != typo {
					continue // a space at the end is trimmed: not a typo
				}
				subs++
				if _, err := Parse(typo); err == nil {
					t.Fatalf("substitution at %d (%q for %q) accepted: %s", i, r, s[i], typo)
				}
			}
			if i+1 < len(s) && s[i] != s[i+1] {
				b := []byte(s)
				b[i], b[i+1] = b[i+1], b[i]
				swaps++
				if _, err := Parse(string(b)); err == nil {
					t.Fatalf("swap at %d accepted: %s", i, b)
				}
			}
		}
	}
	t.Logf("%d substitutions and %d swaps refused", subs, swaps)
}

func TestCheckPrime(t *testing.T) {
	for d := 2; d*d <= checkPrime; d++ {
		if checkPrime%d == 0 {
			t.Fatalf("%d is not prime (%d)", checkPrime, d)
		}
	}
	if checkPrime >= 58*58 || checkPrime <= 57 || MaxLen+58 >= checkPrime {
		t.Fatal("checkPrime out of range")
	}
}

// TestParseErrors: each malformed code is refused with an error that says
// what is wrong.
func TestParseErrors(t *testing.T) {
	good, err := realistic(t).Encode()
	if err != nil {
		t.Fatal(err)
	}
	withPayload := func(f func(p []byte) []byte) string {
		p, err := realistic(t).payload()
		if err != nil {
			t.Fatal(err)
		}
		return encodeText(f(p))
	}
	for _, tc := range []struct {
		name, code string
		is         error
		says       string
	}{
		{"empty", "", ErrNotACode, "does not start"},
		{"other text", "hello", ErrNotACode, "does not start"},
		{"newer version", "okey2" + good[5:], ErrVersion, "okey2"},
		{"bad character", good[:20] + "0" + good[21:], ErrMalformed, "character 21"},
		{"too long", good + strings.Repeat("z", MaxLen), ErrTooLong, "at most 250"},
		{"cut short", good[:len(good)-5], ErrTypo, "mistyped"},
		{"check only", "okey111", ErrMalformed, "cut short"},
		{"payload version", withPayload(func(p []byte) []byte { p[0] = 2; return p }), ErrVersion, "payload version 2"},
		{"table form", withPayload(func(p []byte) []byte { p[1] = 7; return p }), ErrMalformed, "table id form"},
		{"cut in secret", withPayload(func(p []byte) []byte { return p[:1+9+32+5] }), ErrMalformed, "inside the secret"},
		{"zero secret", withPayload(func(p []byte) []byte { copy(p[1+9+32:], make([]byte, 16)); return p }), ErrMalformed, "all zeros"},
		{"trailing", withPayload(func(p []byte) []byte { return append(p, 0) }), ErrMalformed, "after the last field"},
		{"too many addrs", withPayload(func(p []byte) []byte { p[1+9+32+16] = 9; return p }), ErrMalformed, "9 addresses"},
		{"bad addr", withPayload(func(p []byte) []byte { p[1+9+32+16+2] = 0xff; return p }), ErrMalformed, "address 1"},
		{"creator key not a point", withPayload(func(p []byte) []byte {
			copy(p[10:42], append([]byte{2}, make([]byte, 31)...)) // y = 2: no x
			return p
		}), ErrMalformed, "creator's key: not a point"},
		{"creator key not canonical", withPayload(func(p []byte) []byte {
			copy(p[10:42], append(append([]byte{0xed}, bytes.Repeat([]byte{0xff}, 30)...), 0x7f)) // y = p
			return p
		}), ErrMalformed, "creator's key: not in its canonical form"},
		{"long table form for hex id", withPayload(func(p []byte) []byte {
			id := "3f9a0c12d4e5b6a7"
			return append(append([]byte{1, 1, 16}, id...), p[10:]...)
		}), ErrMalformed, "long form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.code)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(err.Error(), "invite: ") {
				t.Fatalf("Parse: %v; want %v saying %q", err, tc.is, tc.says)
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	ok := realistic(t)
	for _, tc := range []struct {
		name string
		f    func(*Code)
		says string
	}{
		{"bad table", func(c *Code) { c.Table = "a b" }, "table id"},
		{"no secret", func(c *Code) { c.Secret = Secret{} }, "no secret"},
		{"addr with p2p", func(c *Code) { c.Addrs[0] = c.Addrs[0].Encapsulate(ma.StringCast("/p2p/" + c.Creator.String())) }, "/p2p part"},
		{"relay without id", func(c *Code) { c.Relays[0] = ma.StringCast("/ip4/1.2.3.4/tcp/1") }, "does not end in /p2p"},
		{"too long", func(c *Code) {
			for i := 0; i < 4; i++ {
				c.Addrs = append(c.Addrs, ma.StringCast("/dns4/a-rather-long-host-name.example.org/tcp/4001"))
			}
		}, "at most 250"},
		{"bad creator", func(c *Code) { c.Creator = "x" }, "creator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			c.Addrs = append([]ma.Multiaddr(nil), ok.Addrs...)
			c.Relays = append([]ma.Multiaddr(nil), ok.Relays...)
			tc.f(&c)
			if _, err := c.Encode(); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("Encode: %v, want an error saying %q", err, tc.says)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	good, err := realistic(f).Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add("okey1")
	f.Add("okey1" + base58([]byte{1, 0}) + checkText(base58([]byte{1, 0})))
	f.Add(good[:len(good)-3])
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invite: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		out, err := c.Encode()
		if err != nil {
			t.Fatalf("Parse accepted what Encode refuses: %v", err)
		}
		if out != strings.TrimSpace(s) {
			t.Fatalf("Encode(Parse(%q)) = %q", s, out)
		}
	})
}

// TestDerivations pins the derivations (protocol.md 7.10 quotes these
// values) and checks that each input changes the proof.
func TestDerivations(t *testing.T) {
	s := secretN(0)
	creator, joiner := []byte(peerN(t, 1)), []byte(peerN(t, 2))
	var nonce [32]byte
	for i := range nonce {
		nonce[i] = byte(0xa0 + i)
	}
	relay := []byte(peerN(t, 3))
	tok := s.RelayToken("3f9a0c12d4e5b6a7", relay)
	if other := s.RelayToken("3f9a0c12d4e5b6a7", []byte(peerN(t, 4))); other == tok {
		t.Fatal("two relays of one table get the same token")
	}
	p := s.Proof("3f9a0c12d4e5b6a7", creator, joiner, nonce)
	const (
		wantTok   = "9f3fe252344e3d696343834dbf6103159b81e8aaa944f1fc317cb507d0b48c61"
		wantProof = "88c451cd9d9998a72b70e04ec44a77f01d09b978d95e18b89fc4076f31244614"
	)
	if hex.EncodeToString(tok[:]) != wantTok || p.String() != wantProof {
		t.Fatalf("relay token %x, proof %s; want %s, %s", tok, p, wantTok, wantProof)
	}
	if !s.Check(p, "3f9a0c12d4e5b6a7", creator, joiner, nonce) {
		t.Fatal("own proof refused")
	}
	if bytes.Equal(tok[:], p[:]) {
		t.Fatal("token equals proof")
	}
	other := nonce
	other[0] ^= 1
	for name, ok := range map[string]bool{
		"other secret":  secretN(1).Check(p, "3f9a0c12d4e5b6a7", creator, joiner, nonce),
		"other table":   s.Check(p, "3f9a0c12d4e5b6a8", creator, joiner, nonce),
		"other creator": s.Check(p, "3f9a0c12d4e5b6a7", joiner, joiner, nonce),
		"other joiner":  s.Check(p, "3f9a0c12d4e5b6a7", creator, creator, nonce),
		"other nonce":   s.Check(p, "3f9a0c12d4e5b6a7", creator, joiner, other),
		"zero secret":   Secret{}.Check(Secret{}.Proof("3f9a0c12d4e5b6a7", creator, joiner, nonce), "3f9a0c12d4e5b6a7", creator, joiner, nonce),
	} {
		if ok {
			t.Errorf("%s: proof accepted", name)
		}
	}
	// The token under the relay label is not the admission key: a relay
	// operator who holds it cannot make a proof with it as the secret.
	var fromTok Secret
	copy(fromTok[:], tok[:])
	if fromTok.Check(p, "3f9a0c12d4e5b6a7", creator, joiner, nonce) {
		t.Fatal("the relay token makes the proof")
	}
	q, err := ParseProof(p.String())
	if err != nil || q != p {
		t.Fatalf("ParseProof: %v", err)
	}
	for _, bad := range []string{"", strings.Repeat("A", 64), strings.Repeat("0", 63)} {
		if _, err := ParseProof(bad); err == nil {
			t.Errorf("ParseProof(%q) accepted", bad)
		}
	}
}

func TestSecretNeverPrinted(t *testing.T) {
	s, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	h := hex.EncodeToString(s[:])
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "secret", s)
	out := fmt.Sprintf("%v %s %x %X %#v %+v %d", s, s, s, s, s, s, s) + buf.String()
	if strings.Contains(strings.ToLower(out), h[:8]) || !strings.Contains(out, "redacted") {
		t.Fatalf("secret shown: %s", out)
	}
	if _, err := s.MarshalText(); err == nil {
		t.Fatal("MarshalText gave the secret")
	}
	t2, _ := NewSecret()
	if t2 == s {
		t.Fatal("two secrets equal")
	}
}

func TestLimiter(t *testing.T) {
	l := &Limiter{Burst: 3, Refill: 20 * time.Second, Max: 2}
	t0 := time.Unix(1000, 0)
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("a", t0); !ok {
			t.Fatalf("attempt %d refused", i+1)
		}
		l.Fail("a", t0)
	}
	ok, wait := l.Allow("a", t0)
	if ok || wait != 20*time.Second {
		t.Fatalf("after 3 failures: %v, wait %v", ok, wait)
	}
	if ok, _ := l.Allow("b", t0); !ok {
		t.Fatal("another peer refused")
	}
	if ok, _ := l.Allow("a", t0.Add(19*time.Second)); ok {
		t.Fatal("allowed before the refill")
	}
	if ok, _ := l.Allow("a", t0.Add(20*time.Second)); !ok {
		t.Fatal("refused after the refill")
	}
	l.Fail("a", t0.Add(20*time.Second))
	if ok, _ := l.Allow("a", t0.Add(21*time.Second)); ok {
		t.Fatal("a failure after the refill: allowed again")
	}
	l.Fail("b", t0)
	l.Fail("c", t0.Add(time.Second))
	if l.Tracked() != 2 {
		t.Fatalf("tracked %d, max 2", l.Tracked())
	}
}

// TestLimiterForgetsFullestBucket: at its bound the limiter forgets the
// peer whose bucket is fullest, never one that is over its limit
// (protocol.md 7.10).
func TestLimiterForgetsFullestBucket(t *testing.T) {
	l := &Limiter{Burst: 3, Refill: 20 * time.Second, Max: 2}
	t0 := time.Unix(1000, 0)
	for range 3 {
		l.Fail("a", t0)
	}
	l.Fail("b", t0.Add(time.Second)) // failed last, bucket fullest
	l.Fail("c", t0.Add(2*time.Second))
	if l.Tracked() != 2 {
		t.Fatalf("tracked %d", l.Tracked())
	}
	if ok, _ := l.Allow("a", t0.Add(2*time.Second)); ok {
		t.Fatal("the peer over its limit was forgotten")
	}
}
