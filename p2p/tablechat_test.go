package p2p

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/p2p/invite"
	"github.com/okey-game/okey/table"
)

// nextChat waits for the next chat message of tt.
func nextChat(ctx context.Context, t *testing.T, tt *TableTransport, what string) ChatMessage {
	t.Helper()
	select {
	case m := <-tt.ChatInbox():
		return m
	case <-ctx.Done():
		t.Fatalf("%s: no chat message", what)
	}
	return ChatMessage{}
}

// noChat checks that tt has no chat message waiting.
func noChat(t *testing.T, tt *TableTransport, what string) {
	t.Helper()
	select {
	case m := <-tt.ChatInbox():
		t.Fatalf("%s: unexpected chat message from member %d: %+v", what, m.Member, m.Msg)
	default:
	}
}

// TestTableChat (protocol.md 7.13): a member's chat reaches every other
// member and a spectator (by catch-up); a spectator cannot post (SendChat
// refuses, and a raw post on the chat topic is rejected by the member it
// reaches and forwarded to no one); a member cannot post in another's
// name; a member's posts beyond the rate limit, and replays, are dropped;
// the table's topic carries no chat.
func TestTableChat(t *testing.T) {
	t.Parallel()
	// Node 3, the spectator, is linked to member 0 only: whatever it posts
	// reaches the others only if member 0 forwards it.
	_, nodes := mockNodesApart(t, 4, [][2]int{{3, 1}, {3, 2}}, WithSyncTimeout(5*time.Second), WithChatPoll(100*time.Millisecond))
	members := nodes[:3]
	tts := joinAll(t, members, "chat", acceptAll)
	for _, tt := range tts {
		tt.Serve(func(table.PeerID, []byte) [][]byte { return nil })
	}
	tts[0].AdmitSpectators(AnySpectator)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// A quick message and a text, from two members.
	if _, err := tts[0].SendChat(ctx, 1, ""); err != nil {
		t.Fatal(err)
	}
	if own := nextChat(ctx, t, tts[0], "own"); !own.Own || own.Member != 0 || own.Msg.Quick != 1 {
		t.Fatalf("own message %+v", own)
	}
	for _, k := range []int{1, 2} {
		m := nextChat(ctx, t, tts[k], "member's quick message")
		if m.Member != 0 || m.From != tts[0].Self() || m.Msg.Kind != chat.KindQuick || m.Msg.Quick != 1 || m.Own {
			t.Fatalf("member %d got %+v %+v", k, m, m.Msg)
		}
	}
	if _, err := tts[2].SendChat(ctx, 0, "iyi oyunlar"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 2} {
		if m := nextChat(ctx, t, tts[k], "text"); m.Member != 2 || m.Msg.Text != "iyi oyunlar" {
			t.Fatalf("member %d got %+v", k, m.Msg)
		}
	}

	// The spectator reads both, from member 0's history.
	sp, err := nodes[3].WatchTable(ctx, "chat", ids(members), acceptAll, WithReadyTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	if m := nextChat(ctx, t, sp, "spectator, first"); m.Member != 0 || m.Msg.Quick != 1 {
		t.Fatalf("spectator got %+v", m.Msg)
	}
	if m := nextChat(ctx, t, sp, "spectator, second"); m.Member != 2 || m.Msg.Text != "iyi oyunlar" {
		t.Fatalf("spectator got %+v", m.Msg)
	}
	// Later messages reach it too, once: its polls repeat the history.
	if _, err := tts[1].SendChat(ctx, 0, "selam"); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(ctx, t, sp, "spectator, third"); m.Member != 1 || m.Msg.Text != "selam" {
		t.Fatalf("spectator got %+v", m.Msg)
	}
	time.Sleep(300 * time.Millisecond) // three more polls
	noChat(t, sp, "spectator after polls")
	for _, k := range []int{0, 1, 2} {
		nextChat(ctx, t, tts[k], "selam")
	}

	// The spectator may not post.
	if _, err := sp.SendChat(ctx, 1, ""); !errors.Is(err, ErrChatUnavailable) {
		t.Fatalf("a spectator's SendChat: %v", err)
	}
	key3, err := nodes[3].signingKey()
	if err != nil {
		t.Fatal(err)
	}
	topic, err := nodes[3].ps.Join(chatTopic("chat"))
	if err != nil {
		t.Fatal(err)
	}
	forged, err := (&chat.Message{Table: "chat", Member: 0, Time: uint64(time.Now().UnixMilli()), Kind: chat.KindText, Text: "I am seat 0"}).Sign(key3)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; tts[0].ChatStats().Rejected == 0; i++ {
		if i == 100 {
			t.Fatal("member 0 never rejected the spectator's post")
		}
		if err := topic.Publish(ctx, forged); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A member posing as another is rejected too.
	key1, err := nodes[1].signingKey()
	if err != nil {
		t.Fatal(err)
	}
	posing, err := (&chat.Message{Table: "chat", Member: 0, Time: uint64(time.Now().UnixMilli()), Kind: chat.KindQuick, Quick: 2}).Sign(key1)
	if err != nil {
		t.Fatal(err)
	}
	if err := tts[1].chat.topic.Publish(ctx, posing); err != nil {
		t.Fatal(err)
	}
	// A marker from member 0 after them: had member 0 forwarded the
	// spectator's post, members 1 and 2 would have it before the marker.
	if _, err := tts[0].SendChat(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2} {
		if m := nextChat(ctx, t, tts[k], "marker"); m.Member != 0 || m.Msg.Quick != 3 {
			t.Fatalf("member %d got %+v before the marker", k, m.Msg)
		}
	}
	waitFor(t, 10*time.Second, "the posing message's rejection", func() bool {
		return tts[0].ChatStats().Rejected >= 2 && tts[2].ChatStats().Rejected >= 1
	})
	if r := tts[1].ChatStats().Rejected; r != 0 {
		t.Fatalf("member 1, which the spectator cannot reach, rejected %d: member 0 forwarded it", r)
	}
	nextChat(ctx, t, tts[0], "own marker")
	for k, tt := range tts {
		noChat(t, tt, "after the forged posts, member "+string(rune('0'+k)))
	}

	// Rate limit: member 1 posts 8 valid messages at once (past its own
	// limit, raw): the others accept 5 and drop 3; a replay is dropped.
	time.Sleep(chat.Window) // member 1's "selam" out of the window
	ig0 := []uint64{tts[0].ChatStats().Ignored, 0, tts[2].ChatStats().Ignored}
	var raws [][]byte
	base := uint64(time.Now().UnixMilli())
	for i := range 8 {
		raw, err := (&chat.Message{Table: "chat", Member: 1, Time: base + uint64(i) + 1000, Kind: chat.KindQuick, Quick: 1 + i}).Sign(key1)
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
		if err := tts[1].chat.topic.Publish(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	if err := tts[1].chat.topic.Publish(ctx, raws[0]); err != nil { // a replay
		t.Fatal(err)
	}
	for _, k := range []int{0, 2} {
		// Gossip may reorder them: any 5 of the 8, each once.
		got := map[int]bool{}
		for i := range chat.MaxPerWindow {
			if m := nextChat(ctx, t, tts[k], "rate"); m.Member != 1 || got[m.Msg.Quick] {
				t.Fatalf("member %d: message %d is %+v", k, i, m.Msg)
			} else {
				got[m.Msg.Quick] = true
			}
		}
		waitFor(t, 10*time.Second, "the dropped messages", func() bool { return tts[k].ChatStats().Ignored == ig0[k]+4 })
		time.Sleep(100 * time.Millisecond)
		noChat(t, tts[k], "beyond the rate limit")
	}
	// The sender's own limit: 4 within the window.
	for i := range chat.SendPerWindow {
		if _, err := tts[2].SendChat(ctx, 1, ""); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if _, err := tts[2].SendChat(ctx, 1, ""); !errors.Is(err, chat.ErrTooFast) {
		t.Fatalf("fifth send: %v", err)
	}
	// No chat message ever reached a table's inbox, nor met the table
	// topic's checks (an older peer's validator never sees one).
	for k, tt := range tts {
		if st := tt.Stats(); st.Rejected != 0 || st.Delivered != 0 {
			t.Fatalf("member %d's table topic rejected %d and delivered %d messages", k, st.Rejected, st.Delivered)
		}
		select {
		case p := <-tt.Inbox():
			t.Fatalf("member %d's table inbox got %q", k, p.Data)
		default:
		}
	}
}

// TestPrivateTableChat: at a private table a spectator reads the chat only
// once it proved it holds the table's secret (protocol.md 7.12): before,
// the members refuse its chat requests as they refuse its catch-up; a
// stranger that asks gets nothing.
func TestPrivateTableChat(t *testing.T) {
	t.Parallel()
	_, nodes := mockNodes(t, 4, WithSyncTimeout(5*time.Second), WithChatPoll(100*time.Millisecond))
	members := nodes[:2]
	tts := joinAll(t, members, "secret", acceptAll)
	secret, err := invite.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tts {
		tt.Serve(func(table.PeerID, []byte) [][]byte { return nil })
		tt.AdmitSpectatorsBySecret(nodes[0].ID(), secret)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := tts[0].SendChat(ctx, 0, "just us"); err != nil {
		t.Fatal(err)
	}
	nextChat(ctx, t, tts[1], "member")
	sp, err := nodes[2].WatchTable(ctx, "secret", ids(members), acceptAll, WithReadyTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	// A stranger's chat request is refused outright.
	if rawFetch(ctx, t, nodes[3], nodes[0].ID(), "secret", ChatRequest) == nil {
		t.Fatal("a stranger got the private table's chat")
	}
	waitFor(t, 10*time.Second, "the spectator's refused polls", func() bool { return tts[0].Stats().Refused+tts[1].Stats().Refused >= 3 })
	noChat(t, sp, "before the proof")
	proof := SpectatorRequest(secret.SpectatorProof("secret", []byte(nodes[0].ID()), []byte(nodes[2].ID())))
	for _, tt := range tts {
		if _, err := sp.Fetch(ctx, tt.Self(), proof); err != nil {
			t.Fatalf("the proof: %v", err)
		}
	}
	if m := nextChat(ctx, t, sp, "after the proof"); m.Member != 0 || m.Msg.Text != "just us" {
		t.Fatalf("spectator got %+v", m.Msg)
	}
}
