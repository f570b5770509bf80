package tournament

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"filippo.io/edwards25519"

	"github.com/okey-game/okey/engine"
)

// Kind is a record's kind (protocol.md 9.2).
type Kind uint8

// The record kinds.
const (
	KindAnnounce Kind = 1 // the creator's announcement: format, ruleset, players
	KindRegister Kind = 2 // a player's registration with its persistent identity
	KindRoster   Kind = 3 // the creator's closed list of registrations
	KindCommit   Kind = 4 // a player's commitment for a round's seat draw
	KindReveal   Kind = 5 // a player's opening for a round's seat draw
	KindClose    Kind = 6 // the creator's close of a draw attempt: who goes on, or that it stands
	KindResults  Kind = 7 // the creator's results of a round: each table's chain length and last record (version 2)
)

func (k Kind) String() string {
	switch k {
	case KindAnnounce:
		return "announcement"
	case KindRegister:
		return "registration"
	case KindRoster:
		return "roster"
	case KindCommit:
		return "draw commitment"
	case KindReveal:
		return "draw reveal"
	case KindClose:
		return "draw close"
	case KindResults:
		return "round results"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Encoding constants (protocol.md 9.2).
const (
	recordMagic = "OKT"
	// Version1 is the records' version of tournaments announced before
	// round results (kinds 1-6); okey verify still reads their folders.
	Version1 = 1
	// Version2 adds the round results (kind 7): a tournament's records all
	// have its announcement's version, and okey announces version 2.
	Version2 = 2
	// CurrentVersion is the version okey signs when a record's is zero.
	CurrentVersion = Version2
	// SignLabel starts every signed message: the signature is Ed25519 over
	// SignLabel || every byte of the record before the signature.
	SignLabel = "okey/tournament/v1"
	// MaxRecord is the largest record.
	MaxRecord = 8192
	maxName   = 32
	// MaxAttempts bounds a round's draw attempts: every close that does
	// not let the draw stand keeps fewer players than the attempt had.
	MaxAttempts = MaxPlayers + 1
	maxPeerID   = 128
)

// ErrRecord is wrapped by every record decoding error.
var ErrRecord = errors.New("tournament: bad record")

// Entry is one line of a roster: a player's key and the SHA-256 of its
// registration record (signature included).
type Entry struct {
	Key          [32]byte
	Registration [32]byte
}

// TableEnd is one table's line of a round's results: the length of the
// table's chain the creator holds and SHA-256 of its last record (zero
// when the chain is empty).
type TableEnd struct {
	Length int
	Last   [32]byte
}

// Record is a decoded tournament record. Which fields are used depends on
// Kind (protocol.md 9.2).
type Record struct {
	// Version is the record's version (Version1 or Version2; zero signs
	// CurrentVersion).
	Version    int
	Kind       Kind
	Tournament [32]byte // the tournament id (every kind but KindAnnounce)
	Signer     [32]byte // the Ed25519 key that signs it

	Nonce   [32]byte // announce: the creator's fresh random value
	Players int      // announce: the number of players, 3..64
	Name    string   // announce: the tournament's name; register: the player's name
	Format  string   // announce: canonical format text
	Ruleset string   // announce: canonical engine ruleset text
	PeerID  string   // register: the player's libp2p peer id

	Entries []Entry // roster, keys strictly ascending

	Round      int      // commit, reveal, close: 1..Rounds
	Attempt    int      // commit, reveal, close: the draw attempt, 1..MaxAttempts
	Commitment [32]byte // commit
	// Prior is, in a version 2 commitment for round r > 1, the hash
	// (SHA-256, signature included) of the creator's results of round r-1
	// that its signer paired from; zero in round 1.
	Prior [32]byte
	// Commits is, in a reveal, the hash of the attempt's commitments
	// (9.4); in a close, the same hash when the creator held every one of
	// them, else zero.
	Commits [32]byte
	Opening [32]byte // reveal
	// Kept are, in a close, the roster indices (ascending) of the players
	// the close keeps: all of the attempt's players when the draw stands.
	Kept []int
	// Seed is, in a close that lets the draw stand, the draw's seed; zero
	// otherwise.
	Seed [32]byte

	// Round (above) and Tables are a results record's: per table of the
	// round, in table order, the chain the creator fixes (9.5).
	Tables []TableEnd

	Sig [64]byte
	Raw []byte // the exact bytes
}

// body appends the record's bytes before the signature.
func (r *Record) body() []byte {
	v := r.Version
	if v == 0 {
		v = CurrentVersion
	}
	b := append([]byte(recordMagic), byte(v), byte(r.Kind))
	switch r.Kind {
	case KindAnnounce:
		b = append(b, r.Signer[:]...)
		b = append(b, r.Nonce[:]...)
		b = append(b, byte(r.Players))
		b = appendStr(b, r.Name)
		b = appendStr(b, r.Format)
		b = appendStr(b, r.Ruleset)
	case KindRegister:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = appendStr(b, r.Name)
		b = appendStr(b, r.PeerID)
	case KindRoster:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = append(b, byte(len(r.Entries)))
		for _, e := range r.Entries {
			b = append(b, e.Key[:]...)
			b = append(b, e.Registration[:]...)
		}
	case KindCommit:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = append(b, byte(r.Round), byte(r.Attempt))
		b = append(b, r.Commitment[:]...)
		if v >= Version2 {
			b = append(b, r.Prior[:]...)
		}
	case KindReveal:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = append(b, byte(r.Round), byte(r.Attempt))
		b = append(b, r.Commits[:]...)
		b = append(b, r.Opening[:]...)
	case KindClose:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = append(b, byte(r.Round), byte(r.Attempt), byte(len(r.Kept)))
		for _, i := range r.Kept {
			b = append(b, byte(i))
		}
		b = append(b, r.Commits[:]...)
		b = append(b, r.Seed[:]...)
	case KindResults:
		b = append(b, r.Tournament[:]...)
		b = append(b, r.Signer[:]...)
		b = append(b, byte(r.Round), byte(len(r.Tables)))
		for _, e := range r.Tables {
			b = binary.BigEndian.AppendUint32(b, uint32(e.Length))
			b = append(b, e.Last[:]...)
		}
	}
	return b
}

func appendStr(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// Sign fills Signer's signature and Raw with priv (whose public key must be
// Signer), after checking the record's fields as Decode would.
func (r *Record) Sign(priv ed25519.PrivateKey) error {
	pub, ok := priv.Public().(ed25519.PublicKey)
	if !ok || !bytes.Equal(pub, r.Signer[:]) {
		return fmt.Errorf("%w: the key does not match the signer", ErrRecord)
	}
	body := r.body()
	sig := ed25519.Sign(priv, append([]byte(SignLabel), body...))
	raw := append(body, sig...)
	if _, err := Decode(raw); err != nil {
		return err
	}
	copy(r.Sig[:], sig)
	r.Raw = raw
	return nil
}

// Verify checks the signature with the Signer key.
func (r *Record) Verify() bool {
	body := r.Raw[:len(r.Raw)-64]
	return ed25519.Verify(ed25519.PublicKey(r.Signer[:]), append([]byte(SignLabel), body...), r.Sig[:])
}

// Hash is SHA-256 of the record's exact bytes, signature included (how a
// roster cites a registration).
func (r *Record) Hash() [32]byte { return sha256.Sum256(r.Raw) }

// ID is the tournament id an announcement defines: SHA-256 of its bytes
// before the signature.
func (r *Record) ID() [32]byte { return sha256.Sum256(r.Raw[:len(r.Raw)-64]) }

type reader struct {
	b   []byte
	err bool
}

func (r *reader) take(n int) []byte {
	if r.err || n > len(r.b) {
		r.err = true
		return make([]byte, n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}
func (r *reader) u8() int { return int(r.take(1)[0]) }
func (r *reader) str() string {
	n := int(binary.BigEndian.Uint16(r.take(2)))
	return string(r.take(n))
}
func (r *reader) u32() int { return int(binary.BigEndian.Uint32(r.take(4))) }
func (r *reader) b32() (out [32]byte) {
	copy(out[:], r.take(32))
	return out
}

// Decode reads one record and checks everything but its signature
// (protocol.md 9.2's MUST-reject rules); Verify checks the signature.
func Decode(raw []byte) (*Record, error) {
	if len(raw) > MaxRecord {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", ErrRecord, len(raw), MaxRecord)
	}
	rd := reader{b: raw}
	if string(rd.take(3)) != recordMagic {
		return nil, fmt.Errorf("%w: not a tournament record", ErrRecord)
	}
	r := &Record{Version: rd.u8()}
	if r.Version != Version1 && r.Version != Version2 {
		return nil, fmt.Errorf("%w: version %d (this okey reads 1 and 2)", ErrRecord, r.Version)
	}
	r.Kind = Kind(rd.u8())
	if r.Kind == KindResults && r.Version < Version2 {
		return nil, fmt.Errorf("%w: results in a version %d record", ErrRecord, r.Version)
	}
	switch r.Kind {
	case KindAnnounce:
		r.Signer, r.Nonce, r.Players = rd.b32(), rd.b32(), rd.u8()
		r.Name, r.Format, r.Ruleset = rd.str(), rd.str(), rd.str()
	case KindRegister:
		r.Tournament, r.Signer = rd.b32(), rd.b32()
		r.Name, r.PeerID = rd.str(), rd.str()
	case KindRoster:
		r.Tournament, r.Signer = rd.b32(), rd.b32()
		n := rd.u8()
		for i := 0; i < n && !rd.err; i++ {
			r.Entries = append(r.Entries, Entry{Key: rd.b32(), Registration: rd.b32()})
		}
	case KindCommit:
		r.Tournament, r.Signer, r.Round, r.Attempt, r.Commitment = rd.b32(), rd.b32(), rd.u8(), rd.u8(), rd.b32()
		if r.Version >= Version2 {
			r.Prior = rd.b32()
		}
	case KindReveal:
		r.Tournament, r.Signer, r.Round, r.Attempt = rd.b32(), rd.b32(), rd.u8(), rd.u8()
		r.Commits, r.Opening = rd.b32(), rd.b32()
	case KindClose:
		r.Tournament, r.Signer, r.Round, r.Attempt = rd.b32(), rd.b32(), rd.u8(), rd.u8()
		m := rd.u8()
		for i := 0; i < m && !rd.err; i++ {
			r.Kept = append(r.Kept, rd.u8())
		}
		r.Commits, r.Seed = rd.b32(), rd.b32()
	case KindResults:
		r.Tournament, r.Signer, r.Round = rd.b32(), rd.b32(), rd.u8()
		t := rd.u8()
		for i := 0; i < t && !rd.err; i++ {
			r.Tables = append(r.Tables, TableEnd{Length: rd.u32(), Last: rd.b32()})
		}
	default:
		return nil, fmt.Errorf("%w: unknown kind %d", ErrRecord, r.Kind)
	}
	copy(r.Sig[:], rd.take(64))
	if rd.err || len(rd.b) != 0 {
		return nil, fmt.Errorf("%w: truncated or trailing bytes", ErrRecord)
	}
	if err := CheckKey(r.Signer); err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	r.Raw = append([]byte(nil), raw...)
	return r, nil
}

func (r *Record) check() error {
	switch r.Kind {
	case KindAnnounce:
		if r.Nonce == ([32]byte{}) {
			return fmt.Errorf("%w: announcement without a nonce", ErrRecord)
		}
		if err := CheckName(r.Name); err != nil {
			return err
		}
		_, err := CheckSetup(r.Format, r.Ruleset, r.Players)
		return err
	case KindRegister:
		if err := CheckName(r.Name); err != nil {
			return err
		}
		if r.PeerID == "" || len(r.PeerID) > maxPeerID || !utf8.ValidString(r.PeerID) {
			return fmt.Errorf("%w: peer id must be 1..%d bytes", ErrRecord, maxPeerID)
		}
	case KindRoster:
		if len(r.Entries) < MinPlayers {
			return fmt.Errorf("%w: a roster of %d", ErrRecord, len(r.Entries))
		}
		for i, e := range r.Entries {
			if i > 0 && bytes.Compare(r.Entries[i-1].Key[:], e.Key[:]) >= 0 {
				return fmt.Errorf("%w: roster keys not strictly ascending", ErrRecord)
			}
			if err := CheckKey(e.Key); err != nil {
				return err
			}
		}
	case KindCommit, KindReveal, KindClose:
		if r.Round < MinRounds || r.Round > MaxRounds {
			return fmt.Errorf("%w: round %d", ErrRecord, r.Round)
		}
		if r.Kind == KindCommit && r.Version >= Version2 && (r.Round == 1) != (r.Prior == [32]byte{}) {
			return fmt.Errorf("%w: a commitment cites round results exactly when its round is not the first", ErrRecord)
		}
		if r.Attempt < 1 || r.Attempt > MaxAttempts {
			return fmt.Errorf("%w: attempt %d", ErrRecord, r.Attempt)
		}
		for i, k := range r.Kept {
			if k >= MaxPlayers || (i > 0 && k <= r.Kept[i-1]) {
				return fmt.Errorf("%w: a close's players not strictly ascending roster indices below %d", ErrRecord, MaxPlayers)
			}
		}
	case KindResults:
		if r.Round < MinRounds || r.Round > MaxRounds {
			return fmt.Errorf("%w: round %d", ErrRecord, r.Round)
		}
		if len(r.Tables) < 1 || len(r.Tables) > MaxTables {
			return fmt.Errorf("%w: results for %d tables (1..%d)", ErrRecord, len(r.Tables), MaxTables)
		}
		for _, e := range r.Tables {
			if (e.Length == 0) != (e.Last == [32]byte{}) {
				return fmt.Errorf("%w: a results line's last hash is zero exactly when its chain is empty", ErrRecord)
			}
		}
	}
	return nil
}

// CheckSetup checks an announcement's format, ruleset and player count
// together: both texts canonical, and every table size the count needs
// allowed by the ruleset without partnerships (a tournament ranks
// players, not teams).
func CheckSetup(format, ruleset string, players int) (Format, error) {
	f, err := ParseCanonicalFormat(format)
	if err != nil {
		return f, err
	}
	rs, err := engine.ParseRuleset(ruleset)
	if err != nil {
		return f, fmt.Errorf("%w: %w", ErrRecord, err)
	}
	if rs.String() != ruleset {
		return f, fmt.Errorf("%w: ruleset %q is not canonical (%q)", ErrRecord, ruleset, rs.String())
	}
	sizes, err := TableSizes(players)
	if err != nil {
		return f, err
	}
	for _, k := range sizes {
		if err := rs.CheckPlayers(k); err != nil {
			return f, fmt.Errorf("%w: %w", ErrRecord, err)
		}
		if rs.Teams(k) {
			return f, fmt.Errorf("%w: a tournament ranks players; %s plays in teams at %d seats", ErrRecord, ruleset, k)
		}
	}
	return f, nil
}

// CheckName checks a name: 1..32 bytes of UTF-8 without control
// characters (the table config's rule, protocol.md 5.1).
func CheckName(name string) error {
	if name == "" || len(name) > maxName || !utf8.ValidString(name) {
		return fmt.Errorf("%w: a name must be 1..%d bytes of UTF-8", ErrRecord, maxName)
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return fmt.Errorf("%w: a name has a control character", ErrRecord)
		}
	}
	return nil
}

// CheckKey checks an Ed25519 public key as the table config does
// (protocol.md 5.1): a canonical point not of small order.
func CheckKey(k [32]byte) error {
	p, err := new(edwards25519.Point).SetBytes(k[:])
	if err != nil || !bytes.Equal(p.Bytes(), k[:]) {
		return fmt.Errorf("%w: a key is not a canonical point", ErrRecord)
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return fmt.Errorf("%w: a key of small order", ErrRecord)
	}
	return nil
}

// FileMagic starts a records file (protocol.md 9.6); frames of
// u32 length and record bytes follow.
const FileMagic = "okey-tournament/v1\n"

// EncodeFile writes records as a records file.
func EncodeFile(records [][]byte) []byte {
	b := []byte(FileMagic)
	for _, r := range records {
		b = binary.BigEndian.AppendUint32(b, uint32(len(r)))
		b = append(b, r...)
	}
	return b
}

// DecodeFile splits a records file into its records (each still to be
// decoded): the magic, then whole frames, none over MaxRecord.
func DecodeFile(b []byte) ([][]byte, error) {
	if !bytes.HasPrefix(b, []byte(FileMagic)) {
		return nil, fmt.Errorf("%w: not a tournament records file", ErrRecord)
	}
	b = b[len(FileMagic):]
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, fmt.Errorf("%w: records file cut short", ErrRecord)
		}
		n := binary.BigEndian.Uint32(b)
		if n > MaxRecord {
			return nil, fmt.Errorf("%w: a record of %d bytes", ErrRecord, n)
		}
		if uint32(len(b)-4) < n {
			return nil, fmt.Errorf("%w: records file cut short", ErrRecord)
		}
		out = append(out, b[4:4+n])
		b = b[4+n:]
	}
	return out, nil
}
