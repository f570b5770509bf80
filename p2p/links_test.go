package p2p

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLinkDropIsReconnecting: when a member's only connection drops, what
// was heard of it before (through that connection) is forgotten, so its
// link reads LinkNone (reconnecting) until a message of its arrives after
// the drop; it reads LinkViaMember once one arrives through the third
// member. A message of b's still in flight at the drop may arrive through
// c after it, and rightly counts: the test so never requires seeing the
// brief LinkNone over the network (TestLinkDroppedForgetsHeard does, on
// one node), only that the earlier hearing is gone.
func TestLinkDropIsReconnecting(t *testing.T) {
	t.Parallel()
	mn, nodes := mockNodes(t, 3)
	tts := joinAll(t, nodes, "drop", acceptAll)
	a, b := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// hear broadcasts from b until a gets one of these (a message of an
	// earlier call may still come: it is skipped).
	hear := func(what string) {
		t.Helper()
		for i := 0; ; i++ {
			if err := tts[1].Broadcast(ctx, fmt.Appendf(nil, "%s-%d", what, i)); err != nil {
				t.Fatal(err)
			}
			wait := time.After(100 * time.Millisecond)
			for waiting := true; waiting; {
				select {
				case p := <-tts[0].Inbox():
					if strings.HasPrefix(string(p.Data), what+"-") {
						return
					}
				case <-wait:
					waiting = false
				case <-ctx.Done():
					t.Fatalf("a never heard b %s", what)
				}
			}
		}
	}
	hear("before")
	if l := a.LinkTo(b.ID()); l.Kind != LinkDirect {
		t.Fatalf("a to b: %v, want direct", l.Kind)
	}
	// what a heard of b before the drop, marked so that its fate shows.
	before := time.Now().Add(-time.Minute)
	a.mu.Lock()
	a.heard[b.ID()] = before
	a.mu.Unlock()
	if err := mn.UnlinkPeers(a.ID(), b.ID()); err != nil {
		t.Fatal(err)
	}
	if err := mn.DisconnectPeers(a.ID(), b.ID()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "a's link to b to leave direct", func() bool {
		k := a.LinkTo(b.ID()).Kind
		return k == LinkNone || k == LinkViaMember
	})
	waitFor(t, 10*time.Second, "a to forget what it heard of b before the drop", func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		at, ok := a.heard[b.ID()]
		return !ok || at.After(before)
	})
	hear("after")
	if l := a.LinkTo(b.ID()); l.Kind != LinkViaMember {
		t.Fatalf("a to b, hearing b through c: %v, want via-member", l.Kind)
	}
}

// TestLinkDroppedForgetsHeard: a member not connected reads LinkViaMember
// while its messages are heard, LinkNone from the moment its link drops,
// and LinkViaMember again once a message of its is heard after the drop.
func TestLinkDroppedForgetsHeard(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodesApart(t, 2, [][2]int{{0, 1}})
	a, b := nodes[0], nodes[1].ID()
	if k := a.LinkTo(b).Kind; k != LinkNone {
		t.Fatalf("never heard: %v, want none", k)
	}
	a.heardFrom(b)
	if k := a.LinkTo(b).Kind; k != LinkViaMember {
		t.Fatalf("heard: %v, want via-member", k)
	}
	a.linkDropped(b)
	if k := a.LinkTo(b).Kind; k != LinkNone {
		t.Fatalf("after the drop: %v, want none", k)
	}
	a.heardFrom(b)
	if k := a.LinkTo(b).Kind; k != LinkViaMember {
		t.Fatalf("heard after the drop: %v, want via-member", k)
	}
}
