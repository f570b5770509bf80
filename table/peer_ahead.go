package table

import (
	"github.com/okey-game/okey/crypto/commit"
	"github.com/okey-game/okey/crypto/deck"
)

// buildAhead switches on the build of this seat's lock or re-key beside the
// check of the message before it (tests switch it off to measure the gain).
var buildAhead = true

// ahead is this seat's lock or re-key body, built from a received message
// before that message's proofs were checked. It is used only once the
// message is applied (checked, accepted, the chain's head): nothing built
// from an unchecked message is ever sent. The bytes are those speak would
// build afterwards, since a lock and a re-key depend only on the deck
// before them and the hand's seed (protocol.md 4, 5.7).
type ahead struct {
	prev [32]byte // the hash of the message it was built on
	kind Kind
	done chan struct{}
	body []byte
	err  error
}

// startAhead starts building this seat's next lock or re-key when env is
// the message right before it, beside env's check. It is an honest seat's
// shortcut only: a cheater builds as its cheat says, after the check.
func (p *Peer) startAhead(env *Envelope) {
	p.ahead = nil
	m := p.n.m
	if !buildAhead || p.c.Cheat != "" || m.noLockProofs || env.Step != m.Step() || int(env.Seat) == p.c.Seat {
		return
	}
	n := len(p.c.Table.Seats)
	var kind Kind
	switch {
	case env.Kind == KindShuffle && int(env.Seat)+1 == p.c.Seat:
		kind = KindShuffle
	case env.Kind == KindShuffle && int(env.Seat) == n-1 && p.c.Seat == 0:
		kind = KindRekey
	case env.Kind == KindRekey && int(env.Seat)+1 == p.c.Seat:
		kind = KindRekey
	default:
		return
	}
	if m.Deck() == nil || m.Deck().NextLock() != int(env.Seat) && env.Kind == KindShuffle ||
		env.Kind == KindRekey && m.Deck().NextRekey() != int(env.Seat) {
		return
	}
	sec, err := p.secretFor() // here, not in the goroutine: it may save a seed
	if err != nil {
		return
	}
	a := &ahead{prev: env.Hash(), kind: kind, done: make(chan struct{})}
	p.ahead = a
	d, session, hand, seat := m.Deck(), m.Session(), m.HandNumber(), p.c.Seat
	go func() {
		defer close(a.done)
		a.body, a.err = buildOn(d, env, kind, sec, session, hand, seat)
	}()
}

// buildOn applies env to d without checking its proofs (the check runs
// beside it, and decides whether the result is ever used) and builds the
// seat's body of kind on the result.
func buildOn(d *deck.Hand, env *Envelope, kind Kind, sec *deck.Secret, session []byte, hand uint32, seat int) ([]byte, error) {
	var err error
	switch env.Kind {
	case KindShuffle:
		_, lock, derr := decodeShuffle(env.Body)
		if derr != nil {
			return nil, derr
		}
		d, err = d.WithoutLockProofs().ApplyLock(int(env.Seat), lock)
	case KindRekey:
		_, rk, derr := decodeRekey(env.Body)
		if derr != nil {
			return nil, derr
		}
		pb, perr := deck.NewProofBatch(nil)
		if perr != nil {
			return nil, perr
		}
		d, err = d.DeferProofs(pb).ApplyRekey(int(env.Seat), rk, nil)
	}
	if err != nil {
		return nil, err
	}
	seed := sec.Seed()
	cm, op, err := commit.Commit(labelHandRandom, session, hand, seat, seedReader(seed, "dice"))
	if err != nil {
		return nil, err
	}
	if kind == KindShuffle {
		lock, _, err := d.Lock(sec)
		if err != nil {
			return nil, err
		}
		return encodeShuffle(cm, lock), nil
	}
	rk, _, err := d.Rekey(sec, seedReader(seed, "rekey"))
	if err != nil {
		return nil, err
	}
	return encodeRekey(op, rk), nil
}

// takeAhead returns the body built ahead for kind, when it was built on the
// chain's head (the message it was built on is applied, so checked), and
// nil otherwise.
func (p *Peer) takeAhead(kind Kind) []byte {
	a := p.ahead
	p.ahead = nil
	if a == nil || a.kind != kind || a.prev != p.n.m.Prev() {
		return nil
	}
	<-a.done
	if a.err != nil {
		return nil
	}
	p.aheadUsed++
	return a.body
}
