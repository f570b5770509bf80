package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A roll call is the one table-topic message that is not an envelope
// (protocol.md 7.4): a member publishes it to say that it is on the topic
// and which members it has heard. Its pubsub signature (StrictSign) is the
// member's own, so a roll call that arrives, through anyone's gossip, proves
// that the member is on the table's topic and that its messages reach this
// node: a member counts as reached when its roll call (or any message it
// authored) arrives, not only when a direct connection reports it joined.
//
//	"OKR" || u8 version(=1) || u16 members || bitmap(ceil(members/8))
//
// Bit i (byte i/8, bit i%8 from the least significant) is member i in the
// table's member order: set when its author has heard member i (itself
// included). Unused bits are zero.
const (
	rollCallMagic   = "OKR"
	rollCallVersion = 1
	rollCallHeader  = len(rollCallMagic) + 1 + 2
)

// rollCallInterval is how often a member that has not heard every other
// member yet publishes a roll call, and the least time between two roll
// calls it publishes to answer members that have not heard it.
const rollCallInterval = time.Second

// isRollCall reports whether data is meant as a roll call (it may still fail
// to decode). An envelope starts with "OKY" (5.2), never with this magic.
func isRollCall(data []byte) bool {
	return len(data) >= len(rollCallMagic) && string(data[:len(rollCallMagic)]) == rollCallMagic
}

// encodeRollCall writes a roll call for heard (one entry per member).
func encodeRollCall(heard []bool) []byte {
	out := make([]byte, rollCallHeader+(len(heard)+7)/8)
	copy(out, rollCallMagic)
	out[len(rollCallMagic)] = rollCallVersion
	binary.BigEndian.PutUint16(out[len(rollCallMagic)+1:], uint16(len(heard)))
	for i, h := range heard {
		if h {
			out[rollCallHeader+i/8] |= 1 << (i % 8)
		}
	}
	return out
}

// decodeRollCall reads a roll call of a table with members members,
// exactly: any other length, version, member count or a set unused bit is
// an error.
func decodeRollCall(data []byte, members int) ([]bool, error) {
	if !isRollCall(data) || len(data) < rollCallHeader {
		return nil, errors.New("p2p: roll call: short or bad magic")
	}
	if v := data[len(rollCallMagic)]; v != rollCallVersion {
		return nil, fmt.Errorf("p2p: roll call: version %d", v)
	}
	if n := int(binary.BigEndian.Uint16(data[len(rollCallMagic)+1:])); n != members {
		return nil, fmt.Errorf("p2p: roll call: %d members, the table has %d", n, members)
	}
	if want := rollCallHeader + (members+7)/8; len(data) != want {
		return nil, fmt.Errorf("p2p: roll call: %d bytes, want %d", len(data), want)
	}
	heard := make([]bool, members)
	bits := data[rollCallHeader:]
	for i := range heard {
		heard[i] = bits[i/8]&(1<<(i%8)) != 0
	}
	if members%8 != 0 && bits[len(bits)-1]>>(members%8) != 0 {
		return nil, errors.New("p2p: roll call: unused bits set")
	}
	return heard, nil
}

// rollCallFrom records a valid roll call by author: author is heard, and
// when it has not heard this node an answer is owed.
func (t *TableTransport) rollCallFrom(author peer.ID, heard []bool) {
	t.markHeard(author)
	if t.selfIndex >= 0 && !heard[t.selfIndex] {
		select {
		case t.owed <- struct{}{}:
		default:
		}
	}
}

// markHeard records that a message authored by member p arrived.
func (t *TableTransport) markHeard(p peer.ID) {
	t.rcMu.Lock()
	fresh := !t.heard[p]
	t.heard[p] = true
	t.rcMu.Unlock()
	if fresh {
		select {
		case t.heardCh <- struct{}{}:
		default:
		}
	}
}

// setJoined records the topic's report of p joining or leaving.
func (t *TableTransport) setJoined(p peer.ID, joined bool) {
	t.rcMu.Lock()
	if joined {
		t.joined[p] = true
	} else {
		delete(t.joined, p)
	}
	t.rcMu.Unlock()
}

// missing lists the other members neither heard nor joined.
func (t *TableTransport) missing() []peer.ID {
	t.rcMu.Lock()
	defer t.rcMu.Unlock()
	var out []peer.ID
	for _, p := range t.others {
		if !t.heard[p] && !t.joined[p] {
			out = append(out, p)
		}
	}
	return out
}

// rollCall is this node's roll call now.
func (t *TableTransport) rollCall() []byte {
	t.rcMu.Lock()
	heard := make([]bool, len(t.members))
	for i, p := range t.members {
		heard[i] = i == t.selfIndex || t.heard[p] || t.joined[p]
	}
	t.rcMu.Unlock()
	return encodeRollCall(heard)
}

// rollCalls publishes this node's roll calls until the table closes: every
// rollCallInterval while open waits (calling), and, at most once per
// rollCallInterval, when a member's roll call shows it has not heard this
// node (so a member that is still waiting, or that restarted, hears the
// ones that stopped calling).
func (t *TableTransport) rollCalls() {
	defer t.wg.Done()
	tick := time.NewTicker(rollCallInterval)
	defer tick.Stop()
	var last time.Time
	pending := false
	publish := func() {
		last = time.Now()
		pending = false
		if err := t.topic.Publish(t.ctx, t.rollCall()); err != nil && t.ctx.Err() == nil {
			t.n.log.Debug("roll call not published", "table", t.id, "err", err)
		}
	}
	publish()
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-t.owed:
			if time.Since(last) >= rollCallInterval {
				publish()
			} else {
				pending = true
			}
		case <-tick.C:
			if pending || t.calling.Load() {
				publish()
			}
		}
	}
}
