package tournament

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/okey-game/okey/p2p/internal/nodetest"
	"github.com/okey-game/okey/p2p/internal/p2ptest"
)

// TestTournamentAdmitted: a registration published with its admission
// proof (type 3) reaches the other node's handler with its author's peer
// id, the record and the proof, before the record arrives on Records; a
// node without a handler still gets the record.
func TestTournamentAdmitted(t *testing.T) {
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
	type got struct {
		from   string
		record []byte
		proof  [32]byte
	}
	var mu sync.Mutex
	var offers []got
	nets[0].OnAdmitted(func(from string, record []byte, proof [32]byte) {
		mu.Lock()
		offers = append(offers, got{from, record, proof})
		mu.Unlock()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec, proof := []byte("OKT registration bytes"), [32]byte{9, 9, 9}
	var rec0 []byte
	p2ptest.WaitFor(t, 15*time.Second, "an admitted registration", func() bool {
		nets[1].PublishAdmitted(ctx, rec, proof)
		select {
		case rec0 = <-nets[0].Records():
			return true
		case <-time.After(100 * time.Millisecond):
			return false
		}
	})
	mu.Lock()
	first := offers[0]
	mu.Unlock()
	if !bytes.Equal(rec0, rec) || first.from != nodes[1].ID().String() || !bytes.Equal(first.record, rec) || first.proof != proof {
		t.Fatalf("record %q, offer %+v", rec0, first)
	}
	// The other way: no handler, the record still arrives.
	p2ptest.WaitFor(t, 15*time.Second, "the record without a handler", func() bool {
		nets[0].PublishAdmitted(ctx, rec, proof)
		select {
		case r := <-nets[1].Records():
			return bytes.Equal(r, rec)
		case <-time.After(100 * time.Millisecond):
			return false
		}
	})
}
