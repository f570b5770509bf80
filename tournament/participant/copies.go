package participant

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
)

// A participant may hold several copies of one table's transcript: its own
// seat's, and those it fetched from the roster players that offered theirs.
// The copy that verifies furthest wins, whatever arrived first (protocol.md
// 9.8); two copies that diverge are two signed messages for one step, kept
// as evidence against their signer.

// tcopy is one copy of a table's transcript, judged: its chain cut to the
// records that verify (a record that does not decode, verify or link, and
// anything after it, dropped), its evidence cut to the envelopes that
// verify under the config.
type tcopy struct {
	t     *table.Transcript
	rep   *table.Report
	reach int // chain records the replay accepted
	file  []byte
}

// errCopy is the error of a copy that is not the table's.
var errCopy = errors.New("tourney: not that table's transcript")

// judgeCopy reads a transcript file and judges it as a copy of the table
// whose config is cfg (the config the records give, 9.3).
func judgeCopy(file []byte, cfg table.Config) (*tcopy, error) {
	t, err := table.ReadTranscript(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	if t.Config.ID != cfg.ID || t.Config.Hash() != cfg.Hash() {
		return nil, fmt.Errorf("%w: another config", errCopy)
	}
	return judge(t)
}

// judge cuts t to what verifies and returns it judged.
func judge(t *table.Transcript) (*tcopy, error) {
	h := t.Config.Hash()
	var ev [][]byte
	for _, raw := range t.Evidence {
		if validEnvelope(t.Config, h, raw) && !slices.ContainsFunc(ev, func(e []byte) bool { return bytes.Equal(e, raw) }) {
			ev = append(ev, raw)
		}
	}
	t = &table.Transcript{Config: t.Config, Chain: t.Chain, Evidence: ev}
	rep := table.Verify(t)
	if rep.Invalid != nil {
		// Keep the prefix that verifies: the records before the first one
		// that does not decode, then before the first one that does not
		// verify or link (the replay stops there, Steps says where).
		d := len(t.Chain)
		for i, raw := range t.Chain {
			if _, err := table.DecodeEnvelope(raw); err != nil {
				d = i
				break
			}
		}
		t.Chain = t.Chain[:d]
		if rep = table.Verify(t); rep.Invalid != nil && rep.Steps < len(t.Chain) {
			t.Chain = t.Chain[:rep.Steps]
			rep = table.Verify(t)
		}
		if rep.Invalid != nil {
			return nil, fmt.Errorf("%w: %v", errCopy, rep.Invalid)
		}
	}
	if rep.Violation != nil && rep.Steps+1 < len(t.Chain) {
		// The chain's record Steps broke a rule (its signer is named): what
		// follows it is not checked.
		t.Chain = t.Chain[:rep.Steps+1]
		rep = table.Verify(t)
	}
	reach := rep.Steps
	var b bytes.Buffer
	if err := table.WriteTranscript(&b, t); err != nil {
		return nil, err
	}
	return &tcopy{t: t, rep: rep, reach: reach, file: b.Bytes()}, nil
}

// validEnvelope reports whether raw is an envelope of the table cfg signed
// by its seat (evidence that table.Verify can judge, not damage).
func validEnvelope(cfg table.Config, h [32]byte, raw []byte) bool {
	env, err := table.DecodeEnvelope(raw)
	if err != nil || env.Table != cfg.ID || int(env.Seat) >= len(cfg.Seats) {
		return false
	}
	return env.Verify(cfg.Seats[env.Seat].Key, h) == nil
}

// rank orders verdicts at equal reach: a seat named on its own signature,
// then honest, then unfinished, then damaged.
func rank(s table.Status) int {
	switch s {
	case table.StatusCheating:
		return 3
	case table.StatusHonest:
		return 2
	case table.StatusUnfinished:
		return 1
	}
	return 0
}

// better reports whether copy a wins over copy b: it verifies further, or as
// far with a stronger verdict, or (equal) has the smaller bytes; the choice
// does not depend on which arrived first.
func better(a, b *tcopy) bool {
	if a.reach != b.reach {
		return a.reach > b.reach
	}
	if ra, rb := rank(a.rep.Status()), rank(b.rep.Status()); ra != rb {
		return ra > rb
	}
	if len(a.file) != len(b.file) {
		return len(a.file) < len(b.file)
	}
	return bytes.Compare(a.file, b.file) < 0
}

// diverge returns the first index where two chains hold different records,
// or -1 when one is a prefix of the other.
func diverge(a, b [][]byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if !bytes.Equal(a[i], b[i]) {
			return i
		}
	}
	return -1
}

// maxPool bounds the evidence kept for one table beyond its best copy.
const maxPool = 256

// copies is what a participant holds of one table: the copy that wins so
// far, and the signed envelopes the copies disagree on or hold as evidence.
type copies struct {
	best *tcopy
	pool [][]byte
}

func (cs *copies) addPool(raw []byte) {
	if len(cs.pool) >= maxPool || slices.ContainsFunc(cs.pool, func(e []byte) bool { return bytes.Equal(e, raw) }) {
		return
	}
	cs.pool = append(cs.pool, raw)
}

// add takes a copy in and returns the merged transcript: the best copy's
// chain with, as evidence, every envelope that any copy kept as evidence or
// that diverged from the best copy's chain (not in that chain), in bytewise
// order.
func (cs *copies) add(c *tcopy) *table.Transcript {
	for _, e := range c.t.Evidence {
		cs.addPool(e)
	}
	if cs.best != nil {
		if i := diverge(cs.best.t.Chain, c.t.Chain); i >= 0 {
			// Two records verified in their chains for one step: signed by
			// their seats, one of them proves a violation (equivocation or
			// out of turn) against the other's chain.
			cs.addPool(cs.best.t.Chain[i])
			cs.addPool(c.t.Chain[i])
		}
	}
	if cs.best == nil || better(c, cs.best) {
		cs.best = c
	}
	var ev [][]byte
	for _, e := range cs.pool {
		if !inChain(cs.best.t.Chain, e) {
			ev = append(ev, e)
		}
	}
	slices.SortFunc(ev, bytes.Compare)
	return &table.Transcript{Config: cs.best.t.Config, Chain: cs.best.t.Chain, Evidence: ev}
}

// matchOf is MatchOf with the verdict already computed.
func matchOf(t *table.Transcript, rep *table.Report) *tournament.Match {
	m := &tournament.Match{Status: int(rep.Status()), TableID: t.Config.ID, Ruleset: t.Config.Ruleset, Silent: -1, Cheater: -1}
	for _, s := range t.Config.Seats {
		var k [32]byte
		copy(k[:], s.Key)
		m.Keys = append(m.Keys, k)
	}
	m.Signed = make([]bool, len(m.Keys))
	h := t.Config.Hash()
	for _, raw := range t.Chain {
		env, err := table.DecodeEnvelope(raw)
		if err != nil || env.Table != t.Config.ID || int(env.Seat) >= len(m.Keys) || m.Signed[env.Seat] {
			continue
		}
		if env.Verify(t.Config.Seats[env.Seat].Key, h) == nil {
			m.Signed[env.Seat] = true
		}
	}
	for _, raw := range t.Chain {
		m.Chain = append(m.Chain, sha256.Sum256(raw))
	}
	m.Prefix = func(n int) *tournament.Match {
		if n < 0 || n > len(t.Chain) {
			return nil
		}
		return MatchOf(&table.Transcript{Config: t.Config, Chain: t.Chain[:n]})
	}
	if n := len(rep.Hands); n > 0 {
		m.Scores = append([]int(nil), rep.Hands[n-1].Scores...)
	}
	if rep.Status() == table.StatusHonest {
		m.Places = make([]int, len(m.Keys))
		for _, s := range rep.Ranking {
			if s.Seat >= 0 && s.Seat < len(m.Places) {
				m.Places[s.Seat] = s.Place
			}
		}
	}
	if rep.Next != nil {
		m.Silent = rep.Next.Seat
	}
	if rep.Violation != nil {
		m.Cheater = rep.Violation.Seat
	}
	return m
}
