package netplay

import (
	"bytes"
	"context"
	"testing"
	"time"

	p2ptournament "github.com/okey-game/okey/p2p/tournament"
	"github.com/okey-game/okey/tournament"
	"github.com/okey-game/okey/tournament/participant"
)

// TestTournamentNetAdapter: over a mocknet, the participant.Net of
// TournamentNet carries a record to the other peer, a Have arrives as an
// offer naming its author and the table by tournament.Ref, a fetch of that
// Ref returns the bytes served for it, and one of another table fails.
func TestTournamentNetAdapter(t *testing.T) {
	_, cs := mockClients(t, 2)
	var nets []participant.Net
	for _, c := range cs {
		tn, err := p2ptournament.Join(c.Node())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tn.Close() })
		nets = append(nets, TournamentNet(tn))
	}
	tid := [32]byte{7}
	ref := tournament.Ref{Round: 2, Table: 1}
	file := bytes.Repeat([]byte("transcript"), 1000)
	nets[1].Serve(func(id [32]byte, r tournament.Ref) ([]byte, bool) {
		return file, id == tid && r == ref
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rec := []byte("OKT record bytes")
	// Gossip needs the mesh: publish until it arrives.
	for got := false; !got; {
		nets[1].Publish(ctx, rec)
		select {
		case b := <-nets[0].Records():
			if !bytes.Equal(b, rec) {
				t.Fatalf("record %q", b)
			}
			got = true
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal("no record")
		}
	}
	if err := nets[1].Have(ctx, tid, ref); err != nil {
		t.Fatal(err)
	}
	var o participant.Offer
	select {
	case o = <-nets[0].Offers():
	case <-ctx.Done():
		t.Fatal("no offer")
	}
	if o.From != cs[1].ID() || o.Tournament != tid || o.Ref != ref {
		t.Fatalf("offer %+v", o)
	}
	if b, err := nets[0].Fetch(ctx, o.From, tid, ref); err != nil || !bytes.Equal(b, file) {
		t.Fatalf("fetch: %d bytes, %v", len(b), err)
	}
	if _, err := nets[0].Fetch(ctx, o.From, tid, tournament.Ref{Round: 2}); err == nil {
		t.Fatal("a table not served was fetched")
	}
}
