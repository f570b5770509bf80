package p2p

import (
	"bufio"
	"bytes"
	"encoding/binary"
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
