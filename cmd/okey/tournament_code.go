package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/okey-game/okey/internal/atomicfile"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// Code tournaments at the command line (protocol.md 9.8, "Admission"):
// okey tournament create draws the tournament's admission secret, keeps it
// in the creator's data directory and prints the invite code; the bots of
// the process join with it, as okey tournament join --code does.

// tournamentSecretPath is where a creator keeps its tournament's admission
// secret: beside its draw openings, DATA/tournaments/<tid>/invite (0600 in
// a 0700 directory), never in the folder.
func tournamentSecretPath(state string, tid [32]byte) string {
	return filepath.Join(state, hex.EncodeToString(tid[:]), "invite")
}

// loadTournamentSecret reads a creator's kept secret; ok is false when
// there is none (an open tournament, or a new one).
func loadTournamentSecret(state string, tid [32]byte) (s invite.Secret, ok bool, err error) {
	b, err := os.ReadFile(tournamentSecretPath(state, tid))
	if errors.Is(err, os.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	s, err = invite.SecretFromBytes(b)
	if err != nil {
		return s, false, fmt.Errorf("%s: %w", tournamentSecretPath(state, tid), err)
	}
	return s, true, nil
}

// saveTournamentSecret keeps a new secret before the tournament is
// announced, so that a creator started again admits the same code.
func saveTournamentSecret(state string, tid [32]byte, s invite.Secret) error {
	path := tournamentSecretPath(state, tid)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, s.Bytes())
}

// folderTournament is the id of the tournament whose records a folder
// holds (its announcement), for a creator started again on it.
func folderTournament(dir string) ([32]byte, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "tournament"))
	if err != nil {
		return [32]byte{}, false
	}
	raws, err := tournament.DecodeFile(b)
	if err != nil {
		return [32]byte{}, false
	}
	for _, raw := range raws {
		if r, err := tournament.Decode(raw); err == nil && r.Kind == tournament.KindAnnounce && r.Verify() {
			return r.ID(), true
		}
	}
	return [32]byte{}, false
}

// tournamentCode is the invite code of tournament tid created by the node
// n with secret s: 7.10's format, the tournament id in hex as the table,
// n's addresses, no relay. A tournament is played on a LAN: its private
// addresses come first, then public ones, then loopback ones, and those
// that do not fit are left out from the end.
func tournamentCode(n *p2p.Node, tid [32]byte, s invite.Secret) (string, error) {
	addrs := p2p.InviteAddrs(n.Host().Addrs())
	rank := func(a ma.Multiaddr) int {
		switch {
		case manet.IsIPLoopback(a):
			return 2
		case manet.IsPrivateAddr(a):
			return 0
		}
		return 1
	}
	slices.SortStableFunc(addrs, func(x, y ma.Multiaddr) int { return rank(x) - rank(y) })
	c := invite.Code{Table: hex.EncodeToString(tid[:]), Creator: n.ID(), Secret: s, Addrs: addrs}
	for {
		text, err := c.Encode()
		if err == nil || !errors.Is(err, invite.ErrTooLong) || len(c.Addrs) == 0 {
			return text, err
		}
		c.Addrs = c.Addrs[:len(c.Addrs)-1]
	}
}

// creatorAdmission sets up a creator's code tournament: the secret kept
// for tid (a new one, kept before anything is announced, unless the
// tournament is resumed), the gate on the creator's network, and the
// invitation its bots join with. open with no secret kept gives nil: an
// open tournament. A resumed tournament keeps what it was: a code
// tournament if a secret is kept, else open.
func creatorAdmission(state string, tid [32]byte, resumed, open bool, key ed25519.PrivateKey, n participant.Net) (*participant.Admission, *participant.Invitation, error) {
	s, kept, err := loadTournamentSecret(state, tid)
	if err != nil {
		return nil, nil, err
	}
	if !kept {
		if open || resumed {
			return nil, nil, nil
		}
		if s, err = invite.NewSecret(); err != nil {
			return nil, nil, err
		}
		if err := saveTournamentSecret(state, tid, s); err != nil {
			return nil, nil, err
		}
	}
	pub := key.Public().(ed25519.PublicKey)
	adm, err := participant.NewAdmission(n, pub, s)
	if err != nil {
		return nil, nil, err
	}
	return adm, &participant.Invitation{Tournament: tid, Creator: [32]byte(pub), Secret: s}, nil
}

// reachCreator dials a code's creator (its private and loopback addresses
// first: protocol.md 7.10, step 1); an error leaves discovery to find it.
func reachCreator(ctx context.Context, n *p2p.Node, c invite.Code) error {
	if c.Creator == n.ID() {
		return nil
	}
	_, err := n.DialCode(ctx, c)
	return err
}
