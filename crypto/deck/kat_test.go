package deck

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/okey-game/okey/crypto/commit"
)

var update = flag.Bool("update", false, "rewrite the known-answer files in testdata")

// kat is the known-answer file: every value is hex unless noted. The hand
// is 2 players, session "okey-kat-session", hand 1, with every random byte
// from newFixedRand("kat") (SHA-512(label || uint64_be(counter)) blocks).
type kat struct {
	Session     string            `json:"session"`
	Hand        uint32            `json:"hand"`
	TilePoints  map[string]string `json:"tile_points"` // tile index -> M_j
	Seeds       []string          `json:"seeds"`
	LockKey0    string            `json:"lock_key_0"`
	LockMsg0    string            `json:"lock_message_0_sha256"`
	LockElem0   string            `json:"lock_message_0_element_0"`
	RekeyEntry0 string            `json:"rekey_message_0_entry_0"` // B || E || R1 || R2 || s
	RekeyMsg1   string            `json:"rekey_message_1_sha256"`
	Share0Pos0  string            `json:"share_seat_0_position_0"`
	Share1Pos0  string            `json:"share_seat_1_position_0"`
	OpenPos0    int               `json:"open_position_0_tile"` // decimal
	AuditTiles  string            `json:"audit_tiles_sha256"`   // of the 106 tile bytes
	DieLabel    string            `json:"die_label"`
	DieOpenings []string          `json:"die_openings"`
	DieCommits  []string          `json:"die_commitments"`
	DieValue    string            `json:"die_value"`
	DieRoll     int               `json:"die_roll"`
}

func sum(b []byte) string { d := sha256.Sum256(b); return hex.EncodeToString(d[:]) }

func makeKAT(t *testing.T) *kat {
	session := []byte("okey-kat-session")
	const handNo = 1
	rnd := newFixedRand("kat")
	k := &kat{Session: string(session), Hand: handNo, TilePoints: map[string]string{}}
	h, err := NewHand(session, handNo, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []int{0, 1, 52, 105} {
		k.TilePoints[itoa(j)] = hex.EncodeToString(h.TilePoint(j).Bytes())
	}
	secrets := make([]*Secret, 2)
	for i := range secrets {
		if secrets[i], err = NewSecret(session, handNo, 2, i, rnd); err != nil {
			t.Fatal(err)
		}
		k.Seeds = append(k.Seeds, hex.EncodeToString(secrets[i].Seed()))
	}
	var locks, rekeys [][]byte
	for i := 0; i < 2; i++ {
		msg, _, err := h.Lock(secrets[i])
		if err != nil {
			t.Fatal(err)
		}
		locks = append(locks, msg)
		if h, err = h.ApplyLock(i, msg); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ {
		msg, _, err := h.Rekey(secrets[i], rnd)
		if err != nil {
			t.Fatal(err)
		}
		rekeys = append(rekeys, msg)
		if h, err = h.ApplyRekey(i, msg, rnd); err != nil {
			t.Fatal(err)
		}
	}
	k.LockKey0 = hex.EncodeToString(locks[0][:32])
	k.LockMsg0 = sum(locks[0])
	k.LockElem0 = hex.EncodeToString(locks[0][32:64])
	k.RekeyEntry0 = hex.EncodeToString(rekeys[0][:RekeyEntrySize])
	k.RekeyMsg1 = sum(rekeys[1])
	s0, _ := h.Share(secrets[0], 0)
	s1, _ := h.Share(secrets[1], 0)
	k.Share0Pos0, k.Share1Pos0 = hex.EncodeToString(s0), hex.EncodeToString(s1)
	if k.OpenPos0, err = h.Open(0, [][]byte{s0, s1}); err != nil {
		t.Fatal(err)
	}
	tiles, err := h.Audit([][]byte{secrets[0].Seed(), secrets[1].Seed()}, rnd)
	if err != nil {
		t.Fatal(err)
	}
	tb := make([]byte, len(tiles))
	for i, x := range tiles {
		tb[i] = byte(x)
	}
	k.AuditTiles = sum(tb)
	k.DieLabel = "okey/die"
	var openings [][]byte
	for seat := 0; seat < 2; seat++ {
		c, o, err := commit.Commit(k.DieLabel, session, 0, seat, rnd)
		if err != nil {
			t.Fatal(err)
		}
		k.DieCommits = append(k.DieCommits, hex.EncodeToString(c))
		k.DieOpenings = append(k.DieOpenings, hex.EncodeToString(o))
		openings = append(openings, o)
	}
	v, err := commit.Combine(k.DieLabel, session, 0, openings)
	if err != nil {
		t.Fatal(err)
	}
	k.DieValue = hex.EncodeToString(v[:])
	k.DieRoll = commit.Die(v)
	return k
}

func itoa(j int) string {
	return string(rune('0'+j/100)) + string(rune('0'+j/10%10)) + string(rune('0'+j%10))
}

// TestKnownAnswers pins the encodings and hashes: any change to a label, an
// encoding, a derivation or the order of hash inputs breaks it. Regenerate
// deliberately with go test -run TestKnownAnswers -update.
func TestKnownAnswers(t *testing.T) {
	got, err := json.MarshalIndent(makeKAT(t), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "kat.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("known answers changed:\n%s\nwant:\n%s", got, want)
	}
}

// TestKnownAnswersIndependent checks the pinned values against the spec's
// formulas directly, without the Hand machinery, for the parts that are
// cheap to recompute: tile points, the combined die value and roll.
func TestKnownAnswersIndependent(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "kat.json"))
	if err != nil {
		t.Fatal(err)
	}
	var k kat
	if err := json.Unmarshal(raw, &k); err != nil {
		t.Fatal(err)
	}
	for js, want := range k.TilePoints {
		j := int(js[0]-'0')*100 + int(js[1]-'0')*10 + int(js[2]-'0')
		// M_j = Element(SHA-512(LP(label) || LP(session) || LP(u32 hand) || LP(u32 j))).
		var in []byte
		for _, f := range [][]byte{[]byte(LabelTile), []byte(k.Session),
			binary.BigEndian.AppendUint32(nil, k.Hand), binary.BigEndian.AppendUint32(nil, uint32(j))} {
			in = binary.BigEndian.AppendUint32(in, uint32(len(f)))
			in = append(in, f...)
		}
		d := sha512.Sum512(in)
		e, err := ristretto255.NewIdentityElement().SetUniformBytes(d[:])
		if err != nil || hex.EncodeToString(e.Bytes()) != want {
			t.Errorf("tile %d: %v", j, err)
		}
	}
	// The lock proof's context and nonce key (protocol.md 4, "Lock and
	// shuffle"): H(LabelLockProof, session, u32 hand, u32 n, u32 seat) and
	// H(LabelLockProofKey, session, u32 hand, u32 seat, seed).
	lpHash := func(fields ...[]byte) []byte {
		var in []byte
		for _, f := range fields {
			in = binary.BigEndian.AppendUint32(in, uint32(len(f)))
			in = append(in, f...)
		}
		d := sha512.Sum512(in)
		return d[:]
	}
	u32 := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	for seat := range k.Seeds {
		seed, _ := hex.DecodeString(k.Seeds[seat])
		want := lpHash([]byte(LabelLockProof), []byte(k.Session), u32(k.Hand), u32(2), u32(uint32(seat)))
		if !bytes.Equal(LockContext([]byte(k.Session), k.Hand, 2, seat), want) {
			t.Fatalf("seat %d: lock proof context differs from the spec", seat)
		}
		s, err := SecretFromSeed([]byte(k.Session), k.Hand, 2, seat, seed)
		if err != nil {
			t.Fatal(err)
		}
		want = lpHash([]byte(LabelLockProofKey), []byte(k.Session), u32(k.Hand), u32(uint32(seat)), seed)
		if !bytes.Equal(s.lockProofKey(), want) {
			t.Fatalf("seat %d: lock proof nonce key differs from the spec", seat)
		}
	}
	var openings [][]byte
	for seat, o := range k.DieOpenings {
		ob, _ := hex.DecodeString(o)
		cb, _ := hex.DecodeString(k.DieCommits[seat])
		if err := commit.Check(k.DieLabel, []byte(k.Session), 0, seat, cb, ob); err != nil {
			t.Fatal(err)
		}
		openings = append(openings, ob)
	}
	v, _ := commit.Combine(k.DieLabel, []byte(k.Session), 0, openings)
	if hex.EncodeToString(v[:]) != k.DieValue || commit.Die(v) != k.DieRoll {
		t.Fatal("die value or roll differs")
	}
}
