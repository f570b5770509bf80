package table

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// Kind is the type of an envelope's body.
type Kind uint8

// The kinds of envelope body.
const (
	KindHello   Kind = iota + 1 // a seat joins the session: config hash and a fresh nonce
	KindShuffle                 // lock and shuffle the deck, commit to the hand's randomness
	KindRekey                   // re-key every tile with proofs, open the randomness
	KindOpen                    // shares that open pending slots to everyone (indicator, order draw)
	KindDeal                    // shares that open every other seat's dealt tiles to their holders
	KindMove                    // a player's move: draw, take, discard, show, win, exhaust
	KindShare                   // a share that opens a drawn tile to its drawer
	KindAudit                   // after a hand: the seat's secret seed, for the audit
	KindJunk                    // in place of a due message: a privately opened tile is junk (the claimer's share)
)

var kindNames = [...]string{"", "hello", "shuffle", "rekey", "open", "deal", "move", "share", "audit", "junk"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Envelope limits and layout. Version is the table protocol this okey
// speaks (protocol.md 5.2): 2 answers a round's parallel steps on one link
// (5.3); 1 is every step in turn, what okey wrote before, still verified.
const (
	Version      = 2
	Version1     = 1
	MaxEnvelope  = 256 << 10
	headerSize   = 4 + 16 + 4 + 4 + 1 + 1 + 32 + 32 + 4
	signatureLen = ed25519.SignatureSize
)

var magic = [3]byte{'O', 'K', 'Y'}

// sigContext prefixes the signed bytes (domain separation); the config hash
// follows it, so that a message signed for one match never verifies in
// another (protocol.md 5.2).
const sigContext = "okey/envelope/v1"

// Envelope is one signed protocol message. Raw holds the exact bytes sent;
// the transcript stores them and signatures are checked over them.
type Envelope struct {
	// Version is the table protocol's version (the magic's fourth byte):
	// Version or Version1; zero seals as Version.
	Version uint8
	Table   [16]byte
	Hand    uint32 // the hand the message belongs to (0 before the first hand)
	Step    uint32 // position in the match's message chain, from 0
	Seat    uint8
	Kind    Kind
	Prev    [32]byte // hash of the previous envelope's Raw (zero for step 0)
	State   [32]byte // the sender's state hash before this step
	Body    []byte
	Sig     [signatureLen]byte
	Raw     []byte

	// verified remembers the key a signature check succeeded with, for the
	// same Raw (its address and length): a peer checks a message's signature
	// once on receipt, not again in Check and Apply. Raw must not be changed
	// in place after decoding.
	verified  ed25519.PublicKey
	verifiedC [32]byte
	verifiedR *byte
	verifiedN int
}

// Errors a receiver branches on.
var (
	ErrMalformed = errors.New("table: malformed envelope")
	ErrSignature = errors.New("table: signature does not verify (corrupt, forged, or from another match)")
)

// Hash returns the envelope's id: SHA-256 of its raw bytes.
func (e *Envelope) Hash() [32]byte { return sha256.Sum256(e.Raw) }

// Seal encodes the envelope, signs it with key for the match whose config
// hash is config, and sets Raw and Sig.
func (e *Envelope) Seal(key ed25519.PrivateKey, config [32]byte) error {
	if len(e.Body) > MaxEnvelope-headerSize-signatureLen {
		return fmt.Errorf("%w: body of %d bytes", ErrMalformed, len(e.Body))
	}
	if e.Version == 0 {
		e.Version = Version
	}
	if e.Version != Version && e.Version != Version1 {
		return fmt.Errorf("%w: version %d", ErrMalformed, e.Version)
	}
	b := make([]byte, 0, headerSize+len(e.Body)+signatureLen)
	b = append(b, magic[:]...)
	b = append(b, e.Version)
	b = append(b, e.Table[:]...)
	b = binary.BigEndian.AppendUint32(b, e.Hand)
	b = binary.BigEndian.AppendUint32(b, e.Step)
	b = append(b, e.Seat, byte(e.Kind))
	b = append(b, e.Prev[:]...)
	b = append(b, e.State[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.Body)))
	b = append(b, e.Body...)
	sig := ed25519.Sign(key, signedBytes(config, b))
	copy(e.Sig[:], sig)
	e.Raw = append(b, sig...)
	e.remember(key.Public().(ed25519.PublicKey), config)
	return nil
}

// signedBytes is what a seat signs: sigContext || config hash || the
// envelope's bytes before the signature.
func signedBytes(config [32]byte, unsigned []byte) []byte {
	b := make([]byte, 0, len(sigContext)+len(config)+len(unsigned))
	b = append(append(append(b, sigContext...), config[:]...), unsigned...)
	return b
}

// DecodeEnvelope parses raw bytes. It checks the layout only: the signature
// needs the sender's key (Verify).
func DecodeEnvelope(raw []byte) (*Envelope, error) {
	if len(raw) > MaxEnvelope {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrMalformed, len(raw), MaxEnvelope)
	}
	if len(raw) < headerSize+signatureLen {
		return nil, fmt.Errorf("%w: %d bytes", ErrMalformed, len(raw))
	}
	if [3]byte(raw[:3]) != magic || raw[3] != Version && raw[3] != Version1 {
		return nil, fmt.Errorf("%w: bad magic or version", ErrMalformed)
	}
	r := reader{b: raw[4:]}
	e := &Envelope{Version: raw[3]}
	copy(e.Table[:], r.take(16))
	e.Hand = r.u32()
	e.Step = r.u32()
	e.Seat = r.u8()
	e.Kind = Kind(r.u8())
	e.Prev = r.bytes32()
	e.State = r.bytes32()
	n := r.u32()
	if r.err != nil || uint64(n) != uint64(len(r.b)-signatureLen) {
		return nil, fmt.Errorf("%w: body length %d does not fit", ErrMalformed, n)
	}
	e.Body = append([]byte(nil), r.take(int(n))...)
	copy(e.Sig[:], r.take(signatureLen))
	if e.Kind < KindHello || e.Kind > KindJunk {
		return nil, fmt.Errorf("%w: unknown kind %d", ErrMalformed, e.Kind)
	}
	e.Raw = append([]byte(nil), raw...)
	return e, nil
}

// Verify checks the signature against the sender's key for the match whose
// config hash is config. A failure names no one: anybody can send bytes
// that do not verify.
func (e *Envelope) Verify(key ed25519.PublicKey, config [32]byte) error {
	if len(e.Raw) < signatureLen {
		return ErrSignature
	}
	if e.verified != nil && e.verified.Equal(key) && e.verifiedC == config && e.verifiedR == &e.Raw[0] && e.verifiedN == len(e.Raw) {
		return nil
	}
	if len(key) != ed25519.PublicKeySize || !sigKey(key).Verify(signedBytes(config, e.Raw[:len(e.Raw)-signatureLen]), e.Sig[:]) {
		return ErrSignature
	}
	e.remember(key, config)
	return nil
}

func (e *Envelope) remember(key ed25519.PublicKey, config [32]byte) {
	e.verified = append(ed25519.PublicKey(nil), key...)
	e.verifiedC = config
	e.verifiedR, e.verifiedN = &e.Raw[0], len(e.Raw)
}
