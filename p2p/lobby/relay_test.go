package lobby

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/p2p/relay"
)

// relayNode is a loopback node that uses relay with key (WithRelayKey).
func relayNode(t *testing.T, name string, relay peer.AddrInfo, key relay.Key) *p2p.Node {
	t.Helper()
	h, err := p2p.NewHost(p2p.WithListenAddrs("/ip4/127.0.0.1/tcp/0"), p2p.WithRelayClient())
	if err != nil {
		t.Fatal(err)
	}
	opts := []p2p.NodeOption{p2p.WithLogger(testLogger(t).With("node", name)), p2p.WithRetry(fastRetry), p2p.WithNodeRelays(relay)}
	if !key.IsZero() {
		opts = append(opts, p2p.WithRelayKey(relay.ID, key))
	}
	n, err := p2p.NewNode(h, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	startLobby(t, n, fastLobby)
	return n
}

// TestCreatorRelayLifecycle: a creator with the relay's line registers its
// private table there; a join makes it send its seated members; closing
// the table unregisters it. A creator the relay refuses learns it from
// WaitRelayAnswers, and its code leaves that relay out.
func TestCreatorRelayLifecycle(t *testing.T) {
	t.Parallel()
	key, _ := relay.NewKey()
	_, svc, rinfo, _ := testRelay(t, relay.Config{Key: key})
	a := relayNode(t, "creator", rinfo, key)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ann, err := lob(a).CreatePrivate(RandomTableID(""), "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	id := ann.Table
	if ref := a.WaitRelayAnswers(ctx, id); len(ref) != 0 {
		t.Fatalf("refused: %v", ref)
	}
	waitFor(t, 20*time.Second, "the table registered", func() bool { return svc.Tables() == 1 })
	text, err := lob(a).Invite(id, a.Host().Addrs(), a.InviteRelays())
	if err != nil || !strings.Contains(mustParseCodeRelays(t, text), rinfo.ID.String()) {
		t.Fatalf("the code lacks the relay: %v", err)
	}
	b := relayNode(t, "joiner", rinfo, relay.Key{})
	code := mustParseCode(t, text)
	if _, err := lob(b).JoinByCode(ctx, code); err != nil {
		t.Fatalf("join by code: %v", err)
	}
	waitFor(t, 20*time.Second, "the relay learns the seated members", func() bool {
		seated, started, ok := svc.Seated(id)
		return ok && slices.Contains(seated, a.ID()) && slices.Contains(seated, b.ID()) && !started
	})
	if err := lob(a).CloseTable(id); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the closed table unregistered", func() bool { return svc.Tables() == 0 })

	// A creator without the key (nor on the allow-list) is refused: told,
	// and its code does not carry the relay.
	c := relayNode(t, "stranger", rinfo, relay.Key{})
	ann, err = lob(c).CreatePrivate(RandomTableID(""), "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	ref := c.WaitRelayAnswers(ctx, ann.Table)
	if !errors.Is(ref[rinfo.ID], relay.ErrNotAllowed) {
		t.Fatalf("refusals %v", ref)
	}
	text, err = lob(c).Invite(ann.Table, c.Host().Addrs(), c.InviteRelays())
	if err != nil || strings.Contains(mustParseCodeRelays(t, text), rinfo.ID.String()) {
		t.Fatalf("the code still carries the relay that refused it (%v)", err)
	}
}

func mustParseCode(t *testing.T, text string) invite.Code {
	t.Helper()
	c, err := invite.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustParseCodeRelays is the relays of a code, as text.
func mustParseCodeRelays(t *testing.T, text string) string {
	t.Helper()
	var out []string
	for _, r := range mustParseCode(t, text).Relays {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

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
	gc.Block(joiner.ID())
	gj.Block(creator.ID())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	a, err := lob(creator).CreatePrivate("feedfacefeedfac3", "classic", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := lob(creator).AddRelay(rinfo, relay.Key{1}); err != nil {
		t.Fatal(err) // a key the relay does not hold: accepted here, refused there
	}
	if err := lob(creator).AddRelay(rinfo, key); err != nil {
		t.Fatal(err)
	}
	for svc.Tables() != 1 || len(creator.RelayRefusals(a.Table)) != 0 { // the registration runs in the background
		select {
		case <-ctx.Done():
			t.Fatal("the open table was never registered with the relay added later")
		case <-time.After(20 * time.Millisecond):
		}
	}
	text, err := lob(creator).Invite(a.Table, creator.Host().Addrs(), creator.InviteRelays())
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
	if how, err := joiner.DialCode(ctx, code); err != nil || how != p2p.ReachRelay {
		t.Fatalf("DialCode: %q %v", how, err)
	}
	if _, err := lob(joiner).JoinByCode(ctx, code); err != nil {
		t.Fatal(err)
	}
}
