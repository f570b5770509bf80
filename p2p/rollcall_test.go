package p2p

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestJoinTableThroughGossip: a 3-member table where members 0 and 1 cannot
// connect to each other (unlinked), only to member 2. Each hears the other
// through member 2's gossip (its roll call), so every JoinTable returns
// without a ready timeout, long before ctx ends, and messages flow between
// 0 and 1 through 2. Before roll calls, 0 and 1 waited for a direct join
// that never came.
func TestJoinTableThroughGossip(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodesApart(t, 3, [][2]int{{0, 1}})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	members := ids(nodes)
	tts := make([]*TableTransport, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { tts[i], errs[i] = n.JoinTable(ctx, "gossip", members, acceptAll) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d JoinTable: %v", i, err)
		}
		t.Cleanup(func() { tts[i].Close() })
	}
	if nodes[0].Connected(nodes[1].ID()) || nodes[1].Connected(nodes[0].ID()) {
		t.Fatal("members 0 and 1 connected directly: the test proves nothing")
	}
	if slices.Contains(tts[0].topic.ListPeers(), nodes[1].ID()) {
		t.Fatal("the topic lists member 1 as member 0's peer")
	}
	exchange(t, tts, 5)
	for i, tt := range tts {
		if s := tt.Stats(); s.Rejected != 0 {
			t.Errorf("node %d rejected %d messages: %v", i, s.Rejected, s.RejectReasons)
		}
	}
}

// TestRollCallAnswered: a member that opens the table after the others are
// ready, and reaches one of them only through another's gossip, is answered
// (the ready ones no longer call on their own): its JoinTable returns.
func TestRollCallAnswered(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodesApart(t, 3, [][2]int{{0, 1}})
	members := ids(nodes)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// 0 and 2 open first, not waiting for 1.
	var early []*TableTransport
	for _, n := range []*Node{nodes[0], nodes[2]} {
		tt, err := n.JoinTable(ctx, "late", members, acceptAll, WithReadyTimeout(300*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tt.Close() })
		early = append(early, tt)
	}
	// Let every periodic call of theirs stop.
	waitFor(t, 10*time.Second, "0 and 2 to stop calling", func() bool {
		return !early[0].calling.Load() && !early[1].calling.Load()
	})
	tt, err := nodes[1].JoinTable(ctx, "late", members, acceptAll)
	if err != nil {
		t.Fatalf("late member: %v", err)
	}
	t.Cleanup(func() { tt.Close() })
}

func TestRollCallCodec(t *testing.T) {
	for _, heard := range [][]bool{{true}, {true, false, true, true}, {false, false, false, false, false, false, false, false, true}} {
		got, err := decodeRollCall(encodeRollCall(heard), len(heard))
		if err != nil || !slices.Equal(got, heard) {
			t.Fatalf("%v: round trip %v, %v", heard, got, err)
		}
	}
	if got := encodeRollCall([]bool{true, false, true, true}); !bytes.Equal(got, []byte{'O', 'K', 'R', 1, 0, 4, 0x0d}) {
		t.Fatalf("encoding %x", got)
	}
	for name, data := range map[string][]byte{
		"empty":       nil,
		"magic":       []byte("OKR"),
		"envelope":    []byte("OKY\x01\x00\x04\x0d"),
		"version":     {'O', 'K', 'R', 2, 0, 4, 0x0d},
		"count":       {'O', 'K', 'R', 1, 0, 3, 0x05},
		"short":       {'O', 'K', 'R', 1, 0, 4},
		"long":        {'O', 'K', 'R', 1, 0, 4, 0x0d, 0},
		"unused bits": {'O', 'K', 'R', 1, 0, 4, 0x1d},
	} {
		if _, err := decodeRollCall(data, 4); err == nil {
			t.Errorf("%s: %x accepted", name, data)
		}
	}
}

func FuzzDecodeRollCall(f *testing.F) {
	f.Add(encodeRollCall([]bool{true, false, true, true}), 4)
	f.Add([]byte("OKR\x01\x00\x09\xff\x01"), 9)
	f.Fuzz(func(t *testing.T, data []byte, members int) {
		if members < 1 || members > 300 {
			return
		}
		heard, err := decodeRollCall(data, members)
		if err != nil {
			return
		}
		if len(heard) != members || !bytes.Equal(encodeRollCall(heard), data) {
			t.Fatalf("%x decoded to %v, which encodes differently", data, heard)
		}
	})
}
