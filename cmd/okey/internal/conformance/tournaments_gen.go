package conformance

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TranscriptRecord is one record of a transcript file (protocol.md 6):
// its type (1 chain, 2 evidence) and its envelope bytes.
type TranscriptRecord struct {
	Type byte
	Env  []byte
}

// SplitTranscript cuts a whole transcript file into its head (the magic
// and the config frame) and its records. It is for making edited copies:
// a file that is not whole is an error.
func SplitTranscript(b []byte) (head []byte, recs []TranscriptRecord, err error) {
	const magic = "okey-transcript/v1\n"
	if !bytes.HasPrefix(b, []byte(magic)) || len(b) < len(magic)+4 {
		return nil, nil, errors.New("conformance: not a transcript")
	}
	at := len(magic)
	n := int(binary.BigEndian.Uint32(b[at:]))
	at += 4 + n
	if at > len(b) {
		return nil, nil, errors.New("conformance: transcript config cut short")
	}
	head = b[:at]
	for at < len(b) {
		if at+5 > len(b) {
			return nil, nil, errors.New("conformance: transcript record cut short")
		}
		n := int(binary.BigEndian.Uint32(b[at+1:]))
		if at+5+n > len(b) {
			return nil, nil, errors.New("conformance: transcript record cut short")
		}
		recs = append(recs, TranscriptRecord{Type: b[at], Env: b[at+5 : at+5+n]})
		at += 5 + n
	}
	return head, recs, nil
}

// JoinTranscript writes a transcript file from a head and records.
func JoinTranscript(head []byte, recs []TranscriptRecord) []byte {
	out := append([]byte(nil), head...)
	for _, r := range recs {
		out = append(out, r.Type)
		out = binary.BigEndian.AppendUint32(out, uint32(len(r.Env)))
		out = append(out, r.Env...)
	}
	return out
}

// derived is a generated case: its files over its base and its verdict.
type derived struct {
	c     TournamentCase
	files map[string][]byte // the case's own files
}

// tgen makes the derived tournament cases from the frozen bases.
type tgen struct {
	root  string
	base  map[string][]byte
	v1    map[string][]byte
	cache *participant.MatchCache
	keys  map[[32]byte]ed25519.PrivateKey
	cases []derived
}

func (g *tgen) check(files map[string][]byte) *tournament.Report { return checkFiles(files, g.cache) }

// over returns base's files with the case's own over them.
func over(base, own map[string][]byte, removed ...string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range base {
		out[k] = v
	}
	for _, k := range removed {
		delete(out, k)
	}
	for k, v := range own {
		out[k] = v
	}
	return out
}

// add records a case after checking that the verdict is the one stated:
// status and named as given; final nil (not defined), or the base's.
func (g *tgen) add(name, base string, own map[string][]byte, removed []string, status int, named []string, final []int, note string) error {
	bf := g.base
	if base == TournamentBaseV1 {
		bf = g.v1
	}
	got := VerdictOf(g.check(over(bf, own, removed...)))
	if named == nil {
		named = []string{}
	}
	want := TournamentVerdict{Status: status, Named: named, Final: final}
	if fmt.Sprint(got) != fmt.Sprint(want) || (got.Final == nil) != (final == nil) {
		return fmt.Errorf("conformance: tournament case %s: want %+v, the check gives %+v", name, want, got)
	}
	c := TournamentCase{Name: name, Base: base, Removed: removed, Status: status, Named: named, Final: final, Note: note}
	if len(own) > 0 {
		c.Dir = filepath.Join("cases", name)
	}
	g.cases = append(g.cases, derived{c: c, files: own})
	return nil
}

func (g *tgen) records(files map[string][]byte) ([]*tournament.Record, error) {
	raws, err := tournament.DecodeFile(files[participant.RecordsFile])
	if err != nil {
		return nil, err
	}
	var out []*tournament.Record
	for _, raw := range raws {
		r, err := tournament.Decode(raw)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func encodeRecords(recs []*tournament.Record) []byte {
	var raws [][]byte
	for _, r := range recs {
		raws = append(raws, r.Raw)
	}
	return tournament.EncodeFile(raws)
}

// resign signs a changed copy of r with its signer's key.
func (g *tgen) resign(r *tournament.Record, change func(*tournament.Record)) (*tournament.Record, error) {
	c := *r
	c.Raw = nil
	change(&c)
	key, ok := g.keys[c.Signer]
	if !ok {
		return nil, fmt.Errorf("conformance: no key for %x", c.Signer[:4])
	}
	if err := c.Sign(key); err != nil {
		return nil, err
	}
	return &c, nil
}

// replaced returns recs with old replaced by r.
func replaced(recs []*tournament.Record, old, r *tournament.Record) []*tournament.Record {
	out := slices.Clone(recs)
	for i := range out {
		if out[i] == old {
			out[i] = r
		}
	}
	return out
}

func keyHex(k [32]byte) string { return hex.EncodeToString(k[:]) }

// cutChain drops the last k chain records of a transcript (evidence too).
func cutChain(file []byte, k int) ([]byte, error) {
	head, recs, err := SplitTranscript(file)
	if err != nil {
		return nil, err
	}
	var chain []TranscriptRecord
	for _, r := range recs {
		if r.Type == 1 {
			chain = append(chain, r)
		}
	}
	if k > len(chain) {
		return nil, errors.New("conformance: cut past the start")
	}
	return JoinTranscript(head, chain[:len(chain)-k]), nil
}

// GenerateTournaments writes tournaments/cases.json and the derived cases'
// folders under tournaments/cases from the frozen bases in
// dir/tournaments; a suite without the bases has no tournament cases.
func GenerateTournaments(dir string, w io.Writer) error {
	root := filepath.Join(dir, TournamentDir)
	base, err := readFolder(filepath.Join(root, TournamentBase))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	v1, err := readFolder(filepath.Join(root, TournamentBaseV1))
	if err != nil {
		return err
	}
	g := &tgen{root: root, base: base, v1: v1, cache: participant.NewMatchCache(), keys: map[[32]byte]ed25519.PrivateKey{}}
	for i := 0; i < 6; i++ {
		k := TournamentKey(i)
		var pub [32]byte
		copy(pub[:], k.Public().(ed25519.PublicKey))
		g.keys[pub] = k
	}
	if err := g.generate(); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(root, "cases")); err != nil {
		return err
	}
	suite := TournamentSuite{Version: TournamentVersion}
	for _, d := range g.cases {
		suite.Cases = append(suite.Cases, d.c)
		if d.c.Dir == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Join(root, d.c.Dir), 0o755); err != nil {
			return err
		}
		names := make([]string, 0, len(d.files))
		for n := range d.files {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(root, d.c.Dir, n), d.files[n], 0o644); err != nil {
				return err
			}
		}
	}
	b, err := json.MarshalIndent(suite, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "tournament cases: %d\n", len(suite.Cases))
	return os.WriteFile(filepath.Join(root, "cases.json"), append(b, '\n'), 0o644)
}

func (g *tgen) generate() error {
	honest := g.check(g.base)
	honestV1 := g.check(g.v1)
	if honest.Status != 0 || honestV1.Status != 0 || honest.Final == nil || honestV1.Final == nil {
		return fmt.Errorf("conformance: the frozen bases are not honest (%d, %d)", honest.Status, honestV1.Status)
	}
	final, finalV1 := VerdictOf(honest).Final, VerdictOf(honestV1).Final
	creator := keyHex(honest.Creator)
	if err := g.add(TournamentBase, TournamentBase, nil, nil, 0, nil, final,
		"6 players, 2 rounds of classic:points=2, version 2 records (round results): honest"); err != nil {
		return err
	}
	if err := g.add(TournamentBaseV1, TournamentBaseV1, nil, nil, 0, nil, finalV1,
		"the same with version 1 records, as okey wrote folders before round results: honest"); err != nil {
		return err
	}

	// A cut round-1 transcript of a version 1 folder, at the cut nearest
	// the end that changes round 2's pairing: round 2's tables are not
	// seated as the cut standings say, yet no one is named (9.7 step 5).
	cutName, cutK := "", 0
	for t := 0; t < 2 && cutName == ""; t++ {
		name := participant.TranscriptName(tournament.Ref{Round: 1, Table: t})
		for k := 1; k <= 60 && cutName == ""; k++ {
			cut, err := cutChain(g.v1[name], k)
			if err != nil {
				break
			}
			rep := g.check(over(g.v1, map[string][]byte{name: cut}))
			for _, p := range rep.Problems {
				if p.Rule == "unfixed-seating" {
					cutName, cutK = name, k
				}
			}
		}
	}
	if cutName == "" {
		return errors.New("conformance: no cut of a round-1 transcript changes round 2's pairing in the v1 base")
	}
	cut, _ := cutChain(g.v1[cutName], cutK)
	if err := g.add("v1-cut-round-1", TournamentBaseV1, map[string][]byte{cutName: cut}, nil, 3, nil, nil,
		fmt.Sprintf("version 1: %s without its last %d chain records; the cut standings give another round-2 pairing than the tables played: not seated as drawn, unfinished, no one named", cutName, cutK)); err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		ref  tournament.Ref
		k    int
		note string
	}{
		{"cut-round-1", tournament.Ref{Round: 1, Table: 0}, 1, "r1-t0.transcript without its last chain record: shorter than round 1's results fix, cut (damaged); no standings"},
		{"cut-round-2", tournament.Ref{Round: 2, Table: 1}, 1, "r2-t1.transcript without its last chain record: shorter than round 2's results fix, cut (damaged); no final standings"},
		{"cut-round-1-start", tournament.Ref{Round: 1, Table: 1}, -1, "r1-t1.transcript with an empty chain: cut (damaged)"},
	} {
		name := participant.TranscriptName(c.ref)
		k := c.k
		if k < 0 {
			_, recs, _ := SplitTranscript(g.base[name])
			k = 0
			for _, r := range recs {
				if r.Type == 1 {
					k++
				}
			}
		}
		cut, err := cutChain(g.base[name], k)
		if err != nil {
			return err
		}
		if err := g.add(c.name, TournamentBase, map[string][]byte{name: cut}, nil, 2, nil, nil, c.note); err != nil {
			return err
		}
	}
	{
		name := participant.TranscriptName(tournament.Ref{Round: 1, Table: 0})
		torn := g.base[name][:len(g.base[name])-1]
		if err := g.add("torn-round-1", TournamentBase, map[string][]byte{name: torn}, nil, 2, nil, nil,
			"r1-t0.transcript's last record torn (its last byte gone, as a crash leaves it): the chain is shorter than the results fix: cut"); err != nil {
			return err
		}
		if err := g.add("removed-round-1", TournamentBase, nil, []string{name}, 3, nil, nil,
			"r1-t0.transcript removed: missing, unfinished; no standings"); err != nil {
			return err
		}
	}

	recs, err := g.records(g.base)
	if err != nil {
		return err
	}
	drop := func(keep func(r *tournament.Record) bool) []byte {
		var out []*tournament.Record
		for _, r := range recs {
			if keep(r) {
				out = append(out, r)
			}
		}
		return encodeRecords(out)
	}
	find := func(match func(r *tournament.Record) bool) *tournament.Record {
		for _, r := range recs {
			if match(r) {
				return r
			}
		}
		return nil
	}
	for _, round := range []int{1, 2} {
		file := drop(func(r *tournament.Record) bool { return r.Kind != tournament.KindResults || r.Round != round })
		if err := g.add(fmt.Sprintf("no-results-round-%d", round), TournamentBase, map[string][]byte{participant.RecordsFile: file}, nil, 3, nil, nil,
			fmt.Sprintf("round %d's results record dropped: its standings wait for them (unfinished); no one named", round)); err != nil {
			return err
		}
	}
	reversed := slices.Clone(recs)
	slices.Reverse(reversed)
	if err := g.add("records-reversed", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(reversed)}, nil, 0, nil, final,
		"the records file in reverse order: records come in any order (9.6), same verdict"); err != nil {
		return err
	}
	doubled := append(slices.Clone(recs), recs...)
	if err := g.add("records-doubled", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(doubled)}, nil, 0, nil, final,
		"every record twice: records repeat (9.6), same verdict"); err != nil {
		return err
	}
	reg := find(func(r *tournament.Record) bool { return r.Kind == tournament.KindRegister })
	if err := g.add("registration-dropped", TournamentBase,
		map[string][]byte{participant.RecordsFile: drop(func(r *tournament.Record) bool { return r != reg })}, nil, 2, nil, nil,
		"a registration the roster cites dropped: damaged, and the check ends there (9.7 step 3)"); err != nil {
		return err
	}

	// Records signed again, by the key that signed the original.
	res2 := find(func(r *tournament.Record) bool { return r.Kind == tournament.KindResults && r.Round == 2 })
	shorter := func(r *tournament.Record, table int) (*tournament.Record, error) {
		name := participant.TranscriptName(tournament.Ref{Round: r.Round, Table: table})
		_, trs, err := SplitTranscript(g.base[name])
		if err != nil {
			return nil, err
		}
		var chain [][]byte
		for _, t := range trs {
			if t.Type == 1 {
				chain = append(chain, t.Env)
			}
		}
		return g.resign(r, func(c *tournament.Record) {
			c.Tables = slices.Clone(c.Tables)
			n := len(chain) - 1
			c.Tables[table] = tournament.TableEnd{Length: n, Last: sha256.Sum256(chain[n-1])}
		})
	}
	alt, err := shorter(res2, 0)
	if err != nil {
		return err
	}
	if err := g.add("results-equivocation", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(append(slices.Clone(recs), alt))}, nil, 1, []string{creator}, nil,
		"the creator signed two different results of round 2: the creator is named (equivocation)"); err != nil {
		return err
	}
	res1 := find(func(r *tournament.Record) bool { return r.Kind == tournament.KindResults && r.Round == 1 })
	stale, err := shorter(res1, 0)
	if err != nil {
		return err
	}
	{
		own := map[string][]byte{participant.RecordsFile: encodeRecords(replaced(recs, res1, stale))}
		rep := g.check(over(g.base, own))
		if err := g.add("results-stale", TournamentBase, own, nil, 3, nil, VerdictOf(rep).Final,
			"round 1's results replaced by ones the creator signed fixing r1-t0 one record short: that table is scored on the shorter chain (stale-results) and round 2's commitments cite results not in the folder (prior): unfinished, no one named, not even round 2's seats"); err != nil {
			return err
		}
	}
	var p3 ed25519.PrivateKey
	for pub, k := range g.keys {
		if pub != honest.Creator && honest.Players[3].Key == pub {
			p3 = k
		}
	}
	if p3 == nil {
		return errors.New("conformance: no key for roster player 3")
	}
	stranger := *res1
	stranger.Raw = nil
	copy(stranger.Signer[:], p3.Public().(ed25519.PublicKey))
	if err := stranger.Sign(p3); err != nil {
		return err
	}
	if err := g.add("results-not-creator", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(append(slices.Clone(recs), &stranger))}, nil, 2, nil, final,
		"round 1's results signed by a player, not the creator: damaged, ignored; the creator's stand"); err != nil {
		return err
	}
	c1 := find(func(r *tournament.Record) bool {
		return r.Kind == tournament.KindCommit && r.Round == 1 && r.Signer == honest.Players[1].Key
	})
	c1b, err := g.resign(c1, func(c *tournament.Record) { c.Commitment = sha256.Sum256(c.Commitment[:]) })
	if err != nil {
		return err
	}
	if err := g.add("commit-equivocation", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(append(slices.Clone(recs), c1b))}, nil, 1, []string{keyHex(c1.Signer)}, nil,
		"roster player 1 signed two different commitments for round 1's attempt 1: named (equivocation); the round is not drawn, later rounds are not checked"); err != nil {
		return err
	}
	r2 := find(func(r *tournament.Record) bool {
		return r.Kind == tournament.KindReveal && r.Round == 1 && r.Signer == honest.Players[2].Key
	})
	r2b, err := g.resign(r2, func(c *tournament.Record) { c.Opening = sha256.Sum256(c.Opening[:]) })
	if err != nil {
		return err
	}
	if err := g.add("bad-reveal", TournamentBase, map[string][]byte{participant.RecordsFile: encodeRecords(replaced(recs, r2, r2b))}, nil, 1, []string{keyHex(r2.Signer)}, nil,
		"roster player 2's reveal for round 1 replaced by one it signed that does not open its commitment: named (bad-reveal); the attempt is not checked further, so the creator's close (which cites the real seed) names no one"); err != nil {
		return err
	}
	return nil
}
