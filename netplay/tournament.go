package netplay

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/table"
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
