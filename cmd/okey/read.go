package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui"
)

// transcriptMagic opens every transcript file (protocol.md 6).
const transcriptMagic = "okey-transcript/v1\n"

// maxTranscriptFile bounds what okey reads into memory: 2^20 records of at
// most table.MaxEnvelope bytes would be far more than any match.
const maxTranscriptFile = 1 << 30

// readTranscript reads the transcript at path for verify and replay, with
// messages for a player rather than a library: "is a directory", "not an okey
// transcript", "damaged at byte N". A file cut short inside its last record
// (a crash while writing) is read up to its last whole record, and cut says
// so: verify then finds it unfinished and honest so far, naming no one.
func readTranscript(path string) (t *table.Transcript, cut bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("no such file")
	case err != nil:
		return nil, false, fmt.Errorf("cannot be read: %s", ui.Plain(errors.Unwrap(err)))
	case fi.IsDir():
		return nil, false, fmt.Errorf("is a directory, not a transcript")
	case fi.Size() > maxTranscriptFile:
		return nil, false, fmt.Errorf("not an okey transcript (%d bytes, more than any match)", fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, fmt.Errorf("cannot be read: %s", ui.Plain(errors.Unwrap(err)))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTranscriptFile+1))
	if err != nil {
		return nil, false, fmt.Errorf("cannot be read: %s", ui.Plain(errors.Unwrap(err)))
	}
	return parseTranscript(data)
}

// parseTranscript checks the framing of a transcript file (the header, then
// frames of a type byte and a 4-byte big-endian length) before handing the
// whole records to table.ReadTranscript.
func parseTranscript(data []byte) (*table.Transcript, bool, error) {
	if !bytes.HasPrefix(data, []byte(transcriptMagic)) {
		return nil, false, errors.New("not an okey transcript")
	}
	off := len(transcriptMagic)
	frame := func(at int) (end int, whole bool) {
		if len(data)-at < 4 {
			return len(data), false
		}
		n := int(binary.BigEndian.Uint32(data[at:]))
		if n > table.MaxEnvelope {
			return -1, false
		}
		if len(data)-at-4 < n {
			return len(data), false
		}
		return at + 4 + n, true
	}
	end, whole := frame(off)
	if !whole {
		return nil, false, errors.New("not an okey transcript (its header is damaged or cut short)")
	}
	off = end
	cut := false
	for off < len(data) {
		typ := data[off]
		if typ != table.RecEnvelope && typ != table.RecEvidence {
			return nil, false, fmt.Errorf("damaged at byte %d (no record starts there)", off)
		}
		end, whole := frame(off + 1)
		if end < 0 {
			return nil, false, fmt.Errorf("damaged at byte %d (a record's length is impossible)", off+1)
		}
		if !whole {
			cut = true
			data = data[:off]
			break
		}
		off = end
	}
	t, err := table.ReadTranscript(bytes.NewReader(data))
	if err != nil {
		return nil, false, fmt.Errorf("not an okey transcript (%s)", ui.Plain(err))
	}
	return t, cut, nil
}
