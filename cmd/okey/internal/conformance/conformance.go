// Package conformance runs okey's conformance suite (protocol.md 8): signed
// transcripts with their expected verdicts, and test vectors for the parts a
// verifier computes (tile points, commit-reveal values, DLEQ proofs, Ed25519
// edge cases, state-hash preimages). `okey verify --conformance DIR` runs it
// against okey itself; another implementation runs the same files against
// its own verifier. The files are made by `make conformance` (the generator
// in ./gen, from fixed seeds).
//
// The package lives under cmd/okey, not in the module's internal/ (where it
// was until issue 21): it imports the whole protocol and the bots, and
// internal/ holds only leaves below the protocol.
package conformance

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/crypto/dleq"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// Version is the suite format's version (cases.json "version").
const Version = 1

// Suite is cases.json: the transcript cases and the vector files.
type Suite struct {
	Version int    `json:"version"`
	Cases   []Case `json:"cases"`
	// Vectors names the vector files, each checked by its own rule
	// (protocol.md 8).
	Vectors []string `json:"vectors"`
}

// Case is one transcript and the verdict every conforming verifier gives.
type Case struct {
	Name string `json:"name"`
	File string `json:"file"` // relative to the suite's directory
	// Status is the exit status of protocol.md 6: 0 honest, 1 a seat
	// named, 2 invalid, 3 unfinished.
	Status int `json:"status"`
	// Seat and Rule: the seat named and the rule (status 1), else null/"".
	Seat *int       `json:"seat"`
	Rule table.Rule `json:"rule"`
	// Scores: the final scores (status 0), else null.
	Scores []int `json:"scores"`
	// Next: the seat that was to send the next message (status 3 when the
	// chain stops where a seat had to speak), else null.
	Next *int `json:"next"`
	// Note says what the case shows.
	Note string `json:"note"`
}

// Load reads DIR/cases.json.
func Load(dir string) (*Suite, error) {
	var s Suite
	if err := decodeStrict(filepath.Join(dir, "cases.json"), &s); err != nil {
		return nil, err
	}
	if s.Version != Version {
		return nil, fmt.Errorf("conformance: suite version %d, this okey reads %d", s.Version, Version)
	}
	return &s, nil
}

// decodeStrict reads a JSON file into v, refusing unknown fields.
func decodeStrict(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("conformance: %s: %w", filepath.Base(path), err)
	}
	return nil
}

// Got is what okey's verifier says of a case's file.
func Got(dir string, c Case) Case {
	got := Case{Name: c.Name, File: c.File}
	b, err := os.ReadFile(filepath.Join(dir, c.File))
	if err != nil {
		got.Status = int(table.StatusInvalid)
		got.Note = err.Error()
		return got
	}
	t, err := table.ReadTranscript(bytes.NewReader(b))
	if err != nil {
		got.Status = int(table.StatusInvalid)
		got.Note = err.Error()
		return got
	}
	return FromReport(c.Name, c.File, table.Verify(t))
}

// FromReport turns a verify report into a case.
func FromReport(name, file string, r *table.Report) Case {
	c := Case{Name: name, File: file, Status: int(r.Status())}
	switch r.Status() {
	case table.StatusCheating:
		seat := r.Violation.Seat
		c.Seat, c.Rule = &seat, r.Violation.Rule
	case table.StatusHonest:
		if n := len(r.Hands); n > 0 {
			c.Scores = r.Hands[n-1].Scores
		}
	case table.StatusUnfinished:
		if r.Next != nil {
			seat := r.Next.Seat
			c.Next = &seat
		}
	}
	return c
}

// Agrees reports whether got gives the expected verdict.
func Agrees(want, got Case) bool {
	eqInt := func(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return want.Status == got.Status && eqInt(want.Seat, got.Seat) && want.Rule == got.Rule &&
		slices.Equal(want.Scores, got.Scores) && eqInt(want.Next, got.Next)
}

// Describe is a verdict in one short line.
func Describe(c Case) string {
	s := fmt.Sprintf("status %d", c.Status)
	if c.Seat != nil {
		s += fmt.Sprintf(", seat %d %s", *c.Seat, c.Rule)
	}
	if c.Scores != nil {
		s += fmt.Sprintf(", scores %v", c.Scores)
	}
	if c.Next != nil {
		s += fmt.Sprintf(", next seat %d", *c.Next)
	}
	return s
}

// Run checks every case and vector of the suite in dir, printing one line
// per case to w ("ok NAME" or "FAIL NAME: want ..., got ..."). It returns
// the number of failures.
func Run(dir string, w io.Writer) (int, error) {
	s, err := Load(dir)
	if err != nil {
		return 0, err
	}
	failed := runCases(dir, "", s.Cases, w)
	// The frozen suites of earlier table protocol versions (protocol.md 8):
	// transcripts an earlier okey wrote, which verify still checks.
	for _, v := range FrozenSuites {
		sub := filepath.Join(dir, v)
		if _, err := os.Stat(filepath.Join(sub, "cases.json")); errors.Is(err, os.ErrNotExist) {
			continue
		}
		fs, err := Load(sub)
		if err != nil {
			return failed, err
		}
		failed += runCases(sub, v+"/", fs.Cases, w)
	}
	for _, v := range s.Vectors {
		n, err := checkVectors(filepath.Join(dir, v))
		if err != nil {
			failed++
			fmt.Fprintf(w, "FAIL  %s: %v\n", v, err)
			continue
		}
		fmt.Fprintf(w, "ok    %s: %d vectors\n", v, n)
	}
	tf, err := RunTournaments(dir, w)
	return failed + tf, err
}

// FrozenSuites are the subdirectories of a suite that hold the cases of an
// earlier table protocol version, as an earlier okey wrote them: each a
// suite of its own (cases.json and its transcripts, no vectors), never
// regenerated (protocol.md 8).
var FrozenSuites = []string{"v1"}

// runCases checks cases against okey's verifier, printing one line each
// (names prefixed); it returns how many failed.
func runCases(dir, prefix string, cases []Case, w io.Writer) int {
	failed := 0
	for _, c := range cases {
		got := Got(dir, c)
		if Agrees(c, got) {
			fmt.Fprintf(w, "ok    %s%s: %s\n", prefix, c.Name, Describe(c))
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL  %s%s: want %s, got %s %s\n", prefix, c.Name, Describe(c), Describe(got), got.Note)
	}
	return failed
}

// Vector files. Every byte string is lowercase hex.

// TilePoints is M_j for one session and hand (protocol.md 4, Tile points).
type TilePoints struct {
	Session string   `json:"session"`
	Hand    uint32   `json:"hand"`
	Points  []string `json:"points"` // j = 0..105
}

// CommitVector is a commitment, and the combined value of a round with its
// die and seat choice (protocol.md 4, Commit-reveal randomness).
type CommitVector struct {
	Label      string   `json:"label"`
	Session    string   `json:"session"`
	Round      uint32   `json:"round"`
	Openings   []string `json:"openings"`    // r_i by seat
	Commitment []string `json:"commitments"` // C_i by seat
	Value      string   `json:"value"`       // V
	Die        int      `json:"die"`         // Uniform(V, 6) + 1
	Seats      int      `json:"seats"`       // n for the choice below
	Choice     int      `json:"choice"`      // Uniform(V, n)
}

// DLEQVector is a re-key proof with its statement and context; Valid says
// whether a verifier accepts it (protocol.md 4, DLEQ proofs).
type DLEQVector struct {
	Comment string `json:"comment"`
	Context string `json:"context"`
	G1      string `json:"g1"`
	H1      string `json:"h1"`
	G2      string `json:"g2"`
	H2      string `json:"h2"`
	Proof   string `json:"proof"`
	Valid   bool   `json:"valid"`
}

// Ed25519Vector is an identity key and a signature; KeyOK says whether a
// config may hold the key (protocol.md 5.1), Valid whether the signature
// verifies under 5.2's rule (only meaningful when KeyOK).
type Ed25519Vector struct {
	Comment string `json:"comment"`
	Key     string `json:"key"`
	Message string `json:"message"`
	Sig     string `json:"sig"`
	KeyOK   bool   `json:"key_ok"`
	Valid   bool   `json:"valid"`
}

// StateVector is the state-hash preimage (protocol.md 5.6) before a named
// step of a transcript of the suite, and its SHA-256, which is also the
// state field of that step's envelope.
type StateVector struct {
	Comment    string `json:"comment"`
	Transcript string `json:"transcript"`
	Step       int    `json:"step"`
	Preimage   string `json:"preimage"`
	Hash       string `json:"hash"`
}

// RulesetVector is a ruleset text in a config of Seats seats (protocol.md
// 3.1, 3.6, 5.1). Valid says whether the config is accepted; Canonical is
// the canonical text of the same rules when the text passes 3.1's first
// level (no unknown, repeated or contradictory option, no bad value), ""
// when it is refused outright.
type RulesetVector struct {
	Comment   string `json:"comment"`
	Text      string `json:"text"`
	Seats     int    `json:"seats"`
	Valid     bool   `json:"valid"`
	Canonical string `json:"canonical"`
}

// NameVector is a seat's display name in a config (protocol.md 5.1), as
// hex bytes; Valid says whether a config may hold it.
type NameVector struct {
	Comment string `json:"comment"`
	Name    string `json:"name"`
	Valid   bool   `json:"valid"`
}

// VectorFile is one vector file: exactly one of the lists is set.
type VectorFile struct {
	Kind       string          `json:"kind"` // tile-points, commit, dleq, ed25519, state-hash, ruleset, name
	TilePoints []TilePoints    `json:"tile_points,omitempty"`
	Commit     []CommitVector  `json:"commit,omitempty"`
	DLEQ       []DLEQVector    `json:"dleq,omitempty"`
	Ed25519    []Ed25519Vector `json:"ed25519,omitempty"`
	State      []StateVector   `json:"state,omitempty"`
	Ruleset    []RulesetVector `json:"ruleset,omitempty"`
	Name       []NameVector    `json:"name,omitempty"`
}

// CheckRuleset is what okey says of a ruleset text in a config of seats
// seats: whether the config is accepted (table.Config.Validate, the reader),
// and the canonical text the engine writes for it ("" when refused
// outright).
func CheckRuleset(text string, seats int) (valid bool, canonical string) {
	if r, err := engine.ParseRuleset(text); err == nil {
		canonical = r.String()
	}
	cfg, _, err := table.LocalConfig(text, seats, 1)
	return err == nil && cfg.Validate() == nil, canonical
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}

func checkVectors(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var f VectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		return 0, err
	}
	switch f.Kind {
	case "tile-points":
		n := 0
		for _, v := range f.TilePoints {
			for j, want := range v.Points {
				p, err := deck.TilePoint(unhex(v.Session), v.Hand, j)
				if err != nil || hex.EncodeToString(p.Bytes()) != want {
					return n, fmt.Errorf("tile point %d of hand %d differs", j, v.Hand)
				}
				n++
			}
		}
		return n, nil
	case "commit":
		for i, v := range f.Commit {
			var ops [][]byte
			for seat, o := range v.Openings {
				op := unhex(o)
				if err := commit.Check(v.Label, unhex(v.Session), v.Round, seat, unhex(v.Commitment[seat]), op); err != nil {
					return i, fmt.Errorf("vector %d seat %d: %v", i, seat, err)
				}
				ops = append(ops, op)
			}
			val, err := commit.Combine(v.Label, unhex(v.Session), v.Round, ops)
			if err != nil || hex.EncodeToString(val[:]) != v.Value {
				return i, fmt.Errorf("vector %d: combined value differs", i)
			}
			ch, err := commit.Choice(val, v.Seats)
			if commit.Die(val) != v.Die || err != nil || ch != v.Choice {
				return i, fmt.Errorf("vector %d: die or choice differs", i)
			}
		}
		return len(f.Commit), nil
	case "dleq":
		for i, v := range f.DLEQ {
			var pts [4]*group.Point
			for k, h := range []string{v.G1, v.H1, v.G2, v.H2} {
				p, err := group.DecodePoint(unhex(h))
				if err != nil {
					return i, fmt.Errorf("vector %d: statement point %d: %v", i, k, err)
				}
				pts[k] = p
			}
			ok := false
			if pr, err := dleq.DecodeProof(unhex(v.Proof)); err == nil {
				st := &dleq.Statement{G1: pts[0], H1: pts[1], G2: pts[2], H2: pts[3]}
				ok = dleq.Verify(unhex(v.Context), st, pr) == nil
			}
			if ok != v.Valid {
				return i, fmt.Errorf("vector %d (%s): verifies %v, want %v", i, v.Comment, ok, v.Valid)
			}
		}
		return len(f.DLEQ), nil
	case "ed25519":
		for i, v := range f.Ed25519 {
			key := ed25519.PublicKey(unhex(v.Key))
			keyOK := table.CheckIdentityKey(key) == nil
			if keyOK != v.KeyOK {
				return i, fmt.Errorf("vector %d (%s): key accepted %v, want %v", i, v.Comment, keyOK, v.KeyOK)
			}
			if keyOK && ed25519.Verify(key, unhex(v.Message), unhex(v.Sig)) != v.Valid {
				return i, fmt.Errorf("vector %d (%s): signature verifies %v, want %v", i, v.Comment, !v.Valid, v.Valid)
			}
		}
		return len(f.Ed25519), nil
	case "state-hash":
		for i, v := range f.State {
			h := sha256.Sum256(unhex(v.Preimage))
			if hex.EncodeToString(h[:]) != v.Hash {
				return i, fmt.Errorf("vector %d: SHA-256 of the preimage is not the hash", i)
			}
			got, err := StatePreimage(filepath.Join(filepath.Dir(path), v.Transcript), v.Step)
			if err != nil {
				return i, fmt.Errorf("vector %d: %v", i, err)
			}
			if hex.EncodeToString(got) != v.Preimage {
				return i, fmt.Errorf("vector %d (%s): preimage differs", i, v.Comment)
			}
		}
		return len(f.State), nil
	case "ruleset":
		for i, v := range f.Ruleset {
			valid, canonical := CheckRuleset(v.Text, v.Seats)
			if valid != v.Valid || canonical != v.Canonical {
				return i, fmt.Errorf("vector %d (%s): %q with %d seats: valid %v canonical %q, want %v %q",
					i, v.Comment, v.Text, v.Seats, valid, canonical, v.Valid, v.Canonical)
			}
		}
		return len(f.Ruleset), nil
	case "name":
		for i, v := range f.Name {
			if ok := table.CheckName(string(unhex(v.Name))) == nil; ok != v.Valid {
				return i, fmt.Errorf("vector %d (%s): name accepted %v, want %v", i, v.Comment, ok, v.Valid)
			}
		}
		return len(f.Name), nil
	}
	return 0, fmt.Errorf("unknown vector kind %q", f.Kind)
}

// StatePreimage replays a transcript's first step records and returns the
// state-hash preimage before the given step.
func StatePreimage(path string, step int) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := table.ReadTranscript(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	if step > len(t.Chain) {
		return nil, errors.New("step beyond the chain")
	}
	m, err := table.NewMachineFor(t, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i < step; i++ {
		env, err := table.DecodeEnvelope(t.Chain[i])
		if err != nil {
			return nil, err
		}
		if err := m.Apply(env); err != nil {
			return nil, err
		}
	}
	return m.StatePreimage(), nil
}
