package p2p

import (
	pubsub "github.com/libp2p/go-libp2p-pubsub"
)

// WithoutForwarding makes the node a member that stops forwarding for
// others: it still receives and applies every member's messages and
// publishes its own, but forwards (and gossips) none that another member
// authored. It is a fault for the NAT lab (docs/nat-lab.md, FAULT=no-forward)
// and tests, never for play: members that reach each other only through
// such a member hear each other only through catch-up (protocol.md 7.7), as
// a stall of the seats behind it, in which no one is named (7.11).
func WithoutForwarding() NodeOption {
	return func(c *nodeConfig) error {
		c.noForward = true
		return nil
	}
}

// accepted is the validator's verdict on a valid message: accepted
// (delivered and forwarded), or, at a node that does not forward, kept for
// this node alone (read takes it from t.local) and ignored by pubsub, so
// that it is neither forwarded nor announced in gossip. Its own messages
// are always accepted.
func (t *TableTransport) accepted(m *pubsub.Message) pubsub.ValidationResult {
	if t.local == nil || m.GetFrom() == t.n.h.ID() {
		return pubsub.ValidationAccept
	}
	select {
	case t.local <- m:
	default: // full: lost here, as a dropped message (catch-up finds it)
	}
	return pubsub.ValidationIgnore
}

// next is the reader's next message: from the subscription, or at a node
// that does not forward also what the validator kept (t.local). nil when
// the table closes.
func (t *TableTransport) next(sub <-chan *pubsub.Message) *pubsub.Message {
	if t.local == nil {
		m, err := t.sub.Next(t.ctx)
		if err != nil {
			return nil
		}
		return m
	}
	select {
	case m := <-sub:
		return m
	case m := <-t.local:
		return m
	case <-t.ctx.Done():
		return nil
	}
}

// subMessages pumps the subscription into a channel (a node that does not
// forward reads it beside t.local); nil at a node that forwards.
func (t *TableTransport) subMessages() <-chan *pubsub.Message {
	if t.local == nil {
		return nil
	}
	ch := make(chan *pubsub.Message)
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		for {
			m, err := t.sub.Next(t.ctx)
			if err != nil {
				return
			}
			select {
			case ch <- m:
			case <-t.ctx.Done():
				return
			}
		}
	}()
	return ch
}
