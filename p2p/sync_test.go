package p2p

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/table"
)

func TestFetchServe(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 3, WithSyncTimeout(5*time.Second))
	tts := joinAll(t, nodes[:2], "sync", acceptAll)
	a, b := tts[0], tts[1]
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// Before Serve, requests are refused.
	if _, err := a.Fetch(ctx, b.Self(), []byte("early")); err == nil {
		t.Fatal("fetch before Serve succeeded")
	}
	release := make(chan struct{})
	b.Serve(func(from table.PeerID, req []byte) [][]byte {
		switch string(req) {
		case "slow":
			<-release
			return nil
		case "huge":
			return [][]byte{make([]byte, MaxMessageSize+1)}
		case "many":
			return make([][]byte, MaxSyncFrames+1)
		case "empty":
			return nil
		}
		return [][]byte{[]byte("from " + string(from)), req, {}, bytes.Repeat([]byte{7}, MaxMessageSize)}
	})
	// Round trip, including an empty and a maximal frame.
	got, err := a.Fetch(ctx, b.Self(), []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || string(got[0]) != "from "+string(a.Self()) || string(got[1]) != "hello" || len(got[2]) != 0 || len(got[3]) != MaxMessageSize {
		t.Fatalf("fetch returned %d frames", len(got))
	}
	if got, err := a.Fetch(ctx, b.Self(), []byte("empty")); err != nil || len(got) != 0 {
		t.Fatalf("empty response: %v %v", got, err)
	}
	// Bounds: a request too large is refused locally; a response that
	// breaks the bounds is refused by the server (stream reset).
	if _, err := a.Fetch(ctx, b.Self(), make([]byte, MaxSyncRequest+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("oversized request: %v", err)
	}
	// The largest request: a 32-byte label and a 32-byte hash.
	if got, err := a.Fetch(ctx, b.Self(), bytes.Repeat([]byte{'h'}, MaxSyncRequest)); err != nil || len(got) != 4 || len(got[1]) != MaxSyncRequest {
		t.Fatalf("maximal request: %d frames, %v", len(got), err)
	}
	for _, req := range []string{"huge", "many"} {
		if _, err := a.Fetch(ctx, b.Self(), []byte(req)); err == nil {
			t.Fatalf("%s response accepted", req)
		}
	}
	// Deadline honoured: the server stalls, the fetch ends with ctx.
	short, cancelShort := context.WithTimeout(ctx, 200*time.Millisecond)
	start := time.Now()
	_, err = a.Fetch(short, b.Self(), []byte("slow"))
	cancelShort()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Fatalf("stalled fetch: %v after %v", err, time.Since(start))
	}
	close(release)
	// Not a member: Fetch refuses to ask one, and the server resets a
	// stranger's request.
	c := nodes[2]
	if _, err := a.Fetch(ctx, table.PeerID(c.ID().String()), []byte("x")); !errors.Is(err, ErrNotMember) {
		t.Fatalf("fetch from non-member: %v", err)
	}
	if _, err := a.Fetch(ctx, "garbage", []byte("x")); err == nil {
		t.Fatal("bad peer id accepted")
	}
	s, err := c.Host().NewStream(ctx, nodes[1].ID(), SyncProtocol)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(s)
	wire.WriteFrame(w, []byte("sync"))
	wire.WriteFrame(w, []byte("let me in"))
	w.Flush()
	s.CloseWrite()
	s.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := readResponse(bufio.NewReader(s)); err == nil {
		t.Fatal("stranger got an answer")
	}
	s.Reset()
	waitFor(t, 5*time.Second, "refusals counted", func() bool { return b.Stats().Refused >= 4 })
	if st := b.Stats(); st.Served < 2 {
		t.Fatalf("served %d, want at least 2", st.Served)
	}
}

func TestReadResponseBounds(t *testing.T) {
	frame := func(parts ...[]byte) []byte {
		var buf bytes.Buffer
		for _, p := range parts {
			buf.Write(p)
		}
		return buf.Bytes()
	}
	uv := func(x uint64) []byte { return binary.AppendUvarint(nil, x) }
	cases := map[string][]byte{
		"too many frames": uv(MaxSyncFrames + 1),
		"frame too large": frame(uv(1), uv(MaxMessageSize+1)),
		"huge length":     frame(uv(1), uv(1<<62)),
		"truncated frame": frame(uv(1), uv(10), []byte("short")),
		"missing frames":  frame(uv(2), uv(1), []byte("x")),
		"empty":           {},
		"varint overflow": bytes.Repeat([]byte{0xff}, 11),
	}
	for name, in := range cases {
		if _, err := readResponse(bufio.NewReader(bytes.NewReader(in))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := readResponse(bufio.NewReader(bytes.NewReader(frame(uv(1), uv(MaxMessageSize+1))))); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("oversized frame error %v", err)
	}
	var buf bytes.Buffer
	buf.Write(uv(2))
	wire.WriteFrame(&buf, []byte("a"))
	wire.WriteFrame(&buf, nil)
	got, err := readResponse(bufio.NewReader(&buf))
	if err != nil || len(got) != 2 || string(got[0]) != "a" || len(got[1]) != 0 {
		t.Fatalf("valid response: %q %v", got, err)
	}
	_ = fmt.Sprint
	_ = strings.Contains
}

// TestSyncSilentStreams: a member that opens many sync streams, announces
// large requests or sends part of one and stays silent, holds at most
// MaxSyncStreams streams (and no large buffer) on the server; the excess is
// reset at once, other members are still served, and the held streams end
// by the server's own deadline.
func TestSyncSilentStreams(t *testing.T) {
	t.Parallel()
	// Real hosts on loopback TCP (Yamux, stream deadlines as on a LAN).
	var nodes []*Node
	var addrs []string
	for i := range 3 {
		h, err := NewHost(WithListenAddrs("/ip4/127.0.0.1/tcp/0"))
		if err != nil {
			t.Fatal(err)
		}
		nd, err := NewNode(h, WithLogger(testLogger(t).With("node", i)), WithStaticPeers(addrs...), WithRetry(fastRetry),
			WithSyncTimeout(20*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nd.Close() })
		nodes = append(nodes, nd)
		addrs = append(addrs, nd.Addrs()...)
	}
	tts := joinAll(t, nodes, "silent", acceptAll)
	a, b, c := nodes[0], nodes[1], nodes[2]
	tts[1].Serve(func(from table.PeerID, req []byte) [][]byte { return [][]byte{req} })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// open opens a stream to b, writes head, and returns a channel that
	// receives the read error when the server ends the stream.
	open := func(head []byte) (network.Stream, chan error) {
		t.Helper()
		s, err := a.Host().NewStream(ctx, b.ID(), SyncProtocol)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write(head); err != nil {
			t.Fatal(err)
		}
		ended := make(chan error, 1)
		go func() {
			_, err := s.Read(make([]byte, 1))
			if err == nil {
				err = errors.New("the server answered")
			}
			ended <- err
		}()
		return s, ended
	}
	// endedWithin reports whether the server ended the stream within d.
	endedWithin := func(ended chan error, d time.Duration) bool {
		select {
		case <-ended:
			return true
		case <-time.After(d):
			return false
		}
	}
	var idFrame bytes.Buffer
	wire.WriteFrame(&idFrame, []byte("silent"))

	// 1. Requests that announce 1 MiB: each is refused before any body is
	// read or allocated; nothing is held.
	big := append(append([]byte(nil), idFrame.Bytes()...), binary.AppendUvarint(nil, 1<<20)...)
	for i := range 100 {
		s, ended := open(big)
		if !endedWithin(ended, 5*time.Second) {
			t.Fatalf("stream %d announcing a 1 MiB request was held", i)
		}
		s.Reset()
	}
	waitFor(t, 10*time.Second, "no stream held", func() bool { return b.syncStreams(a.ID()) == 0 })

	// 2. Silent streams: a valid table id, a request length, no body.
	// MaxSyncStreams are held (until the request deadline), the rest are
	// reset unread.
	silent := append(append([]byte(nil), idFrame.Bytes()...), binary.AppendUvarint(nil, MaxSyncRequest)...)
	const n = 5 * MaxSyncStreams
	over0 := b.syncOverCap.Load()
	streams := make([]network.Stream, n)
	for i := range streams {
		streams[i], _ = open(silent)
		if k := b.syncStreams(a.ID()); k > MaxSyncStreams {
			t.Fatalf("%d streams held", k)
		}
	}
	waitFor(t, 10*time.Second, "the excess reset", func() bool { return b.syncOverCap.Load()-over0 == n-MaxSyncStreams })
	if k := b.syncStreams(a.ID()); k != MaxSyncStreams {
		t.Fatalf("%d streams held, want %d", k, MaxSyncStreams)
	}
	// Another member is served meanwhile; a, over its cap, is not.
	if got, err := tts[2].Fetch(ctx, tts[1].Self(), []byte("ok")); err != nil || len(got) != 1 || string(got[0]) != "ok" {
		t.Fatalf("other member: %q %v", got, err)
	}
	if _, err := tts[0].Fetch(ctx, tts[1].Self(), []byte("over")); err == nil {
		t.Fatal("a fetch beyond the cap was served")
	}
	// The held streams end by the server's request deadline (10 s), without
	// the client's help; then a is served again.
	waitFor(t, 30*time.Second, "the silent streams ended by the server", func() bool { return b.syncStreams(a.ID()) == 0 })
	for _, s := range streams {
		s.Reset()
	}
	if got, err := tts[0].Fetch(ctx, tts[1].Self(), []byte("again")); err != nil || len(got) != 1 {
		t.Fatalf("after the silent streams: %q %v", got, err)
	}
	_ = c
}
