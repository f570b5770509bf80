package table

import (
	"testing"
)

// aheadPeer is seat 0 of a fresh two-seat table, and a signer for seat 1.
func aheadPeer(t *testing.T) (*Peer, func(step uint32, body []byte) []byte, Config) {
	t.Helper()
	cfg, keys, err := LocalConfig("turkish-rummy:rounds=1", 2, 70)
	if err != nil {
		t.Fatal(err)
	}
	net := NewMemNet(Faults{}, 70)
	p, err := NewPeer(PeerConfig{Table: cfg, Seat: 0, Key: keys[0], Transport: net.Join(cfg.Seats[0].ID), Mover: movers(1, 1)[0]})
	if err != nil {
		t.Fatal(err)
	}
	sign := func(step uint32, body []byte) []byte {
		e := &Envelope{Table: cfg.ID, Step: step, Seat: 1, Kind: KindMove, Body: body}
		if err := e.Seal(keys[1], cfg.Hash()); err != nil {
			t.Fatal(err)
		}
		return e.Raw
	}
	return p, sign, cfg
}

// TestEquivocationAhead: two different messages signed by one seat for one
// future step name that seat at once, live and in the transcript.
func TestEquivocationAhead(t *testing.T) {
	p, sign, cfg := aheadPeer(t)
	a, b := sign(9, []byte{1}), sign(9, []byte{2})
	p.n.Step(a)
	p.n.Step(a) // an exact duplicate is not a second message
	if p.n.m.Aborted() != nil {
		t.Fatalf("a duplicate aborted: %v", p.n.m.Aborted())
	}
	p.n.Step(b)
	v := p.n.m.Aborted()
	if v == nil || v.Seat != 1 || v.Rule != "equivocation" || len(v.Evidence) != 2 {
		t.Fatalf("verdict %v, want seat 1 equivocation with both messages", v)
	}
	rep := Verify(&Transcript{Config: cfg, Evidence: v.Evidence})
	if rep.Honest || rep.Violation == nil || rep.Violation.Seat != 1 || rep.Violation.Rule != "equivocation" {
		t.Fatalf("verify: %+v", rep)
	}
	// One message ahead alone is no evidence of anything.
	if rep := Verify(&Transcript{Config: cfg, Evidence: [][]byte{a}}); rep.Violation != nil && rep.Violation.Rule == "equivocation" {
		t.Fatalf("one message judged equivocation: %+v", rep)
	}
}

// TestBufferBounds: early messages are kept up to maxBuffered bytes and
// maxAhead steps; the rest are refused (fetched again later), not kept.
func TestBufferBounds(t *testing.T) {
	p, sign, _ := aheadPeer(t)
	big := make([]byte, 200<<10)
	for step := uint32(1); step <= 200; step++ {
		big[0] = byte(step)
		p.n.Step(sign(step, big))
	}
	if p.n.bufSize > maxBuffered || p.n.bufSize == 0 {
		t.Fatalf("buffered %d bytes, bound %d", p.n.bufSize, maxBuffered)
	}
	if p.n.rejects == 0 {
		t.Fatal("nothing refused past the bound")
	}
	before := p.n.rejects
	p.n.Step(sign(maxAhead+5, []byte{1}))
	if p.n.rejects != before+1 {
		t.Fatal("a message too far ahead was kept")
	}
	if p.n.m.Aborted() != nil {
		t.Fatalf("honest-looking traffic aborted: %v", p.n.m.Aborted())
	}
}
