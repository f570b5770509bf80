package netplay

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// TestFollowLinks: the links to the other members are told at once and
// then again, named by the members' names, never this peer's own; after
// stop nothing more is told.
func TestFollowLinks(t *testing.T) {
	ctx, _, cs := mockLobby(t, 2, time.Minute)
	s := NewLobbyService(ctx, cs[0], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t)})
	a := lobby.Announcement{Table: "t", Members: []lobby.Seat{{ID: cs[0].ID(), Name: "me"}, {ID: cs[1].ID(), Name: "other"}}}
	told := make(chan []table.SeatLink, 16)
	var after atomic.Bool
	stop := s.FollowLinks(ctx, a, func(ls []table.SeatLink) {
		if after.Load() {
			t.Error("told after stop")
		}
		select {
		case told <- ls:
		default:
		}
	})
	select {
	case ls := <-told:
		if len(ls) != 1 || ls[0].Name != "other" || ls[0].Kind == "" {
			t.Fatalf("links %+v, want the other member's", ls)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no links told")
	}
	stop()
	after.Store(true)
}
