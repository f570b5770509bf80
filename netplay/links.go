package netplay

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
)

// MemberLink is how this peer reaches another member of a table: its
// name, the link's kind (direct, relayed, via-member, none) and the
// round-trip time.
type MemberLink struct {
	Name string
	Kind string
	RTT  time.Duration
}

// FollowLinks tells on, at once and then every d until ctx ends or stop is
// called, how this peer reaches the other members of table a; on runs on a
// goroutine of its own. stop returns once on is no longer called.
func (c *Client) FollowLinks(ctx context.Context, a p2p.Announcement, d time.Duration, on func([]MemberLink)) (stop func()) {
	var ids []peer.ID
	names := map[peer.ID]string{}
	for _, m := range a.Members {
		if id, err := peer.Decode(m.ID); err == nil && m.ID != c.ID() {
			ids = append(ids, id)
			names[id] = m.Name
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			var links []MemberLink
			for _, l := range c.Node().Links(ids) {
				links = append(links, MemberLink{Name: names[l.Peer], Kind: l.Kind.String(), RTT: l.RTT})
			}
			on(links)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
