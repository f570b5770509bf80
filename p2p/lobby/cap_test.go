package lobby

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/internal/wire"
)

// lobbyStream opens a Protocol stream from x to the creator and writes
// head (which carries the protocol negotiation with it); ended receives the
// read error once the creator ends the stream, or the answer's bytes.
func lobbyStream(t *testing.T, ctx context.Context, x, creator *p2p.Node, head []byte) (network.Stream, chan error) {
	t.Helper()
	s, err := x.Host().NewStream(ctx, creator.ID(), Protocol)
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
			err = errors.New("the creator answered")
		}
		ended <- err
	}()
	return s, ended
}

// lobbyCapNodes makes a creator (with cfg) hosting a 4-seat table, and
// others that know the table.
func lobbyCapNodes(t *testing.T, n int, cfg Config) ([]*p2p.Node, string) {
	t.Helper()
	_, nodes := mockNodesWith(t, n, cfg)
	ann, err := lob(nodes[0]).Create("classic", nil, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range nodes[1:] {
		waitTable(t, lob(x), ann.Table, func(_ Announcement, ok bool) bool { return ok })
	}
	return nodes, ann.Table
}

// TestLobbyPeerStreamCap: a peer's streams beyond MaxPeerStreams are
// reset at once and unread, its first ones are held (until the first-frame
// deadline), and other peers are served meanwhile.
func TestLobbyPeerStreamCap(t *testing.T) {
	t.Parallel()
	// A first-frame deadline far away: only the cap ends streams here.
	cfg := fastLobby
	cfg.RequestTimeout, cfg.FirstFrameTimeout = time.Minute, time.Minute
	nodes, id := lobbyCapNodes(t, 3, cfg)
	creator, x, honest := nodes[0], nodes[1], nodes[2]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	silent := binary.AppendUvarint(nil, 100) // a request announced, never sent
	g := &lob(creator).gate
	var held []network.Stream
	for i := range MaxPeerStreams {
		s, ended := lobbyStream(t, ctx, x, creator, silent)
		held = append(held, s)
		waitFor(t, 5*time.Second, fmt.Sprintf("stream %d held", i+1), func() bool { k, _ := g.Streams(x.ID()); return k == i+1 })
		select {
		case err := <-ended:
			t.Fatalf("stream %d within the cap ended: %v", i+1, err)
		default:
		}
	}
	// The N+1th stream is reset, unread.
	over0 := g.OverCap.Load()
	_, ended := lobbyStream(t, ctx, x, creator, silent)
	select {
	case err := <-ended:
		if !errors.Is(err, network.ErrReset) {
			t.Fatalf("stream over the cap ended with %v, want a reset", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stream over the cap was held")
	}
	if g.OverCap.Load() != over0+1 {
		t.Fatalf("over-cap count %d, want %d", g.OverCap.Load(), over0+1)
	}
	if k, _ := g.Streams(x.ID()); k != MaxPeerStreams {
		t.Fatalf("%d streams of x held, want %d", k, MaxPeerStreams)
	}
	// x's own join, over its cap, is refused; another peer's is served.
	if _, err := lob(x).Join(ctx, id); err == nil {
		t.Fatal("a join over the peer's cap was served")
	}
	if _, err := lob(honest).Join(ctx, id); err != nil {
		t.Fatalf("another peer's join: %v", err)
	}
	// Once x's idle streams end, x is served again.
	for _, s := range held {
		s.Reset()
	}
	waitFor(t, 5*time.Second, "x's streams freed", func() bool { k, _ := g.Streams(x.ID()); return k == 0 })
	a, err := lob(x).Join(ctx, id)
	if err != nil || len(a.Members) != 3 {
		t.Fatalf("x's join after its streams ended: %d members, %v", len(a.Members), err)
	}
}

// TestLobbyFirstFrameDeadline: a stream whose request does not come whole
// within the first-frame deadline is reset by the creator, silent or
// trickling, long before the request timeout; it changes nothing.
func TestLobbyFirstFrameDeadline(t *testing.T) {
	t.Parallel()
	cfg := fastLobby
	cfg.RequestTimeout, cfg.FirstFrameTimeout = time.Minute, 300*time.Millisecond
	nodes, id := lobbyCapNodes(t, 2, cfg)
	creator, x := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before, _ := lob(creator).Table(id)
	g := &lob(creator).gate

	// A request whose length comes and nothing more.
	start := time.Now()
	_, ended := lobbyStream(t, ctx, x, creator, binary.AppendUvarint(nil, 100))
	select {
	case err := <-ended:
		if !errors.Is(err, network.ErrReset) {
			t.Fatalf("silent stream ended with %v, want a reset", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("silent stream held past the first-frame deadline")
	}
	if took := time.Since(start); took < cfg.FirstFrameTimeout {
		t.Fatalf("silent stream ended after %v, before the %v deadline", took, cfg.FirstFrameTimeout)
	}
	// A valid join, one byte every 50 ms: it would take about 8 s.
	b, err := json.Marshal(lobbyRequest{V: AnnouncementVersion, Table: id, Op: "join", Name: "slow", Nonce: NewNonce().String()})
	if err != nil {
		t.Fatal(err)
	}
	var frame bytes.Buffer
	wire.WriteFrame(&frame, b)
	s, ended := lobbyStream(t, ctx, x, creator, frame.Bytes()[:1])
	trickled := make(chan struct{})
	go func() {
		defer close(trickled)
		for _, c := range frame.Bytes()[1:] {
			select {
			case <-time.After(50 * time.Millisecond):
			case <-ctx.Done():
				return
			}
			if _, err := s.Write([]byte{c}); err != nil {
				return
			}
		}
	}()
	select {
	case err := <-ended:
		if !errors.Is(err, network.ErrReset) {
			t.Fatalf("trickling stream ended with %v, want a reset", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("trickling stream held past the first-frame deadline")
	}
	s.Reset()
	<-trickled
	waitFor(t, 5*time.Second, "places freed", func() bool { _, n := g.Streams(""); return n == 0 })
	if after, _ := lob(creator).Table(id); after.Seq != before.Seq || len(after.Members) != 1 {
		t.Fatalf("a late request changed the table: seq %d -> %d, %d members", before.Seq, after.Seq, len(after.Members))
	}
	// A prompt request is served.
	if _, err := lob(x).Join(ctx, id); err != nil {
		t.Fatalf("prompt join: %v", err)
	}
}

// TestLobbyOversizeRequest: a request frame above MaxRequest is
// refused with code invalid and a reason, before its body is read, and
// changes nothing; one of exactly MaxRequest bytes is read and
// decided. The requester refuses to send one.
func TestLobbyOversizeRequest(t *testing.T) {
	t.Parallel()
	nodes, id := lobbyCapNodes(t, 2, fastLobby)
	creator, x := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before, _ := lob(creator).Table(id)

	// ask sends a join whose name pads the frame to size bytes of JSON, or
	// only a length prefix when body is false; it returns the answer.
	ask := func(size int, body bool) (lobbyResponse, error) {
		var frame bytes.Buffer
		if body {
			req := lobbyRequest{V: AnnouncementVersion, Table: id, Op: "join", Nonce: NewNonce().String()}
			b, _ := json.Marshal(req)
			req.Name = strings.Repeat("n", size-len(b)-len(`,"name":""`))
			b, _ = json.Marshal(req)
			if len(b) != size {
				t.Fatalf("padded request of %d bytes, want %d", len(b), size)
			}
			wire.WriteFrame(&frame, b)
		} else {
			frame.Write(binary.AppendUvarint(nil, uint64(size)))
		}
		s, err := x.Host().NewStream(ctx, creator.ID(), Protocol)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Reset()
		if _, err := s.Write(frame.Bytes()); err != nil {
			return lobbyResponse{}, err
		}
		s.CloseWrite()
		rb, err := wire.ReadFrame(bufio.NewReader(s), maxLobbyResponse)
		if err != nil {
			return lobbyResponse{}, err
		}
		var resp lobbyResponse
		return resp, strictUnmarshal(rb, &resp)
	}
	for _, c := range []struct {
		size int
		body bool
	}{{MaxRequest + 1, true}, {4 * MaxRequest, true}, {lobbyDiscard, true}, {1 << 30, false}} {
		resp, err := ask(c.size, c.body)
		if err != nil {
			t.Fatalf("request of %d bytes: no answer: %v", c.size, err)
		}
		want := fmt.Sprintf("%d bytes, at most %d", c.size, MaxRequest)
		if resp.V != AnnouncementVersion || resp.Code != "invalid" || resp.Table != nil || !strings.Contains(resp.Error, "too large") || !strings.Contains(resp.Error, want) {
			t.Fatalf("request of %d bytes answered %+v", c.size, resp)
		}
	}
	// More than lobbyDiscard after the length prefix: reset, unanswered.
	if resp, err := ask(2*lobbyDiscard, true); err == nil {
		t.Fatalf("request of %d bytes answered %+v", 2*lobbyDiscard, resp)
	}
	if after, _ := lob(creator).Table(id); after.Seq != before.Seq || len(after.Members) != 1 {
		t.Fatalf("an over-size request changed the table: seq %d -> %d", before.Seq, after.Seq)
	}
	// Exactly the bound is read and decided (refused here for its long name,
	// not for its size).
	resp, err := ask(MaxRequest, true)
	if err != nil || resp.Code != "invalid" || strings.Contains(resp.Error, "too large") {
		t.Fatalf("request of %d bytes: %+v %v", MaxRequest, resp, err)
	}
	// The requester's side refuses to send an over-size request.
	_, err = lob(x).request(ctx, id, lobbyRequest{Op: "join", Name: strings.Repeat("n", MaxRequest), Nonce: NewNonce().String()})
	if !errors.Is(err, p2p.ErrFrameTooLarge) {
		t.Fatalf("over-size request sent: %v", err)
	}
	if after, _ := lob(creator).Table(id); after.Seq != before.Seq || len(after.Members) != 1 {
		t.Fatalf("the table changed: seq %d -> %d", before.Seq, after.Seq)
	}
}

// TestLobbyOtherVersionRefused: a join of an older okey's lobby version (2:
// its table speaks table protocol 1) is refused with code invalid and a
// reason that names both versions, and changes nothing: an old and a new
// peer never sit at one table (protocol.md 7.6).
func TestLobbyOtherVersionRefused(t *testing.T) {
	t.Parallel()
	nodes, id := lobbyCapNodes(t, 2, fastLobby)
	creator, x := nodes[0], nodes[1]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before, _ := lob(creator).Table(id)
	b, _ := json.Marshal(lobbyRequest{V: AnnouncementVersion - 1, Table: id, Op: "join", Name: "old", Nonce: NewNonce().String()})
	var frame bytes.Buffer
	wire.WriteFrame(&frame, b)
	s, err := x.Host().NewStream(ctx, creator.ID(), Protocol)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Reset()
	if _, err := s.Write(frame.Bytes()); err != nil {
		t.Fatal(err)
	}
	s.CloseWrite()
	rb, err := wire.ReadFrame(bufio.NewReader(s), maxLobbyResponse)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	var resp lobbyResponse
	if err := strictUnmarshal(rb, &resp); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("lobby version %d, this okey speaks %d", AnnouncementVersion-1, AnnouncementVersion)
	if resp.V != AnnouncementVersion || resp.Code != "invalid" || resp.Table != nil || !strings.Contains(resp.Error, want) {
		t.Fatalf("an old version's join answered %+v", resp)
	}
	if after, _ := lob(creator).Table(id); after.Seq != before.Seq || len(after.Members) != 1 {
		t.Fatalf("an old version's join changed the table: seq %d -> %d", before.Seq, after.Seq)
	}
}
