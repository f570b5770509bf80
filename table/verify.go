package table

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/okey-game/okey/crypto/deck"
	"github.com/okey-game/okey/crypto/group"
	"github.com/okey-game/okey/engine"
)

// Status is the class of a verdict; it is `okey verify`'s exit status and
// the same for every command that gives a verdict (protocol.md 6).
type Status int

const (
	// StatusHonest means the match finished and every record holds.
	StatusHonest Status = 0
	// StatusCheating means a seat is named on proof signed by that seat.
	StatusCheating Status = 1
	// StatusInvalid means unreadable, not a transcript, or tampered so that no
	// one can be named (a record that does not decode, verify or link).
	StatusInvalid Status = 2
	// StatusUnfinished means the chain stops before the match's end (a cut file,
	// a seat that stopped answering, a rule that could not go on); honest as
	// far as it goes. Silence is never proof.
	StatusUnfinished Status = 3
)

func (s Status) String() string {
	switch s {
	case StatusHonest:
		return "honest"
	case StatusCheating:
		return "cheating"
	case StatusInvalid:
		return "invalid"
	case StatusUnfinished:
		return "unfinished"
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// Report is the verdict on a transcript.
type Report struct {
	Honest    bool // Status == StatusHonest
	Table     string
	Ruleset   string
	Seats     []string
	Steps     int
	Hands     []HandLog
	Ranking   []engine.Standing
	Violation *Violation // a seat named on its own signed messages, with the rule and evidence
	Invalid   error      // the transcript itself does not hold (tampered, corrupt): no one named
	// Next says who was to speak where an unfinished chain stops (nil when
	// the match finished, or when Failure says why it could not go on).
	Next *Next
	// Failure is the error nobody caused that stopped the match, if any.
	Failure *Failure
	// Torn reports that the file's last record was cut short (dropped).
	Torn bool
}

// Next is the message an unfinished chain was waiting for.
type Next struct {
	Seat int
	Kind Kind
	Step uint32
}

// Status classifies the report (see Status).
func (r *Report) Status() Status {
	switch {
	case r.Violation != nil:
		return StatusCheating
	case r.Invalid != nil:
		return StatusInvalid
	case r.Honest:
		return StatusHonest
	}
	return StatusUnfinished
}

// Verify replays a transcript offline (protocol.md 6): every signature and
// chain link, every proof, the audits, every move against the rules, and
// the scores; then the evidence records. A transcript is honest only when
// the match finished and everything held. A seat is named only on messages
// it signed: a record that does not decode, verify or link makes the file
// invalid, and a chain that stops makes it unfinished, with no one named.
//
// The lock and re-key proofs of every hand are checked in one batch
// (protocol.md 4, "Batch verification"): the chain is replayed with the
// proofs deferred, and the batch is checked before anything is concluded
// from the replay. When the batch fails, or the deferred replay stops in a
// way it should not, the chain is replayed again checking each proof as
// its message is applied, so the verdict is exactly the one-by-one
// check's: the same seat, step and rule.
func Verify(t *Transcript) *Report {
	envs := decodeAndVerify(t)
	if pb, err := deck.NewProofBatch(nil); err == nil {
		if r := verifyReplay(t, envs, pb); r != nil {
			return r
		}
	}
	return verifyReplay(t, envs, nil)
}

// verifyReplay is Verify's replay. With pb set it defers the deck's proofs
// to pb and returns nil (replay again without) when pb's check fails or
// the replay panics; nothing else differs.
func verifyReplay(t *Transcript, envs []*Envelope, pb *deck.ProofBatch) (rep *Report) {
	if pb != nil {
		defer func() {
			if recover() != nil {
				rep = nil // the strict replay decides (and panics again if it must)
			}
		}()
	}
	r := &Report{Table: fmt.Sprintf("%x", t.Config.ID), Ruleset: t.Config.Ruleset}
	for _, s := range t.Config.Seats {
		r.Seats = append(r.Seats, s.Name)
	}
	m, err := NewMachineFor(t, nil)
	if err != nil {
		r.Invalid = err
		return r
	}
	m.proofs = pb
	if pb != nil {
		m.tileSeeds = auditSeeds(envs, len(t.Config.Seats))
	}
	// settle checks the deferred proofs once the chain's replay ends, and
	// makes the machine check proofs one by one from then on (the
	// evidence is judged on a strict machine).
	settle := func() bool {
		if pb == nil {
			return true
		}
		if pb.Check() != nil {
			return false
		}
		m.proofs = nil
		if m.deck != nil {
			m.deck = m.deck.DeferProofs(nil)
		}
		return true
	}
	for i, raw := range t.Chain {
		env := envs[i]
		if env == nil {
			if !settle() {
				return nil
			}
			_, err := DecodeEnvelope(raw)
			r.Invalid = fmt.Errorf("record %d: %w", i, err)
			return r
		}
		if err := m.Apply(env); err != nil {
			if !settle() {
				return nil
			}
			var v *Violation
			if errors.As(err, &v) {
				r.Violation = v
			} else {
				r.Invalid = fmt.Errorf("record %d: %w", i, err)
			}
			r.Steps = i
			r.Hands = m.Hands()
			return r
		}
	}
	if !settle() {
		return nil
	}
	r.Steps = len(t.Chain)
	r.Hands = m.Hands()
	// Evidence: judged in file order against the whole chain; the first that
	// proves a violation names its signer. Evidence that proves nothing is
	// ignored; a record that does not decode or verify makes the file invalid.
	for i, raw := range t.Evidence {
		v, err := judgeEvidence(m, t, raw)
		if err != nil {
			r.Invalid = fmt.Errorf("evidence %d: %w", i, err)
			return r
		}
		if v != nil {
			r.Violation = v
			return r
		}
	}
	if v := pairEquivocation(m, t); v != nil {
		r.Violation = v
		return r
	}
	if f := m.Failure(); f != nil {
		r.Failure = f
		return r
	}
	r.Torn = t.Torn
	if m.Done() {
		r.Ranking = m.Ranking()
		r.Honest = !t.Torn
		return r
	}
	seat, kind := m.Expect()
	r.Next = &Next{Seat: seat, Kind: kind, Step: m.Step()}
	return r
}

// auditSeeds collects, per hand, the seeds the chain's audit messages
// reveal (the first of each seat's), for the deferred replay's opening
// hints. It decides nothing: a hint is only a guess that the batch checks
// (deck.HintTiles), so a wrong or missing seed costs a replay, never a
// verdict.
func auditSeeds(envs []*Envelope, seats int) map[uint32][][]byte {
	out := map[uint32][][]byte{}
	for _, env := range envs {
		if env == nil || env.Kind != KindAudit || len(env.Body) != seedSize || int(env.Seat) >= seats {
			continue
		}
		s := out[env.Hand]
		if s == nil {
			s = make([][]byte, seats)
			out[env.Hand] = s
		}
		if s[env.Seat] == nil {
			s[env.Seat] = env.Body
		}
	}
	return out
}

// NewMachineFor returns the machine that replays a transcript: of its
// chain's table protocol version (chainVersion), so that a transcript an
// earlier okey wrote replays by its version's rules.
func NewMachineFor(t *Transcript, rand io.Reader) (*Machine, error) {
	return NewMachineVersion(t.Config, rand, chainVersion(t))
}

// chainVersion is the table protocol version of a transcript: its first
// chain record's (protocol.md 6); Version for an empty chain. A record of
// another version later in the chain fails check 1 (invalid).
func chainVersion(t *Transcript) uint8 {
	if len(t.Chain) > 0 && len(t.Chain[0]) > 3 && (t.Chain[0][3] == Version1 || t.Chain[0][3] == Version) {
		return t.Chain[0][3]
	}
	return Version
}

// decodeAndVerify decodes the chain's records (nil where one does not
// decode) and checks their signatures on every core, so that the replay,
// which is sequential, finds them checked (Envelope.Verify remembers a
// success). It decides nothing: a record that fails here fails again, at
// its turn, in the replay. The signatures are checked in batches of
// sigBatch (group.VerifyEd25519Batch: each exactly as Envelope.Verify
// checks it, only the encodings' field inversions shared).
func decodeAndVerify(t *Transcript) []*Envelope {
	envs := make([]*Envelope, len(t.Chain))
	cfgHash := t.Config.Hash()
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []*Envelope
			var keys []*group.Ed25519Key
			var msgs, sigs [][]byte
			flush := func() {
				for k, ok := range group.VerifyEd25519Batch(keys, msgs, sigs) {
					if ok {
						batch[k].remember(t.Config.Seats[batch[k].Seat].Key, cfgHash)
					}
				}
				batch, keys, msgs, sigs = batch[:0], keys[:0], msgs[:0], sigs[:0]
			}
			for i := w; i < len(envs); i += workers {
				env, err := DecodeEnvelope(t.Chain[i])
				if err != nil {
					continue
				}
				envs[i] = env
				if int(env.Seat) >= len(t.Config.Seats) || len(env.Raw) < signatureLen {
					continue
				}
				key := t.Config.Seats[env.Seat].Key
				if len(key) != ed25519.PublicKeySize {
					continue
				}
				batch = append(batch, env)
				keys = append(keys, sigKey(key))
				msgs = append(msgs, signedBytes(cfgHash, env.Raw[:len(env.Raw)-signatureLen]))
				sigs = append(sigs, env.Sig[:])
				if len(batch) == sigBatch {
					flush()
				}
			}
			flush()
		}()
	}
	wg.Wait()
	return envs
}

// sigBatch is the number of signatures decodeAndVerify checks together.
const sigBatch = 64

// pairEquivocation finds, among the evidence, two different messages that
// one seat signed for one step (protocol.md 6): for a step beyond the
// chain's end (a peer that receives them early names the seat at once), or
// for a step of the chain where neither is the chain's message nor on its
// previous message (two forks of one signer: each alone proves nothing).
// Same table, same seat, same step, both signatures valid under the
// config, different bytes: proof, whatever their links.
func pairEquivocation(m *Machine, t *Transcript) *Violation {
	seen := map[[2]uint32]*Envelope{}
	for _, raw := range t.Evidence {
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Table != t.Config.ID || int(env.Seat) >= len(t.Config.Seats) {
			continue
		}
		if env.Verify(t.Config.Seats[env.Seat].Key, m.cfgHash) != nil {
			continue
		}
		k := [2]uint32{env.Step, uint32(env.Seat)}
		if prev := seen[k]; prev != nil && string(prev.Raw) != string(env.Raw) {
			return equivocation(prev, env)
		}
		if seen[k] == nil {
			seen[k] = env
		}
	}
	return nil
}

// judgeEvidence checks an evidence envelope against the replayed chain
// (protocol.md 6): for a step in the chain, a second message by the same
// seat is equivocation and one by another seat on the same previous message
// is out-of-turn; for the step after the chain's end, a message that breaks
// a rule names its signer. Anything else proves nothing (nil, nil). An
// envelope that does not decode, is for another table or does not verify is
// an error (the file is not what the peers wrote).
func judgeEvidence(m *Machine, t *Transcript, raw []byte) (*Violation, error) {
	env, err := DecodeEnvelope(raw)
	if err != nil {
		return nil, err
	}
	if env.Table != t.Config.ID || int(env.Seat) >= len(t.Config.Seats) {
		return nil, ErrWrongTable
	}
	if err := env.Verify(t.Config.Seats[env.Seat].Key, m.cfgHash); err != nil {
		return nil, err
	}
	switch {
	case env.Step < m.Step():
		own, err := DecodeEnvelope(t.Chain[env.Step])
		if err != nil {
			return nil, err
		}
		return judgeAgainst(own, env), nil // nil: a fork, proving something only with another of its signer's (pairEquivocation)
	case env.Step == m.Step() && !m.Done():
		err := m.clone().Apply(env)
		var v *Violation
		if errors.As(err, &v) {
			return v, nil
		}
		return nil, nil // valid, or not linked to this chain: proves nothing
	}
	return nil, nil // beyond the end: only a pair of one seat's messages proves something (pairEquivocation)
}
