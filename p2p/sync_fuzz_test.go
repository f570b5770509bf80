package p2p

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/okey-game/okey/p2p/internal/wire"
)

// FuzzReadResponse: the catch-up response decoder never panics, stays in
// its bounds, and reads back what writeFrame wrote.
func FuzzReadResponse(f *testing.F) {
	var good bytes.Buffer
	good.Write(binary.AppendUvarint(nil, 2))
	wire.WriteFrame(&good, []byte("first"))
	wire.WriteFrame(&good, nil)
	f.Add(good.Bytes())
	f.Add(binary.AppendUvarint(nil, MaxSyncFrames+1))
	f.Add(append(binary.AppendUvarint(nil, 1), binary.AppendUvarint(nil, 1<<40)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		frames, err := readResponse(bufio.NewReader(bytes.NewReader(b)))
		if err != nil {
			return
		}
		if len(frames) > MaxSyncFrames {
			t.Fatalf("%d frames", len(frames))
		}
		var again bytes.Buffer
		again.Write(binary.AppendUvarint(nil, uint64(len(frames))))
		for _, fr := range frames {
			if len(fr) > MaxMessageSize {
				t.Fatalf("a frame of %d bytes", len(fr))
			}
			wire.WriteFrame(&again, fr)
		}
		back, err := readResponse(bufio.NewReader(&again))
		if err != nil || len(back) != len(frames) {
			t.Fatalf("re-encoded response does not read back: %v", err)
		}
		for i := range back {
			if !bytes.Equal(back[i], frames[i]) {
				t.Fatalf("frame %d changed", i)
			}
		}
	})
}

// FuzzReadFrame: a frame decoder never panics, honours its bound, and
// reads back exactly what writeFrame wrote; the bytes after the frame are
// left unread.
func FuzzReadFrame(f *testing.F) {
	var good bytes.Buffer
	wire.WriteFrame(&good, []byte("okey/fetch/v1\x00\x00\x00\x07"))
	f.Add(good.Bytes(), uint8(64))
	f.Add(binary.AppendUvarint(nil, 1<<20), uint8(64))
	f.Add(append(binary.AppendUvarint(nil, 3), "abcdef"...), uint8(3))
	f.Add(bytes.Repeat([]byte{0x80}, 11), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, bound uint8) {
		r := bufio.NewReader(bytes.NewReader(b))
		fr, err := wire.ReadFrame(r, int(bound))
		if err != nil {
			return
		}
		if len(fr) > int(bound) {
			t.Fatalf("a frame of %d bytes over the bound %d", len(fr), bound)
		}
		var again bytes.Buffer
		wire.WriteFrame(&again, fr)
		if !bytes.HasPrefix(b, again.Bytes()) {
			// Only a non-minimal length prefix may differ.
			back, err := wire.ReadFrame(bufio.NewReader(&again), int(bound))
			if err != nil || !bytes.Equal(back, fr) {
				t.Fatal("re-encoded frame does not read back")
			}
		}
		rest, _ := io.ReadAll(r)
		if !bytes.HasSuffix(b, rest) || len(rest) > len(b)-len(fr) {
			t.Fatal("the frame consumed the wrong bytes")
		}
	})
}
