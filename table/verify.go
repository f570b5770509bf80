package table

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/okey-game/okey/engine"
)

// Report is the verdict on a transcript.
type Report struct {
	Honest    bool
	Table     string
	Ruleset   string
	Seats     []string
	Steps     int
	Hands     []HandLog
	Ranking   []engine.Standing
	Violation *Violation // who cheated, with the rule and evidence
	Invalid   error      // the transcript itself does not hold (tampered, cut): no one named
}

// Verify replays a transcript offline: every signature and chain link, every
// proof, the audits, every move against the rules, and the scores. A
// transcript is honest only when the match finished and everything held.
func Verify(t *Transcript) *Report {
	r := &Report{Table: fmt.Sprintf("%x", t.Config.ID), Ruleset: t.Config.Ruleset}
	for _, s := range t.Config.Seats {
		r.Seats = append(r.Seats, s.Name)
	}
	m, err := NewMachine(t.Config, nil)
	if err != nil {
		r.Invalid = err
		return r
	}
	envs := decodeAndVerify(t)
	for i, raw := range t.Chain {
		env, err := envs[i], error(nil)
		if env == nil {
			_, err = DecodeEnvelope(raw)
			r.Invalid = fmt.Errorf("record %d: %w", i, err)
			return r
		}
		if err := m.Apply(env); err != nil {
			var v *Violation
			if errors.As(err, &v) {
				r.Violation = v
			} else {
				r.Invalid = fmt.Errorf("record %d: %w", i, err)
			}
			r.Steps = i
			return r
		}
	}
	r.Steps = len(t.Chain)
	r.Hands = m.Hands()
	if m.Done() {
		if len(t.Evidence) > 0 {
			r.Invalid = errors.New("evidence after a finished match")
			return r
		}
		r.Honest = true
		r.Ranking = m.Match().Ranking()
		return r
	}
	if v := aheadEquivocation(m, t); v != nil {
		r.Violation = v
		return r
	}
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
	seat, kind := m.Expect()
	r.Violation = &Violation{Seat: seat, Step: m.Step(), Rule: "withhold",
		Err: fmt.Errorf("the transcript ends where seat %d must send a %v (it withheld it, or the file is cut)", seat, kind)}
	return r
}

// decodeAndVerify decodes the chain's records (nil where one does not
// decode) and checks their signatures on every core, so that the replay,
// which is sequential, finds them checked (Envelope.Verify remembers a
// success). It decides nothing: a record that fails here fails again, at
// its turn, in the replay.
func decodeAndVerify(t *Transcript) []*Envelope {
	envs := make([]*Envelope, len(t.Chain))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(envs); i += workers {
				env, err := DecodeEnvelope(t.Chain[i])
				if err != nil {
					continue
				}
				if int(env.Seat) < len(t.Config.Seats) {
					_ = env.Verify(t.Config.Seats[env.Seat].Key)
				}
				envs[i] = env
			}
		}()
	}
	wg.Wait()
	return envs
}

// aheadEquivocation finds, among the evidence, two different messages that
// one seat signed for the same step beyond the chain's end (a peer that
// receives them early names the seat at once).
func aheadEquivocation(m *Machine, t *Transcript) *Violation {
	seen := map[[2]uint32]*Envelope{}
	for _, raw := range t.Evidence {
		env, err := DecodeEnvelope(raw)
		if err != nil || env.Table != t.Config.ID || int(env.Seat) >= len(t.Config.Seats) || env.Step < m.Step() {
			continue
		}
		if env.Verify(t.Config.Seats[env.Seat].Key) != nil {
			continue
		}
		k := [2]uint32{env.Step, uint32(env.Seat)}
		if prev := seen[k]; prev != nil && string(prev.Raw) != string(env.Raw) {
			return &Violation{Seat: int(env.Seat), Step: env.Step, Rule: "equivocation",
				Err:      fmt.Errorf("seat %d signed two messages for step %d", env.Seat, env.Step),
				Evidence: [][]byte{prev.Raw, env.Raw}}
		}
		seen[k] = env
	}
	return nil
}

// judgeEvidence checks an evidence envelope against the replayed chain: a
// conflicting message for a past step (equivocation or out-of-turn), or the
// next step's message that breaks a rule.
func judgeEvidence(m *Machine, t *Transcript, raw []byte) (*Violation, error) {
	env, err := DecodeEnvelope(raw)
	if err != nil {
		return nil, err
	}
	if env.Table != t.Config.ID || int(env.Seat) >= len(t.Config.Seats) {
		return nil, ErrWrongTable
	}
	if err := env.Verify(t.Config.Seats[env.Seat].Key); err != nil {
		return nil, err
	}
	switch {
	case env.Step < m.Step():
		prev, err := DecodeEnvelope(t.Chain[env.Step])
		if err != nil {
			return nil, err
		}
		if string(prev.Raw) == string(env.Raw) {
			return nil, nil
		}
		rule := "out-of-turn"
		if prev.Seat == env.Seat {
			rule = "equivocation"
		}
		return &Violation{Seat: int(env.Seat), Step: env.Step, Rule: rule,
			Err:      fmt.Errorf("seat %d signed a second message for step %d", env.Seat, env.Step),
			Evidence: [][]byte{prev.Raw, env.Raw}}, nil
	case env.Step == m.Step():
		c := m.clone()
		err := c.Apply(env)
		var v *Violation
		if errors.As(err, &v) {
			return v, nil
		}
		if err == nil {
			// A valid next message kept as evidence: judge the rest.
			*m = *c
			return nil, nil
		}
		return nil, err
	}
	return nil, fmt.Errorf("evidence for future step %d", env.Step)
}
