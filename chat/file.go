package chat

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// FileMagic starts a chat file: the messages of one table, kept beside its
// transcript (protocol.md 7.13). It is no transcript: okey verify skips it.
const FileMagic = "okey-chat/v1\n"

// FileSuffix names a chat file: the transcript's name with ".chat" in
// place of ".okey" (T.okey, T.chat), or "chat" beside a match's
// "transcript" in its folder.
const FileSuffix = ".chat"

// PathBeside is the chat file's path beside a transcript's.
func PathBeside(transcript string) string {
	return strings.TrimSuffix(transcript, ".okey") + FileSuffix
}

// File appends messages to a chat file: the magic, then uvarint(length) ||
// message per message, in arrival order. It is safe for concurrent use.
type File struct {
	mu sync.Mutex
	f  *os.File
}

// OpenFile opens or creates the chat file at path (0600) for appending.
func OpenFile(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.Size() == 0 {
		if _, err := f.WriteString(FileMagic); err != nil {
			f.Close()
			return nil, err
		}
	} else {
		head := make([]byte, len(FileMagic))
		if _, err := f.ReadAt(head, 0); err != nil || string(head) != FileMagic {
			f.Close()
			return nil, fmt.Errorf("chat: %s is not a chat file", path)
		}
	}
	return &File{f: f}, nil
}

// Append adds one encoded message (not synced: a chat lost in a crash
// costs nothing).
func (c *File) Append(raw []byte) error {
	if len(raw) > MaxMessage {
		return fmt.Errorf("chat: message of %d bytes", len(raw))
	}
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(raw)))
	b = append(b, raw...)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return os.ErrClosed
	}
	_, err := c.f.Write(b)
	return err
}

// Close closes the file.
func (c *File) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}

// ReadFile reads a chat file: the messages that decode, in order. A
// record cut short at the end (a crash while appending) ends the list
// without an error; a record that does not decode is an error.
func ReadFile(r io.Reader) ([]*Message, error) {
	br := bufio.NewReader(r)
	head := make([]byte, len(FileMagic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != FileMagic {
		return nil, errors.New("chat: not a chat file")
	}
	var out []*Message
	for {
		n, err := binary.ReadUvarint(br)
		if err == io.EOF {
			return out, nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return out, nil // cut inside a length
		}
		if err != nil {
			return out, fmt.Errorf("chat: record length: %w", err)
		}
		if n > MaxMessage {
			return out, fmt.Errorf("chat: record of %d bytes, at most %d", n, MaxMessage)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return out, nil // cut inside a record
		}
		m, err := Decode(b)
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}
