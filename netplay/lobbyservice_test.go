package netplay

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// waitFor polls cond until it holds or the deadline passes.
func waitLobby(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("%s: not before the deadline", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func lobbyTable(ts []table.LobbyTable, id string) (table.LobbyTable, bool) {
	i := slices.IndexFunc(ts, func(t table.LobbyTable) bool { return t.ID == id })
	if i < 0 {
		return table.LobbyTable{}, false
	}
	return ts[i], true
}

// TestLobbyServiceCreateJoinReady: a table created through one player's
// LobbyService is listed by another's, with its ruleset and members; the
// other joins it, both say ready, and it starts; leaving and closing go
// through too.
func TestLobbyServiceCreateJoinReady(t *testing.T) {
	_, cs := mockClients(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a := NewLobbyService(ctx, cs[0], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t)})
	b := NewLobbyService(ctx, cs[1], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t)})
	if name, id, _ := a.Self(); name != "bot 0" || id != cs[0].ID() {
		t.Fatalf("Self: %q %q", name, id)
	}
	id, err := a.Create(ctx, "classic:points=5", 2, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	waitLobby(t, ctx, "b lists the table", func() bool { _, ok := lobbyTable(b.Tables(), id); return ok })
	got, _ := lobbyTable(b.Tables(), id)
	if got.Seats != 2 || got.State != lobby.StateOpen || !strings.HasPrefix(got.Ruleset, "classic") || len(got.Members) != 1 || got.Members[0].ID != cs[0].ID() {
		t.Fatalf("b lists %+v", got)
	}
	if err := b.Join(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := b.Leave(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := b.Join(ctx, id); err != nil {
		t.Fatal(err)
	}
	waitLobby(t, ctx, "a sees b seated", func() bool { got, _ := lobbyTable(a.Tables(), id); return len(got.Members) == 2 })
	if ls := a.Links(id); len(ls) != 1 || ls[0].Name != "bot 1" || ls[0].Kind == "" {
		t.Fatalf("a's links at the table: %+v", ls)
	}
	if ls := a.Links("no-such-table"); ls != nil {
		t.Fatalf("links at no table: %+v", ls)
	}
	for _, s := range []*LobbyService{a, b} {
		if err := s.SetReady(ctx, id, true); err != nil {
			t.Fatal(err)
		}
	}
	waitLobby(t, ctx, "the table starts", func() bool {
		got, ok := lobbyTable(a.Tables(), id)
		return ok && got.State == lobby.StateStarted
	})
	// A second table, closed by its creator.
	id2, err := a.Create(ctx, "classic", 2, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	waitLobby(t, ctx, "b lists the second table", func() bool { _, ok := lobbyTable(b.Tables(), id2); return ok })
	if err := a.CloseTable(ctx, id2); err != nil {
		t.Fatal(err)
	}
	waitLobby(t, ctx, "b hears the table closed", func() bool { return b.Closed(id2) })
}

// TestLobbyServicePrivateByCode: a private table's code, pasted wrapped
// over lines, seats the other player; a table of the LAN that admits by
// code only refuses a plain join with the front end's sentence; a bad code
// and a bad relay line are refused before anything is sent.
func TestLobbyServicePrivateByCode(t *testing.T) {
	_, cs := mockClients(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	explain := func(err error) string {
		if errors.Is(err, lobby.ErrInviteOnly) {
			return "invite only"
		}
		return "explained: " + err.Error()
	}
	a := NewLobbyService(ctx, cs[0], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t), Explain: explain})
	b := NewLobbyService(ctx, cs[1], LobbyOptions{Strategy: "greedy", Mover: testMover, Log: testLogger(t), Explain: explain})
	id, err := a.CreatePrivate(ctx, "classic", 2, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	code := a.Invite(id)
	if !strings.HasPrefix(code, "okey1") {
		t.Fatalf("Invite: %q", code)
	}
	if b.Invite(id) != "" {
		t.Fatal("another player's lobby gives the creator's code")
	}
	waitLobby(t, ctx, "b lists the private table", func() bool { _, ok := lobbyTable(b.Tables(), id); return ok })
	if got, _ := lobbyTable(b.Tables(), id); !got.Private {
		t.Fatalf("the private table is listed as %+v", got)
	}
	if err := b.Join(ctx, id); err == nil || err.Error() != "invite only" {
		t.Fatalf("a plain join of a private table: %v", err)
	}
	if err := b.CheckCode("okey1-not-a-code"); err == nil || !strings.HasPrefix(err.Error(), "explained: ") {
		t.Fatalf("CheckCode of a bad code: %v", err)
	}
	if err := b.CheckRelayLine("okey1notarelay"); err == nil {
		t.Fatal("a bad relay line is taken")
	}
	var wrapped strings.Builder
	for i := 0; i < len(code); i += 20 {
		wrapped.WriteString(code[i:min(len(code), i+20)] + "\n  ")
	}
	if err := b.CheckCode(wrapped.String()); err != nil {
		t.Fatalf("CheckCode of the wrapped code: %v", err)
	}
	got, err := b.JoinCode(ctx, wrapped.String())
	if err != nil || got != id {
		t.Fatalf("JoinCode: %q, %v", got, err)
	}
	waitLobby(t, ctx, "a sees b seated", func() bool {
		got, ok := lobbyTable(a.Tables(), id)
		return ok && len(got.Members) == 2 && got.Members[1].ID == cs[1].ID()
	})
	if err := a.Revoke(id); err != nil {
		t.Fatal(err)
	}
	if again := a.Invite(id); again == code || again == "" {
		t.Fatalf("the code after Revoke: %q (was %q)", again, code)
	}
	if err := a.Drop(table.LobbyTable{ID: id, Unfinished: true}); err == nil {
		t.Fatal("a LAN match is dropped")
	}
}
