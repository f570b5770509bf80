package wire

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// MaxMessageSize bounds one table or lobby message's data, and one sync
// frame (package p2p's MaxMessageSize).
const MaxMessageSize = 1 << 20

// FrameChunk is how much of a frame's announced length is allocated ahead
// of the bytes that arrive: a frame's buffer grows as it is read, so a peer
// that announces a large frame and stays silent holds no more than this.
const FrameChunk = 16 << 10

// ErrFrameTooLarge is returned (wrapped) for a frame above its bound.
var ErrFrameTooLarge = errors.New("p2p: frame too large")

// WriteFrame writes uvarint(len(b)) || b.
func WriteFrame(w io.Writer, b []byte) error {
	var hdr [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(hdr[:], uint64(len(b)))
	if _, err := w.Write(hdr[:k]); err != nil {
		return err
	}
	_, err := w.Write(b)
	return err
}

// ReadFrame reads one frame of at most max bytes. It refuses a larger
// announced length before reading the body, and allocates the body as it
// arrives (FrameChunk at a time, the buffer growing geometrically), never
// the announced length up front.
func ReadFrame(r *bufio.Reader, max int) ([]byte, error) {
	l, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, fmt.Errorf("read frame length: %w", err)
	}
	if l > uint64(max) {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrFrameTooLarge, l, max)
	}
	n := int(l)
	b := make([]byte, 0, min(n, FrameChunk))
	for len(b) < n {
		k := min(n-len(b), FrameChunk)
		b = slices.Grow(b, k)
		if _, err := io.ReadFull(r, b[len(b):len(b)+k]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("read frame: %w", err)
		}
		b = b[:len(b)+k]
	}
	return b, nil
}

var tableIDRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidTableID checks a table id: 1 to 64 characters of [A-Za-z0-9_-].
func ValidTableID(id string) error {
	if !tableIDRE.MatchString(id) {
		return fmt.Errorf("p2p: invalid table id %q (want 1-64 of A-Z a-z 0-9 _ -)", id)
	}
	return nil
}

// ParsePeerAddr parses a multiaddr ending in /p2p/<peer id> with at least
// one transport part before it.
func ParsePeerAddr(s string) (peer.AddrInfo, error) {
	a, err := ma.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("p2p: bad peer address %q: %v", s, err)
	}
	ai, err := peer.AddrInfoFromP2pAddr(a)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("p2p: bad peer address %q (it must end in /p2p/<peer id>): %v", s, err)
	}
	if len(ai.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("p2p: bad peer address %q: no transport address before /p2p/", s)
	}
	return *ai, nil
}

// CloseTopic closes a topic whose subscription was just cancelled: pubsub
// handles the cancellation asynchronously, so retry briefly.
func CloseTopic(ctx context.Context, topic *pubsub.Topic) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := topic.Close()
		if err == nil || ctx.Err() != nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("p2p: close topic %s: %w", topic.String(), err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ErrInsecureKeyFile is returned (wrapped) when the identity file can be
// read by other users. The file is not changed: the user decides (chmod 600
// keeps the identity; deleting the file makes a new one).
var ErrInsecureKeyFile = errors.New("p2p: identity file is readable by other users")

// ReadPrivateFile reads a file that must be a regular file with no group or
// other permissions, at most max bytes.
func ReadPrivateFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("p2p: %s is not a regular file", path)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s has mode %#o, want 0600 (chmod 600 it to keep it, or delete it to make a new identity)", ErrInsecureKeyFile, path, perm)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("p2p: %s is too large (%d bytes) to be a key or profile", path, st.Size())
	}
	buf, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("p2p: read %s: %w", path, err)
	}
	if int64(len(buf)) > max {
		return nil, fmt.Errorf("p2p: %s is too large to be a key or profile", path)
	}
	return buf, nil
}
