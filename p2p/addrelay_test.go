package p2p

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/relay"
)

// TestAddRelayLater: a relay line given after the node started (pasted in
// the lobby) works as --relay LINE does from the start: the open private
// table the player created is registered there with the line's key, its
// invite code goes through the relay from then on, and a joiner that can
// reach the creator only through the relay is seated. A bad line changes
// nothing.
func TestAddRelayLater(t *testing.T) {
	t.Parallel()
	key, err := relay.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	_, svc, rinfo, _ := testRelay(t, relay.Config{Key: key})
	gc, gj := &noDirect{}, &noDirect{}
	creator, joiner := gatedNode(t, "creator", gc), gatedNode(t, "joiner", gj)
	gc.block(joiner.ID())
	gj.block(creator.ID())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	a, err := creator.Lobby().CreatePrivate("feedfacefeedfac3", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := creator.Lobby().AddRelay(rinfo, relay.Key{1}); err != nil {
		t.Fatal(err) // a key the relay does not hold: accepted here, refused there
	}
	if err := creator.Lobby().AddRelay(rinfo, key); err != nil {
		t.Fatal(err)
	}
	for svc.Tables() != 1 || len(creator.RelayRefusals(a.Table)) != 0 { // the registration runs in the background
		select {
		case <-ctx.Done():
			t.Fatal("the open table was never registered with the relay added later")
		case <-time.After(20 * time.Millisecond):
		}
	}
	text, err := creator.Lobby().Invite(a.Table, creator.Host().Addrs(), creator.InviteRelays())
	if err != nil {
		t.Fatal(err)
	}
	code, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(code.Relays) != 1 || !strings.HasSuffix(code.Relays[0].String(), "/p2p/"+rinfo.ID.String()) {
		t.Fatalf("the code's relays: %v", code.Relays)
	}
	if how, err := joiner.DialCode(ctx, code); err != nil || how != ReachRelay {
		t.Fatalf("DialCode: %q %v", how, err)
	}
	if _, err := joiner.Lobby().JoinByCode(ctx, code); err != nil {
		t.Fatal(err)
	}
}
