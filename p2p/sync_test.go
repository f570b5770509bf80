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
	if _, err := a.Fetch(ctx, b.Self(), make([]byte, MaxMessageSize+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("oversized request: %v", err)
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
	writeFrame(w, []byte("sync"))
	writeFrame(w, []byte("let me in"))
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
	writeFrame(&buf, []byte("a"))
	writeFrame(&buf, nil)
	got, err := readResponse(bufio.NewReader(&buf))
	if err != nil || len(got) != 2 || string(got[0]) != "a" || len(got[1]) != 0 {
		t.Fatalf("valid response: %q %v", got, err)
	}
	_ = fmt.Sprint
	_ = strings.Contains
}
