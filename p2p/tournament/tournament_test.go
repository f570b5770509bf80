package tournament

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/internal/nodetest"
	"github.com/okey-game/okey/p2p/internal/p2ptest"
)

// TestTournamentNet: a record published reaches the other node, a Have
// arrives as an offer naming its author, a fetch returns the served bytes,
// and a fetch of what is not held, or of another tournament, fails.
func TestTournamentNet(t *testing.T) {
	_, nodes := nodetest.Nodes(t, 2)
	var nets []*Net
	for _, n := range nodes {
		tn, err := Join(n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tn.Close() })
		nets = append(nets, tn)
	}
	tid := [32]byte{7}
	file := bytes.Repeat([]byte("transcript"), 50000) // 500 kB: several reads
	nets[1].Serve(func(id [32]byte, round, table int) ([]byte, bool) {
		if id == tid && round == 2 && table == 1 {
			return file, true
		}
		return nil, false
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Gossip needs the mesh: publish until it arrives.
	rec := []byte("OKT record bytes")
	var got []byte
	p2ptest.WaitFor(t, 15*time.Second, "a record", func() bool {
		nets[1].Publish(ctx, rec)
		select {
		case got = <-nets[0].Records():
			return true
		case <-time.After(100 * time.Millisecond):
			return false
		}
	})
	if !bytes.Equal(got, rec) {
		t.Fatalf("record %q", got)
	}
	if err := nets[1].Have(ctx, tid, 2, 1); err != nil {
		t.Fatal(err)
	}
	var o Offer
	select {
	case o = <-nets[0].Offers():
	case <-ctx.Done():
		t.Fatal("no offer")
	}
	if o.From != nodes[1].ID().String() || o.Tournament != tid || o.Round != 2 || o.Table != 1 {
		t.Fatalf("offer %+v", o)
	}
	b, err := nets[0].Fetch(ctx, o.From, tid, 2, 1)
	if err != nil || !bytes.Equal(b, file) {
		t.Fatalf("fetch: %d bytes, %v", len(b), err)
	}
	if _, err := nets[0].Fetch(ctx, o.From, tid, 2, 0); err == nil {
		t.Fatal("a table not held was fetched")
	}
	if _, err := nets[0].Fetch(ctx, o.From, [32]byte{8}, 2, 1); err == nil {
		t.Fatal("another tournament's table was fetched")
	}
}

// FuzzTournamentMessage: the topic's validator accepts exactly the three
// message types, within their size limits.
func FuzzTournamentMessage(f *testing.F) {
	f.Add([]byte{1, 'O', 'K', 'T'})
	f.Add(append([]byte{2}, make([]byte, 34)...))
	f.Add(append([]byte{3}, make([]byte, 33)...))
	f.Fuzz(func(t *testing.T, d []byte) {
		ok := validTournamentMessage(d)
		want := len(d) >= 2 && len(d) <= MaxMessage && (d[0] == tournamentRecord || (d[0] == tournamentHave && len(d) == 35)) ||
			len(d) >= 34 && len(d) <= MaxMessage+32 && d[0] == tournamentAdmitted
		if ok != want {
			t.Fatalf("%x: valid %v, want %v", d, ok, want)
		}
	})
}

// TestJoinCloseRemovesHandlers: Join registers the fetch protocol's handler
// and the topic's validator, Close removes both (a node can join again).
func TestJoinCloseRemovesHandlers(t *testing.T) {
	_, nodes := nodetest.Nodes(t, 1)
	n := nodes[0]
	tn, err := Join(n)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(n.Host().Mux().Protocols(), Protocol) {
		t.Fatal("Join did not register the fetch protocol")
	}
	if _, err := Join(n); err == nil {
		t.Fatal("joined twice while the first runs")
	}
	if err := tn.Close(); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(n.Host().Mux().Protocols(), Protocol) {
		t.Fatal("Close left the fetch protocol's handler")
	}
	tn2, err := Join(n)
	if err != nil {
		t.Fatalf("join after Close: %v", err)
	}
	tn2.Close()
}
