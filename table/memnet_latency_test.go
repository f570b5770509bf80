package table

import (
	"context"
	"testing"
	"time"
)

// TestMemNetLatency: with a fixed latency every message arrives no sooner
// than that after it was sent, and a sender's messages arrive in the order
// it sent them.
func TestMemNetLatency(t *testing.T) {
	const d = 30 * time.Millisecond
	net := NewMemNet(Faults{Latency: d}, 1)
	a, b := net.Join("a"), net.Join("b")
	defer a.Close()
	defer b.Close()
	var sent []time.Time
	for i := range 5 {
		sent = append(sent, time.Now())
		if err := a.Broadcast(context.Background(), []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	deadline := time.After(10 * time.Second)
	for i := range 5 {
		select {
		case p := <-b.Inbox():
			if got := time.Since(sent[i]); got < d {
				t.Errorf("message %d arrived %v after it was sent, want at least %v", i, got, d)
			}
			if p.From != "a" || len(p.Data) != 1 || p.Data[0] != byte(i) {
				t.Fatalf("message %d: got %v from %s, want [%d] from a", i, p.Data, p.From, i)
			}
		case <-deadline:
			t.Fatalf("message %d never arrived", i)
		}
	}
}
