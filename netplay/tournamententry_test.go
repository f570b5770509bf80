package netplay

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/tournament/participant"
)

// TestTournamentEntry: a created code tournament gets its id and gate
// before it is announced, and a code that names it; the creator's seat
// creates with that gate, its bots register with the code's proof, and a
// move wait is never shorter than the withhold; an open one has no code
// and no gate.
func TestTournamentEntry(t *testing.T) {
	_, cs := mockClients(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	seat, err := OpenTournamentSeat(ctx, func(context.Context, Options) (*Client, error) { return cs[0], nil }, Options{Data: t.TempDir(), Name: "ayşe"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer seat.Topic.Close()
	create := func() *participant.Create {
		return &participant.Create{Name: "cup", Format: "swiss:rounds=1", Ruleset: "classic", Players: 3}
	}
	e := &TournamentEntry{Create: create(), Withhold: time.Minute, MoveWithhold: time.Second, Log: testLogger(t)}
	text, err := e.Admit(seat)
	if err != nil || text == "" || e.Admission == nil || e.Invitation == nil || e.ID == [32]byte{} {
		t.Fatalf("Admit: %q, %v (admission %v)", text, err, e.Admission)
	}
	code, err := invite.ParsePasted(text)
	if err != nil {
		t.Fatal(err)
	}
	if iv, err := participant.InvitationFromCode(code); err != nil || iv.Tournament != e.ID || iv.Secret != e.Invitation.Secret {
		t.Fatalf("the code names %x, the entry %x (%v)", iv.Tournament, e.ID, err)
	}
	own, err := e.Config(ctx, 0, seat)
	if err != nil {
		t.Fatal(err)
	}
	if own.Create != e.Create || own.Admission != e.Admission || own.Tournament != e.ID || own.MoveWithhold != time.Minute || own.Dir != seat.Dir {
		t.Errorf("the creator's config: %+v", own)
	}
	botc, err := e.Config(ctx, 1, seat)
	if err != nil {
		t.Fatal(err)
	}
	if botc.Create != nil || botc.Admission != nil || fmt.Sprintf("%T", botc.Net) == fmt.Sprintf("%T", seat.Net) {
		t.Errorf("a bot's config: creates %v, admission %v, net %T", botc.Create, botc.Admission, botc.Net)
	}
	open := &TournamentEntry{Create: create(), Open: true, Log: testLogger(t)}
	if text, err := open.Admit(seat); err != nil || text != "" || open.Admission != nil || open.Invitation != nil || open.ID == e.ID {
		t.Errorf("an open tournament: code %q, %v, admission %v, id %x", text, err, open.Admission, open.ID)
	}
}
