package invite

import (
	"crypto/hmac"
	"encoding/hex"
)

// labelTournamentProof labels a tournament registration's admission proof
// (protocol.md 9.8).
const labelTournamentProof = "okey/invite/v1/tournament-proof"

// TournamentProof is the admission proof of a registration to a code
// tournament (protocol.md 9.8): under the admission key of 7.10 with the
// tournament id tid (in lowercase hex) as the table, it binds the
// tournament, its creator's and the player's Ed25519 keys, and the
// registration record's hash, so that a proof seen by anyone else admits
// no other key and no other registration.
func (s Secret) TournamentProof(tid, creator, player, registration [32]byte) Proof {
	id := hex.EncodeToString(tid[:])
	k := s.admissionKey(id)
	var b []byte
	b = lp(b, []byte(labelTournamentProof))
	b = lp(b, []byte(id))
	b = lp(b, creator[:])
	b = lp(b, player[:])
	b = append(b, registration[:]...)
	return mac(k[:], b)
}

// CheckTournament reports whether p is the TournamentProof for these
// fields, in constant time.
func (s Secret) CheckTournament(p Proof, tid, creator, player, registration [32]byte) bool {
	want := s.TournamentProof(tid, creator, player, registration)
	return !s.IsZero() && hmac.Equal(want[:], p[:])
}
