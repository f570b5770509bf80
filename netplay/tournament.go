package netplay

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	p2ptournament "github.com/okey-game/okey/p2p/tournament"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// SigningKey is this peer's persistent identity as the key that signs its
// table envelopes and tournament records (protocol.md 9.2). It is never
// logged.
func (c *Client) SigningKey() (ed25519.PrivateKey, error) { return privateKey(c.key) }

// TournamentTable opens the network of a tournament table whose config
// every seat built from the tournament's records (protocol.md 9.3): the
// table topic of the config's id in hexadecimal, with the seats' peer ids
// as members. Members that are late are left to the table protocol, as at
// any table.
func (c *Client) TournamentTable(ctx context.Context, cfg table.Config, ready time.Duration) (table.Transport, error) {
	var members []peer.ID
	for _, s := range cfg.Seats {
		id, err := peer.Decode(string(s.ID))
		if err != nil {
			return nil, fmt.Errorf("lan: seat %q: %w", s.Name, err)
		}
		members = append(members, id)
	}
	return c.node.JoinTable(ctx, fmt.Sprintf("%x", cfg.ID), members, Validator(cfg), p2p.WithReadyTimeout(ready))
}

// TournamentNet is a participant.Net (and AdmissionNet) over the
// network's tournament topic and fetch protocol (tn).
func TournamentNet(tn *p2ptournament.Net) participant.Net { return &tournamentNet{tn: tn} }

// tournamentNet is TournamentNet's.
type tournamentNet struct {
	tn  *p2ptournament.Net
	out chan participant.Offer
	one sync.Once
}

// Publish implements participant.Net.
func (n *tournamentNet) Publish(ctx context.Context, record []byte) error {
	return n.tn.Publish(ctx, record)
}

// Records implements participant.Net.
func (n *tournamentNet) Records() <-chan []byte { return n.tn.Records() }

// Have implements participant.Net.
func (n *tournamentNet) Have(ctx context.Context, tid [32]byte, ref tournament.Ref) error {
	return n.tn.Have(ctx, tid, ref.Round, ref.Table)
}

// Offers implements participant.Net: the offers heard, as the
// participant names them (dropped when it falls behind).
func (n *tournamentNet) Offers() <-chan participant.Offer {
	n.one.Do(func() {
		n.out = make(chan participant.Offer, 1024)
		go func() {
			for o := range n.tn.Offers() {
				select {
				case n.out <- participant.Offer{From: o.From, Tournament: o.Tournament, Ref: tournament.Ref{Round: o.Round, Table: o.Table}}:
				default:
				}
			}
		}()
	})
	return n.out
}

// Fetch implements participant.Net.
func (n *tournamentNet) Fetch(ctx context.Context, from string, tid [32]byte, ref tournament.Ref) ([]byte, error) {
	return n.tn.Fetch(ctx, from, tid, ref.Round, ref.Table)
}

// PublishAdmitted implements participant.AdmissionNet (9.8, type 3).
func (n *tournamentNet) PublishAdmitted(ctx context.Context, record []byte, proof [32]byte) error {
	return n.tn.PublishAdmitted(ctx, record, proof)
}

// OnAdmitted implements participant.AdmissionNet.
func (n *tournamentNet) OnAdmitted(h func(from string, record []byte, proof [32]byte)) {
	n.tn.OnAdmitted(h)
}

// Serve implements participant.Net.
func (n *tournamentNet) Serve(h func(tid [32]byte, ref tournament.Ref) ([]byte, bool)) {
	n.tn.Serve(func(tid [32]byte, round, tbl int) ([]byte, bool) {
		return h(tid, tournament.Ref{Round: round, Table: tbl})
	})
}
