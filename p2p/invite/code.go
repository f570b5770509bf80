package invite

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"filippo.io/edwards25519"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// The text form of a code (protocol.md 7.10): Prefix, the payload in
// base58 (Bitcoin's alphabet), and two check characters.
const (
	// Prefix starts every code: "okey" and the format version, 1.
	Prefix = "okey1"
	// MaxLen bounds a code's length in characters.
	MaxLen = 250
	// Version is the payload's first byte.
	Version    = 1
	MaxAddrs   = 8
	MaxRelays  = 4
	checkChars = 2
	// checkPrime is the modulus of the check: a prime below 58*58.
	checkPrime = 3361
	alphabet   = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
)

// Code is an invite code's content.
type Code struct {
	Table   string
	Creator peer.ID
	// Addrs are the creator's addresses (no /p2p part), in the order a
	// joiner should try them.
	Addrs []ma.Multiaddr
	// Relays are relay addresses, each ending in /p2p/<relay peer id>.
	Relays []ma.Multiaddr
	Secret Secret
}

// Errors of Parse; each is wrapped with the detail.
var (
	ErrNotACode  = errors.New("invite: not an okey invite code")
	ErrVersion   = errors.New("invite: invite code of another version")
	ErrTypo      = errors.New("invite: the invite code's check does not match (a character is mistyped, missing or swapped)")
	ErrMalformed = errors.New("invite: malformed invite code")
	ErrTooLong   = errors.New("invite: invite code too long")
)

var hexTableID = regexp.MustCompile(`^[0-9a-f]{16}$`)
var tableIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Table id forms in the payload.
const (
	tableHex8 = 0 // 16 lowercase hex digits, as 8 bytes
	tableText = 1 // any other table id: a length byte and its characters
)

// Encode returns the code's text: at most MaxLen characters. It fails on a
// field that cannot go into a code (see protocol.md 7.10), or when the
// code would be too long (give fewer addresses).
func (c Code) Encode() (string, error) {
	p, err := c.payload()
	if err != nil {
		return "", err
	}
	s := encodeText(p)
	if len(s) > MaxLen {
		return "", fmt.Errorf("%w: %d characters, at most %d (fewer addresses)", ErrTooLong, len(s), MaxLen)
	}
	return s, nil
}

func encodeText(p []byte) string {
	body := base58(p)
	return Prefix + body + checkText(body)
}

func (c Code) payload() ([]byte, error) {
	b := []byte{Version}
	switch {
	case hexTableID.MatchString(c.Table):
		raw, _ := hex.DecodeString(c.Table)
		b = append(append(b, tableHex8), raw...)
	case tableIDRE.MatchString(c.Table):
		b = append(append(b, tableText, byte(len(c.Table))), c.Table...)
	default:
		return nil, fmt.Errorf("invite: table id %q: want 1 to 64 of A-Z a-z 0-9 _ -", c.Table)
	}
	key, err := ed25519Key(c.Creator)
	if err != nil {
		return nil, fmt.Errorf("invite: creator: %w", err)
	}
	b = append(b, key...)
	if c.Secret.IsZero() {
		return nil, errors.New("invite: no secret")
	}
	b = append(b, c.Secret[:]...)
	if len(c.Addrs) > MaxAddrs {
		return nil, fmt.Errorf("invite: %d addresses, at most %d", len(c.Addrs), MaxAddrs)
	}
	b = append(b, byte(len(c.Addrs)))
	for i, a := range c.Addrs {
		if err := plainAddr(a); err != nil {
			return nil, fmt.Errorf("invite: address %d (%s): %w", i+1, a, err)
		}
		b = appendAddr(b, a.Bytes())
	}
	if len(c.Relays) > MaxRelays {
		return nil, fmt.Errorf("invite: %d relays, at most %d", len(c.Relays), MaxRelays)
	}
	b = append(b, byte(len(c.Relays)))
	for i, r := range c.Relays {
		rest, last := ma.SplitLast(r)
		if last == nil || last.Code() != ma.P_P2P {
			return nil, fmt.Errorf("invite: relay %d (%s): does not end in /p2p/<peer id>", i+1, r)
		}
		if err := plainAddr(rest); err != nil {
			return nil, fmt.Errorf("invite: relay %d (%s): %w", i+1, r, err)
		}
		id, err := peer.IDFromBytes(last.RawValue())
		if err != nil {
			return nil, fmt.Errorf("invite: relay %d: %w", i+1, err)
		}
		key, err := ed25519Key(id)
		if err != nil {
			return nil, fmt.Errorf("invite: relay %d: %w", i+1, err)
		}
		b = append(appendAddr(b, rest.Bytes()), key...)
	}
	return b, nil
}

func appendAddr(b, a []byte) []byte { return append(append(b, byte(len(a))), a...) }

// plainAddr checks a transport address: not empty, no /p2p or
// /p2p-circuit part, at most 255 bytes.
func plainAddr(a ma.Multiaddr) error {
	if len(a) == 0 {
		return errors.New("empty address")
	}
	for _, c := range a {
		if c.Code() == ma.P_P2P || c.Code() == ma.P_CIRCUIT {
			return fmt.Errorf("has a /%s part (give the transport address only)", c.Protocol().Name)
		}
	}
	if n := len(a.Bytes()); n > 255 {
		return fmt.Errorf("address of %d bytes, at most 255", n)
	}
	return nil
}

// ed25519Key is the raw public key of an Ed25519 peer id.
func ed25519Key(id peer.ID) ([]byte, error) {
	if err := id.Validate(); err != nil {
		return nil, err
	}
	pk, err := id.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("peer id %s: %w", id, err)
	}
	if pk.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("peer id %s: not an Ed25519 key", id)
	}
	raw, err := pk.Raw()
	if err != nil {
		return nil, err
	}
	if _, err := peerFromKey(raw); err != nil {
		return nil, fmt.Errorf("peer id %s: Ed25519 key %w", id, err)
	}
	return raw, nil
}

// peerFromKey is the peer id of a raw Ed25519 public key: 32 bytes that
// are the canonical encoding of a point of edwards25519 (libp2p itself
// accepts any 32 bytes; protocol.md 7.10 does not).
func peerFromKey(raw []byte) (peer.ID, error) {
	if p, err := new(edwards25519.Point).SetBytes(raw); err != nil {
		return "", errors.New("not a point of the curve")
	} else if !bytes.Equal(p.Bytes(), raw) {
		return "", errors.New("not in its canonical form")
	}
	pk, err := crypto.UnmarshalEd25519PublicKey(raw)
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(pk)
}

// Parse decodes a code's text. White space around it is ignored (a pasted
// line); anything else that is not exactly a code's encoding is refused
// with an error naming what is wrong, so that Parse(s).Encode() gives s
// back (trimmed) for every accepted s.
func Parse(s string) (Code, error) {
	s = strings.TrimSpace(s)
	if len(s) > MaxLen {
		return Code{}, fmt.Errorf("%w: %d characters, at most %d", ErrTooLong, len(s), MaxLen)
	}
	if !strings.HasPrefix(s, "okey") {
		return Code{}, fmt.Errorf("%w: it does not start with %q", ErrNotACode, Prefix)
	}
	if !strings.HasPrefix(s, Prefix) {
		return Code{}, fmt.Errorf("%w: it starts with %q; this okey reads %q (a newer okey made it?)", ErrVersion, s[:min(len(s), len(Prefix))], Prefix)
	}
	rest := s[len(Prefix):]
	for i := 0; i < len(rest); i++ {
		if strings.IndexByte(alphabet, rest[i]) < 0 {
			return Code{}, fmt.Errorf("%w: character %d (%q) cannot be in a code", ErrMalformed, len(Prefix)+i+1, rest[i])
		}
	}
	if len(rest) < checkChars+1 {
		return Code{}, fmt.Errorf("%w: only %d characters (cut short?)", ErrMalformed, len(s))
	}
	body, check := rest[:len(rest)-checkChars], rest[len(rest)-checkChars:]
	if checkText(body) != check {
		return Code{}, ErrTypo
	}
	p, err := unbase58(body)
	if err != nil {
		return Code{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	c, err := decodePayload(p)
	if err != nil {
		return Code{}, err
	}
	return c, nil
}

// reader reads the payload, naming the field that is cut short.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = fmt.Errorf("%w: the code ends inside the %s (cut short?)", ErrMalformed, what)
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) byte(what string) int {
	b := r.take(1, what)
	if b == nil {
		return -1
	}
	return int(b[0])
}

func decodePayload(p []byte) (Code, error) {
	r := &reader{b: p}
	var c Code
	bad := func(format string, a ...any) (Code, error) {
		return Code{}, fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, a...)...)
	}
	v := r.byte("version")
	if r.err != nil {
		return Code{}, r.err
	}
	if v != Version {
		return Code{}, fmt.Errorf("%w: payload version %d, this okey reads %d", ErrVersion, v, Version)
	}
	switch r.byte("table id") {
	case tableHex8:
		if raw := r.take(8, "table id"); raw != nil {
			c.Table = hex.EncodeToString(raw)
		}
	case tableText:
		n := r.byte("table id")
		if r.err == nil && (n < 1 || n > 64) {
			return bad("table id of %d characters", n)
		}
		c.Table = string(r.take(n, "table id"))
		if r.err == nil && !tableIDRE.MatchString(c.Table) {
			return bad("table id %q has a character outside A-Z a-z 0-9 _ -", c.Table)
		}
		if r.err == nil && hexTableID.MatchString(c.Table) {
			return bad("table id %q written in the long form", c.Table)
		}
	case -1:
	default:
		return bad("unknown table id form")
	}
	key := r.take(32, "creator's key")
	if r.err == nil {
		id, err := peerFromKey(key)
		if err != nil {
			return bad("creator's key: %v", err)
		}
		c.Creator = id
	}
	if sec := r.take(SecretSize, "secret"); sec != nil {
		s, err := SecretFromBytes(sec)
		if err != nil {
			return bad("%v", err)
		}
		c.Secret = s
	}
	n := r.byte("address count")
	if r.err == nil && n > MaxAddrs {
		return bad("%d addresses, at most %d", n, MaxAddrs)
	}
	for i := 0; r.err == nil && i < n; i++ {
		a, err := r.addr(fmt.Sprintf("address %d", i+1))
		if err != nil {
			return Code{}, err
		}
		if a != nil {
			c.Addrs = append(c.Addrs, a)
		}
	}
	n = r.byte("relay count")
	if r.err == nil && n > MaxRelays {
		return bad("%d relays, at most %d", n, MaxRelays)
	}
	for i := 0; r.err == nil && i < n; i++ {
		what := fmt.Sprintf("relay %d", i+1)
		a, err := r.addr(what)
		if err != nil {
			return Code{}, err
		}
		key := r.take(32, what+"'s key")
		if r.err != nil {
			break
		}
		id, err := peerFromKey(key)
		if err != nil {
			return bad("%s's key: %v", what, err)
		}
		p2p, err := ma.NewComponent("p2p", id.String())
		if err != nil {
			return bad("%s's key: %v", what, err)
		}
		c.Relays = append(c.Relays, a.AppendComponent(p2p))
	}
	if r.err != nil {
		return Code{}, r.err
	}
	if len(r.b) > 0 {
		return bad("%d bytes after the last field", len(r.b))
	}
	return c, nil
}

func (r *reader) addr(what string) (ma.Multiaddr, error) {
	n := r.byte(what)
	raw := r.take(n, what)
	if r.err != nil {
		return nil, nil
	}
	a, err := ma.NewMultiaddrBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, what, err)
	}
	if !bytes.Equal(a.Bytes(), raw) {
		return nil, fmt.Errorf("%w: %s is not in its canonical form", ErrMalformed, what)
	}
	if err := plainAddr(a); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, what, err)
	}
	return a, nil
}

// checkText is the two check characters of body: the sum of each body
// character's value (its index in the alphabet) times its position (1,
// 2, ...) modulo 3361, written as two base58 digits, high first. Any one
// character changed, and any two different neighbours swapped, change it
// (checkPrime is a prime above 57 and positions are distinct and below it).
func checkText(body string) string {
	sum := 0
	for i := 0; i < len(body); i++ {
		sum = (sum + (i+1)*strings.IndexByte(alphabet, body[i])) % checkPrime
	}
	return string([]byte{alphabet[sum/58], alphabet[sum%58]})
}

var big58 = big.NewInt(58)

// base58 encodes b (Bitcoin's alphabet; each leading zero byte is a '1').
func base58(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod := new(big.Int)
	for n.Sign() > 0 {
		n.DivMod(n, big58, mod)
		out = append(out, alphabet[mod.Int64()])
	}
	for i := 0; i < zeros; i++ {
		out = append(out, alphabet[0])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// unbase58 decodes base58; every character is in the alphabet already.
func unbase58(s string) ([]byte, error) {
	zeros := 0
	for zeros < len(s) && s[zeros] == alphabet[0] {
		zeros++
	}
	n := new(big.Int)
	for i := zeros; i < len(s); i++ {
		n.Mul(n, big58)
		n.Add(n, big.NewInt(int64(strings.IndexByte(alphabet, s[i]))))
	}
	out := append(make([]byte, zeros), n.Bytes()...)
	if base58(out) != s {
		return nil, errors.New("not a canonical base58 text") // cannot happen: base58 is a bijection
	}
	return out, nil
}

// String is the proof in lowercase hex.
func (p Proof) String() string { return hex.EncodeToString(p[:]) }

// ParseProof parses 64 lowercase hex digits.
func ParseProof(s string) (Proof, error) {
	var p Proof
	if len(s) != 2*ProofSize {
		return p, fmt.Errorf("invite: proof of %d characters, want %d", len(s), 2*ProofSize)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return p, errors.New("invite: proof is not lowercase hex")
		}
	}
	hex.Decode(p[:], []byte(s))
	return p, nil
}
