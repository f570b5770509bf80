package netplay

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// ConfigIDLabel is the domain separation label of the table config id
// (protocol.md section 7).
const ConfigIDLabel = "okey/lan/table-id/v1"

// ErrAnnouncement is wrapped by every error about an announcement that
// cannot become a table config.
var ErrAnnouncement = errors.New("lan: announcement cannot start a table")

// Ruleset returns the canonical ruleset an announcement's preset and
// options name: the options, sorted by name, written "name" when the value
// is empty and "name=value" otherwise, joined with commas, applied to the
// preset by engine.NewRuleset.
func Ruleset(a lobby.Announcement) (engine.Ruleset, error) {
	var opts []string
	for _, k := range slices.Sorted(maps.Keys(a.Options)) {
		if v := a.Options[k]; v != "" {
			opts = append(opts, k+"="+v)
		} else {
			opts = append(opts, k)
		}
	}
	r, err := engine.NewRuleset(a.Preset, strings.Join(opts, ","))
	if err != nil {
		return engine.Ruleset{}, fmt.Errorf("%w: %v", ErrAnnouncement, err)
	}
	return r, nil
}

// CheckAnnouncement checks what a lobby announcement's encoding cannot:
// its preset and options name a ruleset (Ruleset) and its seats are a
// number of players that ruleset allows. The lobby ignores, with the reason
// logged, an announcement that fails it (lobby.Config.Check).
func CheckAnnouncement(a lobby.Announcement) error {
	r, err := Ruleset(a)
	if err != nil {
		return err
	}
	if err := r.CheckPlayers(a.Seats); err != nil {
		return fmt.Errorf("%w: %d seats: %v", ErrAnnouncement, a.Seats, err)
	}
	return nil
}

// SplitRuleset turns a ruleset text ("turkish-rummy:rounds=1") into the
// preset and options of a lobby announcement (Lobby.Create); Ruleset gives
// the same ruleset back.
func SplitRuleset(s string) (preset string, options map[string]string, err error) {
	r, err := engine.ParseRuleset(s)
	if err != nil {
		return "", nil, err
	}
	options = map[string]string{}
	if o := r.Options(); o != "" {
		for _, kv := range strings.Split(o, ",") {
			k, v, _ := strings.Cut(kv, "=")
			options[k] = v
		}
	}
	return r.Preset, options, nil
}

// ConfigID is the table config's 16-byte id for a lobby table: the first 16
// bytes of SHA-256(ConfigIDLabel || u16 len || table id || u16 len ||
// creator peer id).
func ConfigID(tableID, creator string) [16]byte {
	b := []byte(ConfigIDLabel)
	b = binary.BigEndian.AppendUint16(b, uint16(len(tableID)))
	b = append(b, tableID...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(creator)))
	b = append(b, creator...)
	h := sha256.Sum256(b)
	return [16]byte(h[:16])
}

// TableConfig derives the table protocol's config from a started table's
// announcement, deterministically, so that every member builds the same
// one: the id from ConfigID, the ruleset from Ruleset, and one seat per
// member in roster order, with the member's peer id, its display name cut
// to table.MaxNameLen bytes at a character boundary, the Ed25519 public
// key inside its peer id, and its nonce. The roster must be full.
func TableConfig(a lobby.Announcement) (table.Config, error) {
	if err := a.Validate(); err != nil {
		return table.Config{}, fmt.Errorf("%w: %v", ErrAnnouncement, err)
	}
	if len(a.Members) != a.Seats {
		return table.Config{}, fmt.Errorf("%w: %d of %d seats taken", ErrAnnouncement, len(a.Members), a.Seats)
	}
	r, err := Ruleset(a)
	if err != nil {
		return table.Config{}, err
	}
	cfg := table.Config{ID: ConfigID(a.Table, a.Creator), Ruleset: r.String()}
	for i, m := range a.Members {
		id, err := peer.Decode(m.ID)
		if err != nil {
			return table.Config{}, fmt.Errorf("%w: member %d: %v", ErrAnnouncement, i, err)
		}
		key, err := PublicKey(id)
		if err != nil {
			return table.Config{}, fmt.Errorf("%w: member %d: %v", ErrAnnouncement, i, err)
		}
		nonce, err := m.ParsedNonce()
		if err != nil {
			return table.Config{}, fmt.Errorf("%w: member %d: %v", ErrAnnouncement, i, err)
		}
		cfg.Seats = append(cfg.Seats, table.Seat{ID: table.PeerID(id.String()), Name: cutName(m.Name, table.MaxNameLen), Key: key, Nonce: nonce})
	}
	if err := cfg.Validate(); err != nil {
		return table.Config{}, fmt.Errorf("%w: %v", ErrAnnouncement, err)
	}
	return cfg, nil
}

// PublicKey extracts the Ed25519 public key from a peer id (Ed25519 peer
// ids embed their key).
func PublicKey(id peer.ID) (ed25519.PublicKey, error) {
	pub, err := id.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("lan: peer id %s holds no public key: %v", id, err)
	}
	if pub.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("lan: peer id %s has a %v key, want Ed25519", id, pub.Type())
	}
	raw, err := pub.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("lan: peer id %s: bad Ed25519 key", id)
	}
	return ed25519.PublicKey(raw), nil
}

// privateKey converts a libp2p Ed25519 identity into the key that signs
// table envelopes. It is never logged.
func privateKey(k crypto.PrivKey) (ed25519.PrivateKey, error) {
	if k.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("lan: identity is a %v key, want Ed25519", k.Type())
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil, errors.New("lan: identity key has the wrong size")
	}
	return ed25519.PrivateKey(raw), nil
}

// cutName shortens a display name to at most n bytes, cutting between
// characters.
func cutName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// Validator returns the gossipsub validator of a table: it rejects, without
// any protocol state, what every member's table.Peer would reject anyway: a
// message that does not decode as an envelope, is for another table, names a
// seat that does not exist, was published by a peer that is not a member,
// or whose signature does not verify with the seat's key. Rejected messages
// are neither delivered nor forwarded.
func Validator(cfg table.Config) func(from peer.ID, data []byte) error {
	hash := cfg.Hash()
	return func(from peer.ID, data []byte) error {
		env, err := table.DecodeEnvelope(data)
		if err != nil {
			return err
		}
		if env.Table != cfg.ID {
			return table.ErrWrongTable
		}
		if int(env.Seat) >= len(cfg.Seats) {
			return fmt.Errorf("lan: envelope for seat %d of %d", env.Seat, len(cfg.Seats))
		}
		// Any member may publish a seat's envelope: a peer that names a
		// cheater passes the cheater's messages on as evidence.
		member := false
		for _, m := range cfg.Seats {
			member = member || string(m.ID) == from.String()
		}
		if !member {
			return fmt.Errorf("lan: envelope published by %s, not a member of the table", from)
		}
		return env.Verify(cfg.Seats[env.Seat].Key, hash)
	}
}
