package p2p

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLinkDropIsReconnecting: when a member's only connection drops, its
// link reads LinkNone (reconnecting) at once, although its messages were
// heard a moment before through that connection; it reads LinkViaMember
// once a message of its arrives through the third member.
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
	if err := mn.UnlinkPeers(a.ID(), b.ID()); err != nil {
		t.Fatal(err)
	}
	if err := mn.DisconnectPeers(a.ID(), b.ID()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "a's link to b to read reconnecting", func() bool { return a.LinkTo(b.ID()).Kind == LinkNone })
	hear("after")
	if l := a.LinkTo(b.ID()); l.Kind != LinkViaMember {
		t.Fatalf("a to b, hearing b through c: %v, want via-member", l.Kind)
	}
}
