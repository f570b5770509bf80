package table

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/okey-game/okey/internal/atomicfile"
)

// Transcript file format (protocol.md 6): the magic line, the config
// (u32 length + bytes), then records: type (1 byte), u32 length, bytes.
const transcriptMagic = "okey-transcript/v1\n"

// Record types.
const (
	RecEnvelope = 1 // an envelope of the chain, in order
	RecEvidence = 2 // an envelope kept as evidence against its signer (not in the chain)
)

// ErrNotTranscript is returned for a file that is not a transcript.
var ErrNotTranscript = errors.New("table: not an okey transcript")

// Transcript is a match's record: the config, the chain, and evidence.
type Transcript struct {
	Config   Config
	Chain    [][]byte
	Evidence [][]byte
	// Torn reports that the file ended in the middle of a record (a crash
	// while writing it): the records before it are read, the cut one is
	// dropped, and the verdict is at best unfinished (protocol.md 6).
	Torn bool
}

// WriteTranscript writes t in the file format.
func WriteTranscript(w io.Writer, t *Transcript) error {
	bw := bufio.NewWriter(w)
	cb, _ := t.Config.MarshalBinary()
	bw.WriteString(transcriptMagic)
	writeFrame(bw, cb)
	for _, e := range t.Chain {
		bw.WriteByte(RecEnvelope)
		writeFrame(bw, e)
	}
	for _, e := range t.Evidence {
		bw.WriteByte(RecEvidence)
		writeFrame(bw, e)
	}
	return bw.Flush()
}

func writeFrame(w *bufio.Writer, b []byte) {
	var l [4]byte
	binary.BigEndian.PutUint32(l[:], uint32(len(b)))
	w.Write(l[:])
	w.Write(b)
}

// ReadTranscript parses a transcript; every record is bounded.
func ReadTranscript(r io.Reader) (*Transcript, error) {
	br := bufio.NewReader(r)
	head := make([]byte, len(transcriptMagic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != transcriptMagic {
		return nil, fmt.Errorf("%w: it does not start with the transcript header", ErrNotTranscript)
	}
	cb, err := readFrame(br)
	if err != nil {
		return nil, fmt.Errorf("%w: its table config is damaged or cut short", ErrNotTranscript)
	}
	t := &Transcript{}
	if err := t.Config.UnmarshalBinary(cb); err != nil {
		return nil, fmt.Errorf("%w: its table config does not hold: %v", ErrNotTranscript, err)
	}
	for {
		typ, err := br.ReadByte()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		b, err := readFrame(br)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if typ != RecEnvelope && typ != RecEvidence {
				return nil, fmt.Errorf("%w: damaged at record %d (no record starts there)", ErrNotTranscript, len(t.Chain)+len(t.Evidence))
			}
			t.Torn = true // the last record is cut short
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: damaged at record %d (%v)", ErrNotTranscript, len(t.Chain)+len(t.Evidence), err)
		}
		switch typ {
		case RecEnvelope:
			// Evidence may come before later chain records: a peer that
			// recorded evidence and crashed before the match ended goes on
			// appending the chain when it resumes (protocol.md 6).
			t.Chain = append(t.Chain, b)
		case RecEvidence:
			t.Evidence = append(t.Evidence, b)
		default:
			return nil, fmt.Errorf("%w: damaged at record %d (no record starts there)", ErrNotTranscript, len(t.Chain)+len(t.Evidence))
		}
		if len(t.Chain)+len(t.Evidence) > 1<<20 {
			return nil, fmt.Errorf("%w: too many records", ErrNotTranscript)
		}
	}
}

func readFrame(r io.Reader) ([]byte, error) {
	var l [4]byte
	if _, err := io.ReadFull(r, l[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(l[:])
	if n > MaxEnvelope {
		return nil, fmt.Errorf("a record's length is impossible")
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Store keeps what a peer needs to resume after a crash: its per-hand
// secret seeds (saved before first use) and the chain as it grows.
type Store interface {
	SaveSecret(hand uint32, seed []byte) error
	LoadSecret(hand uint32) ([]byte, error) // nil, nil when none
	Append(rec byte, raw []byte) error
	Load() (*Transcript, error) // nil, nil when empty
}

// MemStore is a Store in memory (tests, sim without --out).
type MemStore struct {
	mu      sync.Mutex
	cfg     Config
	secrets map[uint32][]byte
	t       *Transcript
}

// NewMemStore returns an empty store for cfg.
func NewMemStore(cfg Config) *MemStore {
	return &MemStore{cfg: cfg, secrets: map[uint32][]byte{}}
}

// SaveSecret keeps a copy of a hand's seed in memory.
func (s *MemStore) SaveSecret(hand uint32, seed []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets[hand] = append([]byte(nil), seed...)
	return nil
}

// LoadSecret returns a hand's seed, or nil if none was saved.
func (s *MemStore) LoadSecret(hand uint32) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.secrets[hand], nil
}

// Append adds a copy of a record to the transcript in memory.
func (s *MemStore) Append(rec byte, raw []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t == nil {
		s.t = &Transcript{Config: s.cfg}
	}
	if rec == RecEnvelope {
		s.t.Chain = append(s.t.Chain, append([]byte(nil), raw...))
	} else {
		s.t.Evidence = append(s.t.Evidence, append([]byte(nil), raw...))
	}
	return nil
}

// Load returns a copy of the transcript, or nil if nothing was appended.
func (s *MemStore) Load() (*Transcript, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t == nil {
		return nil, nil
	}
	c := *s.t
	c.Chain = append([][]byte(nil), s.t.Chain...)
	c.Evidence = append([][]byte(nil), s.t.Evidence...)
	return &c, nil
}

// DirStore keeps a peer's state in a directory (created 0700): secret seeds
// in files `secret-<hand>` (0600) and the transcript in `transcript`, in the
// transcript file format, appended record by record and synced.
type DirStore struct {
	mu  sync.Mutex
	dir string
	cfg Config
	f   *os.File
}

// OpenDirStore opens or creates the store for a table in dir.
func OpenDirStore(dir string, cfg Config) (*DirStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &DirStore{dir: dir, cfg: cfg}, nil
}

// TranscriptPath returns the transcript file's path.
func (s *DirStore) TranscriptPath() string { return filepath.Join(s.dir, "transcript") }

// SaveSecret saves a hand's seed (0600), synced before it returns: the
// peer uses it only afterwards, so a crash never loses a seed in use.
func (s *DirStore) SaveSecret(hand uint32, seed []byte) error {
	return atomicfile.Write(filepath.Join(s.dir, "secret-"+strconv.FormatUint(uint64(hand), 10)), seed)
}

// LoadSecret returns a hand's seed, or nil if none was saved.
func (s *DirStore) LoadSecret(hand uint32) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, "secret-"+strconv.FormatUint(uint64(hand), 10)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// Append adds a record and waits for the disk: what a peer sent must
// survive a crash, since it must send the very same bytes again.
func (s *DirStore) Append(rec byte, raw []byte) error { return s.append(rec, raw, true) }

// AppendLazy adds a record without waiting for the disk: a received
// envelope lost in a crash is fetched again from the others. The next
// Append's sync writes it out too.
func (s *DirStore) AppendLazy(rec byte, raw []byte) error { return s.append(rec, raw, false) }

func (s *DirStore) append(rec byte, raw []byte, sync bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		p := s.TranscriptPath()
		_, statErr := os.Stat(p)
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		s.f = f
		if errors.Is(statErr, os.ErrNotExist) {
			cb, _ := s.cfg.MarshalBinary()
			hdr := append([]byte(transcriptMagic), binary.BigEndian.AppendUint32(nil, uint32(len(cb)))...)
			if _, err := f.Write(append(hdr, cb...)); err != nil {
				return err
			}
		}
	}
	b := append([]byte{rec}, binary.BigEndian.AppendUint32(nil, uint32(len(raw)))...)
	if _, err := s.f.Write(append(b, raw...)); err != nil {
		return err
	}
	if !sync {
		return nil
	}
	return s.f.Sync()
}

// Load reads the saved transcript. A record cut short at the end of the
// file (the machine stopped in the middle of a write) is dropped and the
// file truncated to the records before it; anything else unreadable is an
// error.
func (s *DirStore) Load() (*Transcript, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.TranscriptPath()
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t, err := ReadTranscript(bytes.NewReader(data))
	if err != nil {
		return nil, err // not a torn last record: leave the file alone
	}
	if !t.Torn {
		return t, nil
	}
	good, torn := completeRecords(data)
	if !torn {
		return nil, fmt.Errorf("%w: a cut record the reader did not see", ErrNotTranscript)
	}
	t.Torn = false
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if err := os.Truncate(p, int64(good)); err != nil {
		return nil, err
	}
	return t, nil
}

// completeRecords returns the length of data's prefix made of the header,
// the config and whole records, and whether what follows is one record cut
// short by the end of the file (a well-formed start whose bytes run out).
func completeRecords(data []byte) (good int, torn bool) {
	off := len(transcriptMagic)
	if len(data) < off+4 {
		return 0, false
	}
	off += 4 + int(binary.BigEndian.Uint32(data[off:]))
	if off > len(data) {
		return 0, false
	}
	for off < len(data) {
		rest := data[off:]
		if rest[0] != RecEnvelope && rest[0] != RecEvidence {
			return off, false
		}
		if len(rest) < 5 {
			return off, true
		}
		n := int(binary.BigEndian.Uint32(rest[1:]))
		if n > MaxEnvelope {
			return off, false
		}
		if len(rest)-5 < n {
			return off, true
		}
		off += 5 + n
	}
	return off, false
}

// Close closes the transcript file.
func (s *DirStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		err := s.f.Close()
		s.f = nil
		return err
	}
	return nil
}
