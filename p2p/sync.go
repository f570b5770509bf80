package p2p

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/okey-game/okey/p2p/internal/wire"
	"github.com/okey-game/okey/table"
)

// Bounds of the sync protocol.
const (
	// MaxSyncFrames is the most response frames one Fetch accepts.
	MaxSyncFrames = 10000
	// MaxSyncResponse bounds the sum of one response's frame lengths.
	MaxSyncResponse = 64 << 20
	// MaxSyncRequest bounds a request frame: the table protocol's catch-up
	// requests are a label of at most 32 bytes and at most 32 bytes of
	// argument (a step number, or an envelope hash).
	MaxSyncRequest = 64
	// MaxSyncStreams is the most sync streams a node serves at once for
	// one remote peer; a stream beyond it is reset unread.
	MaxSyncStreams  = 4
	maxTableIDFrame = 64
	// syncRequestTimeout bounds the wait for a request's few bytes.
	syncRequestTimeout = 10 * time.Second
)

// readResponse reads a response: uvarint(count), then count frames.
func readResponse(r *bufio.Reader) ([][]byte, error) {
	count, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, fmt.Errorf("read frame count: %w", err)
	}
	if count > MaxSyncFrames {
		return nil, fmt.Errorf("p2p: response of %d frames, at most %d", count, MaxSyncFrames)
	}
	out := make([][]byte, 0, min(count, 64))
	total := 0
	for range count {
		f, err := wire.ReadFrame(r, MaxMessageSize)
		if err != nil {
			return nil, err
		}
		if total += len(f); total > MaxSyncResponse {
			return nil, fmt.Errorf("%w: response exceeds %d bytes", ErrFrameTooLarge, MaxSyncResponse)
		}
		out = append(out, f)
	}
	return out, nil
}

// Fetch implements table.Transport: it asks member p for data over a sync
// stream and returns the response frames. It is bounded by ctx and by the
// node's sync timeout, whichever ends first; the stream is reset on any
// error.
func (t *TableTransport) Fetch(ctx context.Context, p table.PeerID, req []byte) ([][]byte, error) {
	if t.ctx.Err() != nil {
		return nil, ErrClosed
	}
	pid, err := peer.Decode(string(p))
	if err != nil {
		return nil, fmt.Errorf("p2p: Fetch: bad peer id %q: %v", p, err)
	}
	if !t.memberSet[pid] {
		return nil, fmt.Errorf("%w: %s", ErrNotMember, pid)
	}
	if pid == t.n.h.ID() {
		return nil, errors.New("p2p: Fetch: cannot fetch from self")
	}
	if len(req) > MaxSyncRequest {
		return nil, fmt.Errorf("%w: request of %d bytes, at most %d", ErrFrameTooLarge, len(req), MaxSyncRequest)
	}
	if t.spectator {
		// A member serves one stream of a spectator at a time (7.12).
		t.chat.fetchMu.Lock()
		defer t.chat.fetchMu.Unlock()
	}
	ctx, cancel := context.WithTimeout(ctx, t.n.cfg.syncTimeout)
	defer cancel()
	stop := context.AfterFunc(t.ctx, cancel) // closing the table ends fetches
	defer stop()
	start := time.Now()
	s, err := t.n.h.NewStream(ctx, pid, SyncProtocol)
	if err != nil {
		return nil, fmt.Errorf("p2p: Fetch from %s: open stream: %w", pid, err)
	}
	// Reset unblocks reads and writes when ctx ends before the deadline
	// fires (e.g. cancellation).
	stopReset := context.AfterFunc(ctx, func() { s.Reset() })
	defer stopReset()
	frames, err := func() ([][]byte, error) {
		dl, _ := ctx.Deadline()
		if err := s.SetDeadline(dl); err != nil {
			return nil, err
		}
		w := bufio.NewWriter(s)
		if err := wire.WriteFrame(w, []byte(t.id)); err != nil {
			return nil, err
		}
		if err := wire.WriteFrame(w, req); err != nil {
			return nil, err
		}
		if err := w.Flush(); err != nil {
			return nil, err
		}
		if err := s.CloseWrite(); err != nil {
			return nil, err
		}
		return readResponse(bufio.NewReader(s))
	}()
	if err != nil {
		s.Reset()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return nil, fmt.Errorf("p2p: Fetch from %s: %w", pid, err)
	}
	s.Close()
	t.n.log.Debug("fetched", "table", t.id, "peer", pid.String(), "frames", len(frames), "took", time.Since(start))
	return frames, nil
}

// Serve implements table.Transport: h answers other members' Fetch calls.
// Until Serve is called, requests are refused (the stream is reset). h runs
// on the stream's goroutine; a response that breaks the bounds (more than
// MaxSyncFrames frames, a frame above MaxMessageSize, more than
// MaxSyncResponse bytes) is logged and the stream reset.
func (t *TableTransport) Serve(h func(from table.PeerID, req []byte) [][]byte) {
	t.serve.Store(&h)
}

// handleSync is the host's SyncProtocol handler: it routes a request to
// its table.
func (n *Node) handleSync(s network.Stream) {
	remote := s.Conn().RemotePeer()
	var spect *wire.Ticket // a spectator's place, when it holds one
	// leaveSpect frees the place before the stream's end can reach the
	// spectator, whose next stream must not find it still held.
	leaveSpect := func() {
		if spect != nil {
			n.spectGate.Leave(spect)
			spect = nil
		}
	}
	defer leaveSpect()
	refuse := func(t *TableTransport, reason string, err error) {
		leaveSpect()
		s.Reset()
		if t != nil {
			t.stats.refused.Add(1)
		}
		args := []any{"peer", remote.String(), "reason", reason}
		if err != nil {
			args = append(args, "err", err)
		}
		n.log.Warn("sync request refused", args...)
	}
	if !n.takeSyncSlot(remote) {
		s.Reset()
		n.syncOverCap.Add(1)
		n.log.Debug("sync request refused", "peer", remote.String(), "reason", fmt.Sprintf("more than %d sync streams at once", MaxSyncStreams))
		return
	}
	defer n.releaseSyncSlot(remote)
	// A peer that is a member of no table open here can only be a
	// spectator: it takes a spectator's place before anything is read.
	takeSpect := func() bool {
		tk, why := n.spectGate.Enter(remote, func() { s.Reset() })
		if tk == nil {
			s.Reset()
			n.log.Debug("sync request refused", "peer", remote.String(), "reason", why)
			return false
		}
		spect = tk
		return true
	}
	if !n.memberAnywhere(remote) && !takeSpect() {
		return
	}
	start := time.Now()
	if err := s.SetDeadline(start.Add(n.cfg.syncTimeout)); err != nil {
		refuse(nil, "set deadline", err)
		return
	}
	// The request is a few bytes: it must come soon. Timers reset the
	// stream too, for transports whose streams ignore deadlines.
	reqTimeout := min(n.cfg.syncTimeout, syncRequestTimeout)
	if err := s.SetReadDeadline(start.Add(reqTimeout)); err != nil {
		refuse(nil, "set deadline", err)
		return
	}
	whole := time.AfterFunc(n.cfg.syncTimeout, func() { s.Reset() })
	defer whole.Stop()
	reqTimer := time.AfterFunc(reqTimeout, func() { s.Reset() })
	defer reqTimer.Stop()
	const maxRequestBytes = 2*binary.MaxVarintLen64 + maxTableIDFrame + MaxSyncRequest
	r := bufio.NewReaderSize(io.LimitReader(s, maxRequestBytes), maxRequestBytes)
	idb, err := wire.ReadFrame(r, maxTableIDFrame)
	if err != nil {
		refuse(nil, "bad table id frame", err)
		return
	}
	id := string(idb)
	n.mu.Lock()
	t := n.tables[id]
	n.mu.Unlock()
	if t == nil {
		refuse(nil, "unknown table "+fmt.Sprintf("%q", id), nil)
		return
	}
	switch {
	case t.spectator:
		refuse(t, "table "+id+" is watched here, not served", nil)
		return
	case !t.memberSet[remote] && !t.admits(remote) && !t.byProof():
		refuse(t, "not a member of table "+id+" nor an admitted spectator", nil)
		return
	case !t.memberSet[remote] && spect == nil && !takeSpect():
		return // a member of another table, a spectator of this one
	}
	hp := t.serve.Load()
	if hp == nil {
		refuse(t, "table "+id+" does not serve yet", nil)
		return
	}
	req, err := wire.ReadFrame(r, MaxSyncRequest)
	if err != nil {
		refuse(t, "bad request frame", err)
		return
	}
	if !reqTimer.Stop() || spect != nil && !n.spectGate.Served(spect) {
		leaveSpect()
		s.Reset() // past the request's deadline, or its place was taken
		return
	}
	if pr, ok := spectatorProof(req); ok && !t.memberSet[remote] {
		// A spectator's admission at a private table (protocol.md 7.12):
		// answered with no frames when the proof holds, reset otherwise.
		if !t.proves(remote, pr) {
			refuse(t, "spectator proof does not hold for table "+id, nil)
			return
		}
		req = nil
	} else if !t.memberSet[remote] && !t.admits(remote) {
		refuse(t, "not a member of table "+id+" nor an admitted spectator", nil)
		return
	}
	var resp [][]byte
	switch {
	case string(req) == ChatRequest:
		resp = t.chat.history() // protocol.md 7.13
	case req != nil:
		resp = (*hp)(table.PeerID(remote.String()), req)
	}
	if len(resp) > MaxSyncFrames {
		refuse(t, "internal: response has too many frames", fmt.Errorf("%d frames", len(resp)))
		return
	}
	total := 0
	for _, f := range resp {
		if len(f) > MaxMessageSize {
			refuse(t, "internal: response frame too large", fmt.Errorf("%d bytes", len(f)))
			return
		}
		total += len(f)
	}
	if total > MaxSyncResponse {
		refuse(t, "internal: response too large", fmt.Errorf("%d bytes", total))
		return
	}
	// The response is encoded whole, then sent. A spectator's place is
	// freed before its last byte goes out: the spectator cannot have read
	// the answer before that, so its next request (a spectator fetches one
	// at a time) never finds the place still held by this stream.
	var buf bytes.Buffer
	var hdr [binary.MaxVarintLen64]byte
	buf.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(resp)))])
	for _, f := range resp {
		wire.WriteFrame(&buf, f) // a bytes.Buffer does not fail
	}
	out := buf.Bytes()
	_, err = s.Write(out[:len(out)-1])
	leaveSpect()
	if err == nil {
		_, err = s.Write(out[len(out)-1:])
	}
	if err != nil {
		refuse(t, "write response", err)
		return
	}
	s.Close()
	t.stats.served.Add(1)
	if !t.memberSet[remote] {
		t.sawSpectator(remote)
	}
}

// takeSyncSlot counts a sync stream of remote that is being served; it
// refuses one beyond MaxSyncStreams.
func (n *Node) takeSyncSlot(remote peer.ID) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.syncing[remote] >= MaxSyncStreams {
		return false
	}
	n.syncing[remote]++
	return true
}

func (n *Node) releaseSyncSlot(remote peer.ID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.syncing[remote]--; n.syncing[remote] <= 0 {
		delete(n.syncing, remote)
	}
}

// syncStreams is how many sync streams of remote are being served.
func (n *Node) syncStreams(remote peer.ID) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.syncing[remote]
}
