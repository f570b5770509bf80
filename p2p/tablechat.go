package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/chat"
	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/table"
)

// Table chat (protocol.md 7.13): the members talk on a topic of their own,
// okey/chat/1/<table id>, beside the table's topic and never on it, so
// that a chat message never meets the table protocol's checks and an older
// peer, which does not subscribe to it, never sees one. The topic is the
// members' as the table's is (subFilter, meshFilter: a non-member's
// subscription is ignored, its messages rejected). Spectators read the
// chat by asking a member over the sync protocol (ChatRequest), as they
// read the chain; they never post.

// chatTopic is the chat topic of table id.
func chatTopic(id string) string { return ChatTopicPrefix + id }

// defaultChatPoll is how often a spectator asks a member for the chat
// (WithChatPoll).
const defaultChatPoll = 2 * time.Second

// ChatMessage is a chat message accepted at this node: its author's roster
// index and peer, the message, and its bytes (for the chat file).
type ChatMessage struct {
	Member int
	From   table.PeerID
	Msg    *chat.Message
	Raw    []byte
	Own    bool // this node sent it
}

// tableChat is a table's chat at this node.
type tableChat struct {
	topicName string
	topic     *pubsub.Topic
	sub       *pubsub.Subscription
	in        chan ChatMessage

	mu     sync.Mutex
	guard  chat.Guard
	sender chat.Sender
	recent [][]byte

	accepted, rejected, ignored, lost atomic.Uint64
	// fetchMu serialises a spectator's fetches (the table's and the
	// chat's): a member serves one sync stream of a spectator at a time.
	fetchMu sync.Mutex
}

func newTableChat(id string) *tableChat {
	return &tableChat{topicName: chatTopic(id), in: make(chan ChatMessage, 64)}
}

// ChatStats counts a table's chat messages at this node.
type ChatStats struct {
	// Accepted messages were delivered (own ones included); Rejected
	// failed a MUST (not a member, malformed, bad signature); Ignored were
	// replays, stale or over the rate limit; Lost found ChatInbox full.
	Accepted, Rejected, Ignored, Lost uint64
}

// ChatStats returns the chat's counters.
func (t *TableTransport) ChatStats() ChatStats {
	c := t.chat
	return ChatStats{Accepted: c.accepted.Load(), Rejected: c.rejected.Load(), Ignored: c.ignored.Load(), Lost: c.lost.Load()}
}

// ChatInbox delivers the table's accepted chat messages, this node's own
// included, in arrival order. It is never closed; a message that finds it
// full is dropped (ChatStats.Lost).
func (t *TableTransport) ChatInbox() <-chan ChatMessage { return t.chat.in }

// openChat joins the chat topic (a member, after the table's topic).
func (t *TableTransport) openChat() error {
	n, c := t.n, t.chat
	if err := n.ps.RegisterTopicValidator(c.topicName, t.chatValidator); err != nil {
		return fmt.Errorf("p2p: table %s: register chat validator: %w", t.id, err)
	}
	topic, err := n.ps.Join(c.topicName)
	if err != nil {
		return fmt.Errorf("p2p: table %s: join chat topic: %w", t.id, err)
	}
	c.topic = topic
	t.purgeTopic(topic)
	sub, err := topic.Subscribe(pubsub.WithBufferSize(16))
	if err != nil {
		return fmt.Errorf("p2p: table %s: subscribe to chat: %w", t.id, err)
	}
	c.sub = sub
	// Messages are delivered by the validator; the subscription is only
	// drained.
	t.wg.Go(func() {
		for {
			if _, err := sub.Next(t.ctx); err != nil {
				return
			}
		}
	})
	return nil
}

// closeChat leaves the chat topic (Close).
func (t *TableTransport) closeChat() error {
	c, n := t.chat, t.n
	if c.sub != nil {
		c.sub.Cancel()
	}
	var err error
	if c.topic != nil {
		err = wire.CloseTopic(n.ctx, c.topic)
		if e := n.ps.UnregisterTopicValidator(c.topicName); e != nil && n.ctx.Err() == nil {
			n.log.Debug("unregister chat validator", "table", t.id, "err", e)
		}
	}
	return err
}

// memberKey is member i's Ed25519 key (from its peer id).
func (t *TableTransport) memberKey(i int) (ed25519.PublicKey, error) {
	pk, err := t.members[i].ExtractPublicKey()
	if err != nil {
		return nil, err
	}
	raw, err := pk.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("p2p: member %d's key is not Ed25519", i)
	}
	return ed25519.PublicKey(raw), nil
}

// checkChat decodes and checks a chat message (protocol.md 7.13's MUSTs):
// for this table, by a member, signed by that member's key; author, when
// set, must be that member.
func (t *TableTransport) checkChat(data []byte, author peer.ID) (*chat.Message, error) {
	if len(data) > chat.MaxMessage {
		return nil, fmt.Errorf("%d bytes, at most %d", len(data), chat.MaxMessage)
	}
	m, err := chat.Decode(data)
	if err != nil {
		return nil, err
	}
	if m.Table != t.id {
		return nil, fmt.Errorf("for table %q", m.Table)
	}
	if m.Member >= len(t.members) {
		return nil, fmt.Errorf("member %d of %d", m.Member, len(t.members))
	}
	if author != "" && t.members[m.Member] != author {
		return nil, fmt.Errorf("member %d is not its author", m.Member)
	}
	key, err := t.memberKey(m.Member)
	if err != nil {
		return nil, err
	}
	if err := m.Verify(key); err != nil {
		return nil, err
	}
	return m, nil
}

// chatValidator is the chat topic's validator: a member's valid message is
// accepted (delivered and forwarded) unless the guard drops it (ignored:
// neither delivered nor forwarded, and not held against the forwarder).
func (t *TableTransport) chatValidator(_ context.Context, _ peer.ID, pm *pubsub.Message) pubsub.ValidationResult {
	author := pm.GetFrom()
	if author == t.n.h.ID() {
		return pubsub.ValidationAccept
	}
	c := t.chat
	if !t.memberSet[author] {
		c.rejected.Add(1)
		t.n.log.Warn("rejected chat message", "table", t.id, "author", author.String(), "reason", "author is not a member")
		return pubsub.ValidationReject
	}
	m, err := t.checkChat(pm.Data, author)
	if err != nil {
		c.rejected.Add(1)
		t.n.log.Warn("rejected chat message", "table", t.id, "author", author.String(), "err", err)
		return pubsub.ValidationReject
	}
	c.mu.Lock()
	err = c.guard.Admit(m, time.Now(), true)
	if err == nil {
		c.keep(pm.Data)
	}
	c.mu.Unlock()
	if err != nil {
		c.ignored.Add(1)
		t.n.log.Debug("dropped chat message", "table", t.id, "author", author.String(), "member", m.Member, "time", m.Time, "err", err)
		return pubsub.ValidationIgnore
	}
	t.deliverChat(ChatMessage{Member: m.Member, From: table.PeerID(author.String()), Msg: m, Raw: pm.Data})
	return pubsub.ValidationAccept
}

// keep adds a message to the history served to spectators (c.mu held).
func (c *tableChat) keep(raw []byte) {
	c.recent = append(c.recent, raw)
	if len(c.recent) > chatHistory {
		c.recent = append(c.recent[:0:0], c.recent[len(c.recent)-chatHistory:]...)
	}
}

// history is the answer to ChatRequest.
func (c *tableChat) history() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.recent...)
}

func (t *TableTransport) deliverChat(m ChatMessage) {
	select {
	case t.chat.in <- m:
		t.chat.accepted.Add(1)
	default:
		t.chat.lost.Add(1)
	}
}

// SendChat posts a chat message at the table: a quick message (quick > 0)
// or a free text. It fails with chat.ErrTooFast beyond the sender's rate
// limit, with ErrChatUnavailable at a table this node watches. The message
// is delivered to ChatInbox too.
func (t *TableTransport) SendChat(ctx context.Context, quick int, text string) (*chat.Message, error) {
	if t.ctx.Err() != nil {
		return nil, ErrClosed
	}
	c := t.chat
	if t.spectator || c.topic == nil {
		return nil, ErrChatUnavailable
	}
	key, err := t.n.signingKey()
	if err != nil {
		return nil, err
	}
	m := &chat.Message{Table: t.id, Member: t.selfIndex, Kind: chat.KindText, Text: text}
	if quick > 0 {
		m.Kind, m.Quick, m.Text = chat.KindQuick, quick, ""
	}
	c.mu.Lock()
	tm, err := c.sender.Next(time.Now())
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	m.Time = tm
	raw, err := m.Sign(key)
	if err == nil {
		err = c.guard.Admit(m, time.Now(), false)
		c.keep(raw)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := c.topic.Publish(ctx, raw); err != nil {
		return nil, fmt.Errorf("p2p: table %s: publish chat: %w", t.id, err)
	}
	t.deliverChat(ChatMessage{Member: m.Member, From: t.Self(), Msg: m, Raw: raw, Own: true})
	return m, nil
}

// signingKey is the node's identity key as an Ed25519 key.
func (n *Node) signingKey() (ed25519.PrivateKey, error) {
	pk := n.h.Peerstore().PrivKey(n.h.ID())
	if pk == nil {
		return nil, errors.New("p2p: the node's key is not in its peerstore")
	}
	raw, err := pk.Raw()
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil, errors.New("p2p: the node's key is not Ed25519")
	}
	return ed25519.PrivateKey(raw), nil
}

// pollChat is a spectator's chat reader: every chatPoll it asks one member
// (in turn; the next one at once after a failure) for its recent chat, checks every message
// as the topic's validator does (but for the clock and the rate: history
// may be old), and delivers what it has not seen.
func (t *TableTransport) pollChat() {
	defer t.wg.Done()
	tick := time.NewTicker(t.n.cfg.chatPoll)
	defer tick.Stop()
	// Spectators spread over the members, as their catch-up does.
	self := t.n.h.ID()
	next := int(self[len(self)-1])
	for {
		// One member a round, the next one each time (and at once the next
		// when one does not answer): a member that has no chat (an older
		// peer: no frames) never keeps the spectator from the others'.
		for range t.others {
			p := t.others[next%len(t.others)]
			next++
			if t.n.Connected(p) && t.fetchChat(p) == nil {
				break
			}
		}
		select {
		case <-t.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// fetchChat asks member p for its recent chat and delivers the new
// messages.
func (t *TableTransport) fetchChat(p peer.ID) error {
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	frames, err := t.Fetch(ctx, table.PeerID(p.String()), []byte(ChatRequest))
	if err != nil {
		return err
	}
	c := t.chat
	for _, f := range frames {
		m, err := t.checkChat(f, "")
		if err != nil {
			c.rejected.Add(1)
			t.n.log.Warn("rejected chat message served by a member", "table", t.id, "member", p.String(), "err", err)
			continue
		}
		c.mu.Lock()
		err = c.guard.Admit(m, time.Now(), false)
		c.mu.Unlock()
		if err != nil {
			continue // seen already
		}
		t.deliverChat(ChatMessage{Member: m.Member, From: table.PeerID(t.members[m.Member].String()), Msg: m, Raw: f})
	}
	return nil
}
