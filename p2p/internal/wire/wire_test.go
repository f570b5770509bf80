package wire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"
)

// TestReadFrameGrows: a frame that announces 1 MiB and brings 100 bytes
// costs about the bytes that came, not the announced length.
func TestReadFrameGrows(t *testing.T) {
	in := append(binary.AppendUvarint(nil, MaxMessageSize), bytes.Repeat([]byte{1}, 100)...)
	const runs = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := bufio.NewReader(nil)
	for range runs {
		r.Reset(bytes.NewReader(in))
		if _, err := ReadFrame(r, MaxMessageSize); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("truncated frame: %v", err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	if per > 2*FrameChunk {
		t.Fatalf("a truncated 1 MiB frame allocated %d bytes", per)
	}
	t.Logf("a truncated 1 MiB frame allocated %d bytes", per)
	// A whole frame still reads back exactly, across chunk boundaries.
	for _, size := range []int{0, 1, FrameChunk - 1, FrameChunk, FrameChunk + 1, 3*FrameChunk + 7, MaxMessageSize} {
		var buf bytes.Buffer
		want := bytes.Repeat([]byte{byte(size)}, size)
		WriteFrame(&buf, want)
		got, err := ReadFrame(bufio.NewReader(&buf), MaxMessageSize)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("frame of %d bytes: %d back, %v", size, len(got), err)
		}
	}
}

// FuzzReadFrame: a frame decoder never panics, honours its bound, and
// reads back exactly what writeFrame wrote; the bytes after the frame are
// left unread.
func FuzzReadFrame(f *testing.F) {
	var good bytes.Buffer
	WriteFrame(&good, []byte("okey/fetch/v1\x00\x00\x00\x07"))
	f.Add(good.Bytes(), uint8(64))
	f.Add(binary.AppendUvarint(nil, 1<<20), uint8(64))
	f.Add(append(binary.AppendUvarint(nil, 3), "abcdef"...), uint8(3))
	f.Add(bytes.Repeat([]byte{0x80}, 11), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, bound uint8) {
		r := bufio.NewReader(bytes.NewReader(b))
		fr, err := ReadFrame(r, int(bound))
		if err != nil {
			return
		}
		if len(fr) > int(bound) {
			t.Fatalf("a frame of %d bytes over the bound %d", len(fr), bound)
		}
		var again bytes.Buffer
		WriteFrame(&again, fr)
		if !bytes.HasPrefix(b, again.Bytes()) {
			// Only a non-minimal length prefix may differ.
			back, err := ReadFrame(bufio.NewReader(&again), int(bound))
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
