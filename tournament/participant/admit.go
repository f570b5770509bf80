package participant

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament"
)

// Code tournaments (protocol.md 9.8, "Admission"): the creator of a
// tournament that admits by invite code puts on its roster only the
// registrations that reached it with an admission proof made with the
// tournament's secret (invite.Secret.TournamentProof), besides its own.
// The proof travels beside the registration, never in a record: the
// folder (9.6) and what okey verify reads are the same as for an open
// tournament, and verify trusts the roster the creator signed.

// AdmissionNet is a Net that also carries registrations with their
// admission proofs (9.8, topic message type 3).
type AdmissionNet interface {
	Net
	// PublishAdmitted sends a registration record with its admission
	// proof: to the others as the record (Records), and to their
	// OnAdmitted handler with the proof.
	PublishAdmitted(ctx context.Context, record []byte, proof [32]byte) error
	// OnAdmitted installs the handler of the others' PublishAdmitted: from
	// is the sender, the record and proof as sent. The handler is called
	// before the record is delivered on Records.
	OnAdmitted(h func(from string, record []byte, proof [32]byte))
}

// Invitation is what a code tournament's invite code says to a joiner:
// the tournament, its creator's key and the admission secret. Its Secret
// formats as redacted: an Invitation never shows the secret in a log.
type Invitation struct {
	Tournament [32]byte
	Creator    [32]byte
	Secret     invite.Secret
}

// ErrNotTournamentCode is InvitationFromCode's error for a table's code.
var ErrNotTournamentCode = errors.New("tourney: this invite code is a table's, not a tournament's (its id is not 64 hexadecimal digits)")

// InvitationFromCode reads a tournament's invite code (7.10's format, the
// tournament id in lowercase hexadecimal as its table).
func InvitationFromCode(c invite.Code) (Invitation, error) {
	var iv Invitation
	b, err := hex.DecodeString(c.Table)
	if err != nil || len(b) != 32 || hex.EncodeToString(b) != c.Table {
		return iv, ErrNotTournamentCode
	}
	pk, err := c.Creator.ExtractPublicKey()
	if err != nil {
		return iv, fmt.Errorf("tourney: the code's creator: %w", err)
	}
	raw, err := pk.Raw()
	if err != nil || len(raw) != 32 {
		return iv, errors.New("tourney: the code's creator has no Ed25519 key")
	}
	iv.Tournament, iv.Creator, iv.Secret = [32]byte(b), [32]byte(raw), c.Secret
	return iv, nil
}

// Proof is the admission proof of registration record r.
func (iv Invitation) Proof(r *tournament.Record) [32]byte {
	return iv.Secret.TournamentProof(iv.Tournament, iv.Creator, r.Signer, r.Hash())
}

// WithCode returns n, through which this participant's registration to
// iv's tournament goes out with its admission proof (PublishAdmitted);
// every other record goes out as through n. n must be an AdmissionNet.
func WithCode(n Net, iv Invitation) (Net, error) {
	an, ok := n.(AdmissionNet)
	if !ok {
		return nil, errors.New("tourney: this network carries no admission proofs")
	}
	if iv.Secret.IsZero() {
		return nil, errors.New("tourney: an invitation without a secret")
	}
	return codeNet{an, iv}, nil
}

type codeNet struct {
	AdmissionNet
	iv Invitation
}

// Publish sends this participant's registration to iv's tournament with
// its proof, then (as every other record) plainly, so that a participant
// whose okey does not read admitted registrations still has it.
func (n codeNet) Publish(ctx context.Context, record []byte) error {
	if r, err := tournament.Decode(record); err == nil && r.Kind == tournament.KindRegister && r.Tournament == n.iv.Tournament {
		if err := n.PublishAdmitted(ctx, record, n.iv.Proof(r)); err != nil {
			return err
		}
	}
	return n.AdmissionNet.Publish(ctx, record)
}

// maxAdmitted bounds the registrations an Admission remembers: only code
// holders add to it.
const maxAdmitted = 4096

// Admission is a code tournament's gate at its creator (Config.Admission):
// it admits the creator's own registrations and those that came with a
// valid proof. Failed proofs are rate-limited per sender as at a private
// table (7.10's admission check, step 1): a sender over its limit is not
// checked.
type Admission struct {
	creator [32]byte
	secret  invite.Secret

	mu       sync.Mutex
	admitted map[[32]byte]bool // registration hashes
	limiter  *invite.Limiter
	refused  int
}

// NewAdmission makes the gate of the tournaments that creator announces
// with secret, and hands it what n receives with a proof. n must be an
// AdmissionNet (the participant's Net).
func NewAdmission(n Net, creator ed25519.PublicKey, secret invite.Secret) (*Admission, error) {
	an, ok := n.(AdmissionNet)
	if !ok {
		return nil, errors.New("tourney: this network carries no admission proofs")
	}
	if secret.IsZero() {
		return nil, errors.New("tourney: an admission without a secret")
	}
	a := &Admission{secret: secret, admitted: map[[32]byte]bool{}, limiter: invite.DefaultLimiter()}
	copy(a.creator[:], creator)
	an.OnAdmitted(func(from string, record []byte, proof [32]byte) { a.Offer(from, record, proof) })
	return a, nil
}

// Offer checks a registration that came with proof from sender from and
// reports whether it is admitted. Anything but a registration with the
// proof of its own key, hash and tournament, under the secret, is refused
// and changes nothing but the sender's failure count.
func (a *Admission) Offer(from string, record []byte, proof [32]byte) bool {
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if ok, _ := a.limiter.Allow(from, now); !ok {
		a.refused++
		return false
	}
	r, err := tournament.Decode(record)
	if err != nil || r.Kind != tournament.KindRegister ||
		!a.secret.CheckTournament(proof, r.Tournament, a.creator, r.Signer, r.Hash()) {
		a.limiter.Fail(from, now)
		a.refused++
		return false
	}
	if len(a.admitted) < maxAdmitted {
		a.admitted[r.Hash()] = true
	}
	return true
}

// Refused is how many offers were refused.
func (a *Admission) Refused() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.refused
}

// admits reports whether registration r may go on the roster.
func (a *Admission) admits(r *tournament.Record) bool {
	if r.Signer == a.creator {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.admitted[r.Hash()]
}

// admits reports whether registration r may go on this creator's roster:
// any registration of an open tournament (Config.Admission nil, a LAN
// party), only the admitted ones of a code tournament.
func (p *Participant) admits(r *tournament.Record) bool {
	return p.c.Admission == nil || p.c.Admission.admits(r)
}

// PublishAdmitted implements AdmissionNet: the others' handlers get the
// record and proof, then the record goes out as by Publish.
func (m *memMember) PublishAdmitted(ctx context.Context, record []byte, proof [32]byte) error {
	m.bus.mu.Lock()
	var hs []func(string, []byte, [32]byte)
	for _, id := range m.bus.order {
		if o := m.bus.members[id]; o != m && o.admit != nil {
			hs = append(hs, o.admit)
		}
	}
	m.bus.mu.Unlock()
	for _, h := range hs {
		h(m.id, append([]byte(nil), record...), proof)
	}
	return m.Publish(ctx, record)
}

// OnAdmitted implements AdmissionNet.
func (m *memMember) OnAdmitted(h func(from string, record []byte, proof [32]byte)) {
	m.bus.mu.Lock()
	m.admit = h
	m.bus.mu.Unlock()
}
