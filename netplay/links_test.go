package netplay

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p"
)

// TestFollowLinks: the links to the other members are told at once and
// then again, named by the members' names, never this peer's own; after
// stop nothing more is told.
func TestFollowLinks(t *testing.T) {
	_, cs := mockClients(t, 2)
	a := p2p.Announcement{Table: "t", Members: []p2p.Seat{{ID: cs[0].ID(), Name: "me"}, {ID: cs[1].ID(), Name: "other"}}}
	told := make(chan []MemberLink, 16)
	var after atomic.Bool
	stop := cs[0].FollowLinks(context.Background(), a, 10*time.Millisecond, func(ls []MemberLink) {
		if after.Load() {
			t.Error("told after stop")
		}
		select {
		case told <- ls:
		default:
		}
	})
	for range 2 {
		select {
		case ls := <-told:
			if len(ls) != 1 || ls[0].Name != "other" || ls[0].Kind == "" {
				t.Fatalf("links %+v, want the other member's", ls)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no links told")
		}
	}
	stop()
	after.Store(true)
	time.Sleep(50 * time.Millisecond)
}
